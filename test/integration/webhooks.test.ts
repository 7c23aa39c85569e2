import { createHmac } from 'node:crypto';
import { EVENT_CATALOGUE } from '../../common/contracts/event-catalogue';
import {
  buildEvent,
  EVENT_TYPES,
  platformEventStream,
  publishPlatformEvent,
  type EventType,
} from '../../common/contracts/platform-events';
import {
  buildUserNotice,
  publishUserNotice,
  userNoticeStream,
} from '../../common/contracts/user-notices';
import { createRedis } from '../../common/platform/redis';
import { deliveryIdFor } from '../../subgraphs/webhooks/src/services/delivery.service';
import { openDeliveryQueue } from '../support/delivery-queue';
import { buildAccessToken, buildAccount, buildApiKey } from '../support/factories';
import { graphql, http, type JsonResponse } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startMailReceiver, type MailReceiver } from '../support/mail-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const BASE = '/v1/cli/mutate/webhooks';

/** Fast retries for the tests: 50 ms, 150 ms, 450 ms… with 4 attempts in all. */
const FAST_DELIVERY = {
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_MAX_ATTEMPTS: '4',
  // Longer than the hanging receivers' 5 s below, so a delivery held up behind a hanging one
  // would wait those 5 s: late by a wide margin, even when a loaded machine slows every delivery.
  WEBHOOK_TIMEOUT_MS: '8000',
};

const hmac = (secret: string, raw: Buffer) =>
  createHmac('sha256', secret).update(raw).digest('hex');

type Envelope<T> = { success: boolean; data: T; timestamp: string };
type ErrorBody = { success?: false; error: { code: string; message: string } };
interface WebhookData {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  status: string;
  created_at: string;
  secret?: string;
}
interface TestData {
  delivery_id: string;
  event_id: string;
  success: boolean;
  status_code: number | null;
  response_body: string;
  response_body_truncated: boolean;
  duration_ms: number;
  error: string | null;
}

function managementClient(stack: Stack) {
  return async function call<T>(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${stack.facade.url}${BASE}${path}`;
    const response = await http<T>(url, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expectMatchesOpenApi(method, `${BASE}${path}`, response);
    return response;
  };
}

async function userWithToken(stack: Stack) {
  const account = await buildAccount(stack);
  const { token } = await buildAccessToken(stack, account.user.id);
  return { account, userId: account.user.id, token };
}

describe('webhook management and delivery (HTTP, real receiver on loopback)', () => {
  let stack: Stack;
  let call: ReturnType<typeof managementClient>;
  let receiver: WebhookReceiver;
  let publisher: ReturnType<typeof createRedis>;
  let mailbox: MailReceiver;

  const publish = (type: EventType, userId: string, data: Record<string, unknown> = {}) => {
    const event = buildEvent(type, userId, null, data);
    return publishPlatformEvent(publisher, stack.env.REDIS_KEY_PREFIX!, event).then(() => event);
  };
  const create = async (token: string, body: Record<string, unknown>) => {
    const response = await call<Envelope<WebhookData>>('POST', '', token, body);
    expect(response.status).toBe(201);
    return response.body.data as WebhookData & { secret: string };
  };
  /**
   * Resolves once every event published so far has been handed over (the stream keeps only what
   * is not) and no delivery to `webhookIds` is pending: nothing more can reach their receivers.
   */
  const settled = async (...webhookIds: string[]) => {
    const stream = platformEventStream(stack.env.REDIS_KEY_PREFIX!);
    await waitFor(async () => (await publisher.xlen(stream)) === 0);
    const { deliveries } = stack.webhooks.services;
    await waitFor(async () => {
      for (const id of webhookIds)
        if ((await deliveries.recentDeliveries(id, 100)).some((d) => d.status === 'pending'))
          return false;
      return true;
    });
  };

  beforeAll(async () => {
    mailbox = await startMailReceiver();
    stack = await startStack('webhooks', { ...FAST_DELIVERY, SMTP_URL: mailbox.url });
    call = managementClient(stack);
    publisher = createRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    publisher.disconnect();
    await stack.stop();
    await mailbox.close();
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());

  describe('POST /v1/cli/mutate/webhooks', () => {
    it('HOOK-1: when a user posts {url}, then it answers 201 with the id and the signing secret, shown this once', async () => {
      const { token } = await userWithToken(stack);

      const response = await call<Envelope<WebhookData>>('POST', '', token, {
        url: receiver.url,
        description: 'staging',
        event_types: ['api_key.created'],
      });

      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        url: receiver.url,
        description: 'staging',
        event_types: ['api_key.created'],
        status: 'active',
      });
      expect(response.body.data.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const list = await call<Envelope<{ webhooks: WebhookData[] }>>('GET', '', token);
      expect(JSON.stringify(list.body)).not.toContain(response.body.data.secret!);
    });

    it('HOOK-9: when the user belongs to a Free-plan team only, then webhooks are available all the same', async () => {
      const account = await buildAccount(stack, { plan: 'free' });
      const { token } = await buildAccessToken(stack, account.user.id);
      const webhook = await create(token, { url: receiver.url });
      const test = await call<Envelope<TestData>>('POST', `/${webhook.id}/test`, token);
      expect(test.status).toBe(200);
      expect(test.body.data.success).toBe(true);
    });

    it('HOOK-1: when the body is not JSON, then it answers 415; when it is not an object, url is missing or an event type unknown, then 400', async () => {
      const { token } = await userWithToken(stack);
      const notJson = await http<ErrorBody>(`${stack.facade.url}${BASE}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: 'url=x',
      });
      const nullBody = await http<ErrorBody & { error: { details: unknown } }>(
        `${stack.facade.url}${BASE}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: 'null',
        },
      );
      const noUrl = await call<ErrorBody>('POST', '', token, { description: 'no url' });
      const badType = await call<ErrorBody>('POST', '', token, {
        url: receiver.url,
        event_types: ['nope'],
      });

      expect(notJson.status).toBe(415);
      // JSON, but not an object: said so, rather than "not valid JSON".
      expect(nullBody.status).toBe(400);
      expect(nullBody.body.error.code).toBe('invalid_parameters');
      expect(nullBody.body.error.details).toEqual([
        { path: '', message: expect.stringContaining('expected object, received null') },
      ]);
      expect(noUrl.status).toBe(400);
      expect(noUrl.body.error.code).toBe('invalid_parameters');
      expect(badType.status).toBe(400);
      expect(badType.body.error.code).toBe('invalid_parameters');
    });

    it.each([
      ['a private address', 'http://10.0.0.5/hook'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
      ['a private address in IPv4-mapped IPv6', 'http://[::ffff:192.168.1.1]/hook'],
      ['the unspecified address', 'http://0.0.0.0:8080/hook'],
      ['a unique-local IPv6 address', 'http://[fd00::1]/hook'],
      ['a carrier-grade NAT address', 'http://100.64.0.1/hook'],
      ['a non-http scheme', 'ftp://example.com/hook'],
      ['a relative URL', '/hook'],
    ])('SSRF: when the URL points at %s, then creation is refused with 400', async (_what, url) => {
      const { token } = await userWithToken(stack);
      const response = await call<ErrorBody>('POST', '', token, { url });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_webhook_url');
    });

    it('HOOK-10: when a user already has 20 webhooks, then the 21st is refused with 409 webhook_limit_reached', async () => {
      const { token } = await userWithToken(stack);
      for (let i = 0; i < 20; i += 1) await create(token, { url: `${receiver.url}/${i}` });

      const response = await call<ErrorBody>('POST', '', token, { url: receiver.url });

      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('webhook_limit_reached');
    });

    it('HOOK-10: when a user with no webhook creates 25 at once, then exactly 20 are created and the other 5 get 409 webhook_limit_reached', async () => {
      const { token } = await userWithToken(stack);

      const responses = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          call<ErrorBody>('POST', '', token, { url: `${receiver.url}/${i}` }),
        ),
      );

      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array<number>(20).fill(201), ...Array<number>(5).fill(409)]);
      for (const refused of responses.filter((r) => r.status === 409))
        expect(refused.body.error.code).toBe('webhook_limit_reached');
      const list = await call<Envelope<{ webhooks: WebhookData[] }>>('GET', '', token);
      expect(list.status).toBe(200);
      expect(list.body.data.webhooks).toHaveLength(20);
    });

    it('HOOK-10: when the body exceeds 16 KiB, then it answers 413; without a token, 401 whatever the body', async () => {
      const { token } = await userWithToken(stack);
      const oversized = { url: receiver.url, description: 'x'.repeat(17_000) };
      const response = await call<ErrorBody>('POST', '', token, oversized);
      expect(response.status).toBe(413);
      const anonymous = await call<ErrorBody>('POST', '', null, oversized);
      const broken = await http<ErrorBody>(`${stack.facade.url}${BASE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"url": ',
      });
      for (const refused of [anonymous, broken]) {
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('invalid_access_token');
      }
    });

    it('HOOK-6: when no token, an unknown token or an API key is sent, then it answers 401 invalid_access_token', async () => {
      const { account } = await userWithToken(stack);
      const { key } = await buildApiKey(stack, account);
      const none = await call<ErrorBody>('POST', '', null, { url: receiver.url });
      const unknown = await call<ErrorBody>('GET', '', `wat_${'A'.repeat(43)}`);
      const apiKey = await call<ErrorBody>('GET', '', key);

      for (const response of [none, unknown, apiKey]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual({
          error: { code: 'invalid_access_token', message: expect.any(String) },
        });
        expect(response.headers.get('www-authenticate')).toBe(
          response === none ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"',
        );
      }
    });

    it('HOOK-6: when the access token was revoked, then it answers 401', async () => {
      const account = await buildAccount(stack);
      const created = await buildAccessToken(stack, account.user.id);
      await stack.keys.services.credentials.revokeAccessToken(created.id);
      const response = await call<ErrorBody>('GET', '', created.token);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('invalid_access_token');
    });
  });

  describe('GET /v1/cli/mutate/webhooks', () => {
    it('HOOK-2: when a user lists, then it gets its own webhooks in creation order, never a secret', async () => {
      const { token } = await userWithToken(stack);
      const other = await userWithToken(stack);
      const first = await create(token, { url: receiver.url });
      const second = await create(token, {
        url: `${receiver.url}/2`,
        event_types: ['usage.threshold_reached'],
      });
      await create(other.token, { url: receiver.url });

      const response = await call<Envelope<{ webhooks: WebhookData[] }>>('GET', '', token);

      expect(response.status).toBe(200);
      expect(response.body.data.webhooks.map((w) => w.id)).toEqual([first.id, second.id]);
      expect(response.body.data.webhooks[1]).toEqual({
        id: second.id,
        url: `${receiver.url}/2`,
        description: null,
        event_types: ['usage.threshold_reached'],
        status: 'active',
        disabled_reason: null,
        created_at: expect.any(String),
        secret_rotated_at: null,
        alerts: {
          website_ids: null,
          spike_ratio: 2,
          drop_ratio: 0.5,
          report_hour: 8,
          goal_every: null,
        },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/whsec_|"secret"/);
    });
  });

  describe('ownership', () => {
    it("when a user tests, rotates or deletes another user's webhook, then it answers 404 as for an unknown id, and nothing changes", async () => {
      const owner = await userWithToken(stack);
      const intruder = await userWithToken(stack);
      const webhook = await create(owner.token, { url: receiver.url });

      const responses = [
        await call<ErrorBody>('POST', `/${webhook.id}/test`, intruder.token),
        await call<ErrorBody>('POST', `/${webhook.id}/rotate`, intruder.token),
        await call<ErrorBody>('DELETE', `/${webhook.id}`, intruder.token),
        await call<ErrorBody>('DELETE', '/0123456789abcdef01234567', owner.token),
        await call<ErrorBody>('POST', '/not-an-id/test', owner.token),
      ];

      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
      expect(receiver.requests).toHaveLength(0);
      const list = await call<Envelope<{ webhooks: WebhookData[] }>>('GET', '', owner.token);
      expect(list.body.data.webhooks.map((w) => w.id)).toEqual([webhook.id]);
    });
  });

  describe('POST /v1/cli/mutate/webhooks/{id}/test', () => {
    it('HOOK-3, HOOK-7: when tested, then the receiver gets a signed webhook.test now and the answer reports its status, truncated body and timing', async () => {
      const { token } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith({ status: 202, body: 'y'.repeat(5_000) });

      const response = await call<Envelope<TestData>>('POST', `/${webhook.id}/test`, token);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        success: true,
        status_code: 202,
        response_body_truncated: true,
        error: null,
      });
      expect(response.body.data.response_body).toBe('y'.repeat(2_048));
      expect(response.body.data.duration_ms).toEqual(expect.any(Number));
      expect(receiver.requests).toHaveLength(1);
      const [request] = receiver.requests;
      expect(request!.method).toBe('POST');
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.headers['x-webhook-signature']).toBe(hmac(webhook.secret, request!.rawBody));
      expect(request!.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
      const body = receiver.json(0);
      expect(body).toMatchObject({
        id: response.body.data.event_id,
        type: 'webhook.test',
        webhook_id: webhook.id,
      });
      expect(request!.headers['x-webhook-event-id']).toBe(body.id);
      expect(request!.headers['x-webhook-event-type']).toBe('webhook.test');
    });

    it('HOOK-3: when the receiver is unreachable, then it answers 200 with success false, no status and the error', async () => {
      const { token } = await userWithToken(stack);
      const gone = await startWebhookReceiver();
      const url = gone.url;
      await gone.close();
      const webhook = await create(token, { url });

      const response = await call<Envelope<TestData>>('POST', `/${webhook.id}/test`, token);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        success: false,
        status_code: null,
        response_body: '',
      });
      expect(response.body.data.error).toEqual(expect.any(String));
    });
  });

  describe('GET /v1/cli/mutate/webhooks/event-types', () => {
    it('HOOK-10: when the catalogue is asked for, then every event type comes with its description, whether it can be subscribed to, and the JSON Schema of its data', async () => {
      const { token } = await userWithToken(stack);

      const response = await call<
        Envelope<{
          event_types: Array<{
            type: EventType;
            description: string;
            subscribable: boolean;
            schema: unknown;
          }>;
        }>
      >('GET', '/event-types', token);

      expect(response.status).toBe(200);
      expect(response.body.data.event_types).toEqual(
        EVENT_TYPES.map((type) => ({
          type,
          description: EVENT_CATALOGUE[type].description,
          subscribable: type !== 'webhook.test',
          schema: EVENT_CATALOGUE[type].schema,
        })),
      );
      expect((await call<ErrorBody>('GET', '/event-types', null)).status).toBe(401);
    });
  });

  describe('GET /v1/cli/mutate/webhooks/{id}/deliveries', () => {
    interface DeliveryData {
      id: string;
      event_id: string;
      event_type: string;
      status: string;
      test: boolean;
      created_at: string;
      next_attempt_at: string | null;
      attempts: Array<{
        attempt: number;
        at: string;
        status_code: number | null;
        duration_ms: number;
        error: string | null;
        response_body: string;
      }>;
    }
    type DeliveryPage = {
      deliveries: DeliveryData[];
      has_more: boolean;
      next_starting_after: string | null;
    };
    const deliveries = (id: string, token: string, query = '') =>
      call<Envelope<DeliveryPage>>('GET', `/${id}/deliveries${query}`, token);

    it('HOOK-10: when a webhook has deliveries, then they are listed latest first with every attempt, filtered by status and time, and paged with starting_after without repeats or gaps', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith((_request, index) =>
        index === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'fine' },
      );
      const event = await publish('usage.threshold_reached', userId, {
        organization_id: 'o1',
        threshold: 80,
      });
      await receiver.waitForRequests(2);
      await settled(webhook.id);
      const tests: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const tested = await call<Envelope<TestData>>('POST', `/${webhook.id}/test`, token);
        tests.push(tested.body.data.delivery_id);
      }

      const all = await deliveries(webhook.id, token);
      expect(all.status).toBe(200);
      expect(all.body.data.has_more).toBe(false);
      expect(all.body.data.next_starting_after).toBeNull();
      const listed = all.body.data.deliveries;
      expect(listed).toHaveLength(5);
      const createdAt = listed.map((d) => Date.parse(d.created_at));
      expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
      const retried = listed.find((d) => d.event_id === event.id)!;
      expect(retried).toMatchObject({
        event_type: 'usage.threshold_reached',
        status: 'succeeded',
        test: false,
        next_attempt_at: null,
      });
      expect(retried.attempts.map((a) => [a.attempt, a.status_code, a.response_body])).toEqual([
        [1, 500, 'boom'],
        [2, 200, 'fine'],
      ]);
      expect(
        listed
          .filter((d) => d.test)
          .map((d) => d.id)
          .sort(),
      ).toEqual([...tests].sort());

      const paged: string[] = [];
      let query = '?limit=2';
      for (;;) {
        const page = await deliveries(webhook.id, token, query);
        expect(page.status).toBe(200);
        expect(page.body.data.deliveries.length).toBeLessThanOrEqual(2);
        paged.push(...page.body.data.deliveries.map((d) => d.id));
        if (!page.body.data.has_more) break;
        query = `?limit=2&starting_after=${page.body.data.next_starting_after}`;
      }
      expect(paged).toEqual(listed.map((d) => d.id));

      const succeeded = await deliveries(webhook.id, token, '?status=succeeded');
      expect(succeeded.body.data.deliveries.map((d) => d.id)).toEqual(
        listed.filter((d) => d.status === 'succeeded').map((d) => d.id),
      );
      const first = retried.created_at;
      const since = await deliveries(webhook.id, token, `?since=${encodeURIComponent(first)}`);
      expect(since.body.data.deliveries.map((d) => d.id)).toContain(retried.id);
      const until = await deliveries(webhook.id, token, `?until=${encodeURIComponent(first)}`);
      expect(until.body.data.deliveries.map((d) => d.id)).not.toContain(retried.id);
      expect(
        until.body.data.deliveries.every((d) => Date.parse(d.created_at) < Date.parse(first)),
      ).toBe(true);
    });

    it('HOOK-10: when the query is bad, then 400 invalid_parameters names it; another user’s or an unknown webhook is 404; no token is 401', async () => {
      const owner = await userWithToken(stack);
      const intruder = await userWithToken(stack);
      const webhook = await create(owner.token, { url: receiver.url });
      const other = await create(intruder.token, { url: receiver.url });
      const othersDelivery = (
        await call<Envelope<TestData>>('POST', `/${other.id}/test`, intruder.token)
      ).body.data.delivery_id;

      for (const [query, message] of [
        ['?status=done', /status must be one of pending, succeeded, failed, cancelled/],
        ['?since=yesterday', /since must be an ISO 8601 instant/],
        ['?until=2026-11-28', /until must be an ISO 8601 instant/],
        ['?since=2026-02-31T00:00:00Z', /since must be an ISO 8601 instant/],
        ['?since=2026-11-28T00:00:00Z&until=2026-11-27T00:00:00Z', /since must be before until/],
        ['?limit=0', /limit must be at least 1/],
        ['?limit=x', /limit must be an integer/],
        ['?offset=10', /Unknown query parameter "offset"/],
        [`?starting_after=${othersDelivery}`, /not a delivery of this webhook/],
      ] as const) {
        const response = await call<ErrorBody>(
          'GET',
          `/${webhook.id}/deliveries${query}`,
          owner.token,
        );
        expect([query, response.status, response.body.error.code]).toEqual([
          query,
          400,
          'invalid_parameters',
        ]);
        expect(response.body.error.message).toMatch(message);
      }
      for (const response of [
        await deliveries(webhook.id, intruder.token),
        await deliveries('0123456789abcdef01234567', owner.token),
        await deliveries('not-an-id', owner.token),
      ]) {
        expect(response.status).toBe(404);
        expect((response.body as unknown as ErrorBody).error.code).toBe('not_found');
      }
      const anonymous = await call<ErrorBody>('GET', `/${webhook.id}/deliveries`, null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('invalid_access_token');
      const limited = await deliveries(webhook.id, owner.token, '?limit=1000');
      expect(limited.status).toBe(200);
    });
  });

  describe('POST /v1/cli/mutate/webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
    type Listed = { deliveries: Array<{ id: string; status: string; attempts: unknown[] }> };
    const redeliver = (webhookId: string, deliveryId: string, token: string) =>
      call<Envelope<TestData>>('POST', `/${webhookId}/deliveries/${deliveryId}/redeliver`, token);

    it('HOOK-7, HOOK-8: when a failed delivery is redelivered, then the receiver gets the same event id and payload signed with the current secret, and the delivery succeeds with the attempt recorded', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith({ status: 500, body: 'down' });
      const event = await publish('api_key.expired', userId, { key_id: 'k7' });
      await receiver.waitForRequests(4);
      await settled(webhook.id);
      const listed = await call<Envelope<Listed>>('GET', `/${webhook.id}/deliveries`, token);
      const [failed] = listed.body.data.deliveries;
      expect(failed).toMatchObject({ status: 'failed' });
      const rotated = await call<Envelope<{ secret: string }>>(
        'POST',
        `/${webhook.id}/rotate`,
        token,
      );
      receiver.respondWith({ status: 200, body: 'back' });

      const response = await redeliver(webhook.id, failed!.id, token);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        delivery_id: failed!.id,
        event_id: event.id,
        success: true,
        status_code: 200,
        response_body: 'back',
        error: null,
      });
      const requests = receiver.requests;
      expect(requests).toHaveLength(5);
      const [first, last] = [requests[0]!, requests[4]!];
      // Every attempt carries its own send time (HOOK-8); everything else is the same event.
      const { timestamp: sentAt, ...payload } = receiver.json(4);
      const { timestamp: firstSentAt, ...firstPayload } = receiver.json(0);
      expect(payload).toEqual(firstPayload);
      expect(sentAt).toBeGreaterThanOrEqual(firstSentAt as number);
      expect(last.headers['x-webhook-event-id']).toBe(event.id);
      expect(last.headers['x-webhook-attempt']).toBe('5');
      expect(last.headers['x-webhook-signature']).toBe(
        hmac(rotated.body.data.secret, last.rawBody),
      );
      expect(first.headers['x-webhook-signature']).toBe(hmac(webhook.secret, first.rawBody));
      const after = await call<Envelope<Listed>>('GET', `/${webhook.id}/deliveries`, token);
      expect(after.body.data.deliveries[0]).toMatchObject({ id: failed!.id, status: 'succeeded' });
      expect(after.body.data.deliveries[0]!.attempts).toHaveLength(5);
    });

    it('HOOK-10: when the delivery is pending, then 409 conflict and nothing is sent; another webhook’s or an unknown delivery is 404; tests and redeliveries share 10 a minute', async () => {
      const owner = await userWithToken(stack);
      const intruder = await userWithToken(stack);
      const webhook = await create(owner.token, { url: receiver.url });
      const theirs = await create(intruder.token, { url: receiver.url });
      receiver.respondWith({ status: 200, delayMs: 5_000 });
      await publish('api_key.created', owner.userId, { key_id: 'k8' });
      await receiver.waitForRequests(1);
      const listed = await call<Envelope<Listed>>('GET', `/${webhook.id}/deliveries`, owner.token);
      const [pending] = listed.body.data.deliveries;
      expect(pending).toMatchObject({ status: 'pending' });

      const conflict = await call<ErrorBody>(
        'POST',
        `/${webhook.id}/deliveries/${pending!.id}/redeliver`,
        owner.token,
      );
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('conflict');
      expect(receiver.requests).toHaveLength(1);

      for (const [webhookId, deliveryId, token] of [
        [theirs.id, pending!.id, intruder.token],
        [webhook.id, pending!.id, intruder.token],
        [webhook.id, 'dlv_unknown', owner.token],
      ] as const) {
        const response = await call<ErrorBody>(
          'POST',
          `/${webhookId}/deliveries/${deliveryId}/redeliver`,
          token,
        );
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }

      receiver.respondWith({ status: 200 });
      const tested: string[] = [];
      for (let i = 0; i < 10; i += 1)
        tested.push(
          (await call<Envelope<TestData>>('POST', `/${theirs.id}/test`, intruder.token)).body.data
            .delivery_id,
        );
      const limited = await call<ErrorBody>(
        'POST',
        `/${theirs.id}/deliveries/${tested[0]}/redeliver`,
        intruder.token,
      );
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    });
  });

  describe('POST /v1/cli/mutate/webhooks/{id}/recover', () => {
    type Listed = {
      deliveries: Array<{
        id: string;
        event_id: string;
        status: string;
        created_at: string;
        attempts: unknown[];
      }>;
    };
    const recover = (webhookId: string, token: string, body: unknown) =>
      call<Envelope<{ queued: number }>>('POST', `/${webhookId}/recover`, token, body);
    const eventIdsOf = (requests: Array<{ rawBody: Buffer }>) =>
      requests.map((r) => (JSON.parse(r.rawBody.toString()) as { id: string }).id).sort();

    it('HOOK-8: when failed deliveries are recovered since an instant, then each one created since then is attempted once more with the same event id, and one failing again stays failed without retries', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith({ status: 500 });
      const before = await publish('api_key.expired', userId, { key_id: 'old' });
      await receiver.waitForRequests(4);
      await settled(webhook.id);
      const first = await call<Envelope<Listed>>('GET', `/${webhook.id}/deliveries`, token);
      const cutoff = Date.parse(first.body.data.deliveries[0]!.created_at) + 1;
      await waitFor(async () => Date.now() > cutoff);
      const [a, b] = [
        await publish('api_key.expired', userId, { key_id: 'a' }),
        await publish('api_key.expired', userId, { key_id: 'b' }),
      ];
      await receiver.waitForRequests(12);
      await settled(webhook.id);
      receiver.respondWith((request) =>
        (JSON.parse(request.rawBody.toString()) as { id: string }).id === b!.id
          ? { status: 503 }
          : { status: 200 },
      );
      const since = new Date(cutoff).toISOString();

      const recovered = await recover(webhook.id, token, { since });

      expect(recovered.status).toBe(202);
      expect(recovered.body.data).toEqual({ queued: 2 });
      await receiver.waitForRequests(14);
      await settled(webhook.id);
      expect(eventIdsOf(receiver.requests.slice(12))).toEqual([a!.id, b!.id].sort());
      const listed = await call<Envelope<Listed>>('GET', `/${webhook.id}/deliveries`, token);
      const of = (eventId: string) =>
        listed.body.data.deliveries.find((d) => d.event_id === eventId)!;
      expect([of(before.id).status, of(before.id).attempts.length]).toEqual(['failed', 4]);
      expect([of(a!.id).status, of(a!.id).attempts.length]).toEqual(['succeeded', 5]);
      expect([of(b!.id).status, of(b!.id).attempts.length]).toEqual(['failed', 5]);

      // Asked again: only what is failed now, once more.
      const again = await recover(webhook.id, token, { since });
      expect(again.body.data).toEqual({ queued: 1 });
      await receiver.waitForRequests(15);
      await settled(webhook.id);
      expect(eventIdsOf(receiver.requests.slice(14))).toEqual([b!.id]);
    });

    it('HOOK-10: when the body is bad, then 400; another user’s webhook is 404; a disabled webhook is 409', async () => {
      const owner = await userWithToken(stack);
      const intruder = await userWithToken(stack);
      const webhook = await create(owner.token, { url: receiver.url });
      for (const body of [
        {},
        { since: 'yesterday' },
        { since: '2026-11-28T00:00:00' },
        { since: '2026-11-28T00:00:00Z', until: 'x' },
      ]) {
        const response = await call<ErrorBody>('POST', `/${webhook.id}/recover`, owner.token, body);
        expect([JSON.stringify(body), response.status, response.body.error.code]).toEqual([
          JSON.stringify(body),
          400,
          'invalid_parameters',
        ]);
      }
      const notOwned = await call<ErrorBody>('POST', `/${webhook.id}/recover`, intruder.token, {
        since: '2026-11-28T00:00:00Z',
      });
      expect(notOwned.status).toBe(404);
      receiver.respondWith({ status: 410 });
      await publish('api_key.created', owner.userId, { key_id: 'gone' });
      await receiver.waitForRequests(1);
      await settled(webhook.id);
      const disabled = await call<ErrorBody>('POST', `/${webhook.id}/recover`, owner.token, {
        since: '2026-11-28T00:00:00Z',
      });
      expect(disabled.status).toBe(409);
      expect(disabled.body.error.code).toBe('conflict');
    });
  });

  describe('POST /v1/cli/mutate/webhooks/{id}/rotate', () => {
    it('HOOK-4: when rotated, then a new secret is returned once and from then on only it validates', async () => {
      const { token } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });

      const rotated = await call<
        Envelope<{ id: string; secret: string; secret_rotated_at: string }>
      >('POST', `/${webhook.id}/rotate`, token);
      await call('POST', `/${webhook.id}/test`, token);

      expect(rotated.status).toBe(200);
      expect(rotated.body.data.id).toBe(webhook.id);
      expect(rotated.body.data.secret).toMatch(/^whsec_/);
      expect(rotated.body.data.secret).not.toBe(webhook.secret);
      const [request] = await receiver.waitForRequests(1);
      expect(request!.headers['x-webhook-signature']).toBe(
        hmac(rotated.body.data.secret, request!.rawBody),
      );
      expect(request!.headers['x-webhook-signature']).not.toBe(
        hmac(webhook.secret, request!.rawBody),
      );
    });
  });

  describe('DELETE /v1/cli/mutate/webhooks/{id}', () => {
    it('HOOK-5: when deleted, then it answers 204, disappears, cannot be used or deleted again, and receives no more events', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });

      const deleted = await call('DELETE', `/${webhook.id}`, token);
      await publish('api_key.created', userId, { key_id: 'k1' });
      const again = await call<ErrorBody>('DELETE', `/${webhook.id}`, token);
      const test = await call<ErrorBody>('POST', `/${webhook.id}/test`, token);
      const list = await call<Envelope<{ webhooks: WebhookData[] }>>('GET', '', token);
      await settled(webhook.id);

      expect(deleted.status).toBe(204);
      expect(again.status).toBe(404);
      expect(test.status).toBe(404);
      expect(list.body.data.webhooks).toEqual([]);
      expect(receiver.requests).toHaveLength(0);
    });

    it('HOOK-4 HOOK-5: when a webhook is rotated and deleted at the same moment, then it ends revoked every time, and a rotation either came first or found it gone', async () => {
      const { token, userId } = await userWithToken(stack);
      const { webhooks } = stack.webhooks.services;
      for (let round = 0; round < 15; round += 1) {
        const webhook = await create(token, { url: receiver.url });
        // Ids are hex: the same webhook spelled in capitals must take the same turn.
        const [rotated, deleted] = await Promise.all([
          call<Envelope<{ secret: string }>>('POST', `/${webhook.id.toUpperCase()}/rotate`, token),
          call('DELETE', `/${webhook.id}`, token),
        ]);
        expect(deleted.status).toBe(204);
        expect([200, 404]).toContain(rotated.status);
        // Only webhooks that are not revoked are found.
        await expect(webhooks.getOwned(userId, webhook.id)).rejects.toThrow('Webhook not found');
      }
    });

    it('HOOK-5: when deleted while a retry is pending, then the receiver gets nothing more', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      // Asked to wait a minute: the retry is still pending when the webhook is deleted.
      receiver.respondWith({ status: 503, headers: { 'retry-after': '60' } });
      const { queue, close: closeQueue } = openDeliveryQueue(stack);
      try {
        const event = await publish('api_key.deleted', userId, { key_id: 'k2' });
        await receiver.waitForRequests(1);
        const retry = `${deliveryIdFor(event.id, webhook.id)}-2`;
        await waitFor(async () => (await queue.getJobState(retry)) === 'delayed');
        const deleted = await call('DELETE', `/${webhook.id}`, token);
        // The retry's time comes now rather than in a minute.
        await (await queue.getJob(retry))!.promote();
        await waitFor(async () => (await queue.getJobState(retry)) === 'completed');

        expect(deleted.status).toBe(204);
        expect(receiver.requests).toHaveLength(1);
      } finally {
        await closeQueue();
      }
    });
  });

  describe('platform events → deliveries', () => {
    it("when an event is published to the stream, then the owner's subscribed webhooks receive it signed, and no one else's", async () => {
      const owner = await userWithToken(stack);
      const bystander = await userWithToken(stack);
      const other = await startWebhookReceiver();
      const filtered = await startWebhookReceiver();
      try {
        const webhook = await create(owner.token, { url: receiver.url });
        const unsubscribed = await create(owner.token, {
          url: filtered.url,
          event_types: ['usage.threshold_reached'],
        });
        const others = await create(bystander.token, { url: other.url });

        const event = await publish('api_key.expiring', owner.userId, {
          keyId: 'k3',
          name: 'prod',
          prefix: 'svc_abcdefgh',
          expiresAt: '2026-12-01T00:00:00.000Z',
          daysBefore: 7,
        });
        const [request] = await receiver.waitForRequests(1);
        await settled(webhook.id, unsubscribed.id, others.id);

        const body = receiver.json<{
          id: string;
          type: string;
          created_at: string;
          timestamp: number;
          webhook_id: string;
          data: Record<string, unknown>;
        }>(0);
        expect(body).toEqual({
          id: event.id,
          type: 'api_key.expiring',
          created_at: event.createdAt,
          timestamp: expect.any(Number),
          webhook_id: webhook.id,
          organization_id: null,
          data: {
            key_id: 'k3',
            name: 'prod',
            prefix: 'svc_abcdefgh',
            expires_at: '2026-12-01T00:00:00.000Z',
            days_before: 7,
          },
        });
        expect(request!.headers['x-webhook-signature']).toBe(
          hmac(webhook.secret, request!.rawBody),
        );
        // HOOK-8: what a receiver needs to deduplicate and to reject stale deliveries.
        expect(request!.headers['x-webhook-event-id']).toBe(event.id);
        expect(request!.headers['x-webhook-event-type']).toBe('api_key.expiring');
        expect(request!.headers['x-webhook-timestamp']).toBe(String(body.timestamp));
        expect(Math.abs(body.timestamp - Date.now() / 1_000)).toBeLessThan(10);
        expect(other.requests).toHaveLength(0);
        expect(filtered.requests).toHaveLength(0);
      } finally {
        await other.close();
        await filtered.close();
      }
    });

    it('HOOK-8: when the receiver fails, then it is retried with the same event id until it answers 2xx, and every attempt is readable through GraphQL', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith((_request, index) =>
        index < 2 ? { status: 500, body: 'boom' } : { status: 200, body: 'fine' },
      );

      const event = await publish('usage.threshold_reached', userId, {
        organization_id: 'o1',
        threshold: 80,
      });
      const requests = await receiver.waitForRequests(3);

      expect(requests.map((_, i) => receiver.json(i).id)).toEqual([event.id, event.id, event.id]);
      expect(requests.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
      for (const request of requests)
        expect(request.headers['x-webhook-signature']).toBe(hmac(webhook.secret, request.rawBody));
      // The third attempt's outcome is saved after the receiver has answered.
      const delivery = await waitFor(async () => {
        const response = await graphql<{
          myWebhooks: Array<{
            id: string;
            deliveries: Array<{
              eventId: string;
              status: string;
              attempts: Array<{
                attempt: number;
                statusCode: number;
                durationMs: number;
                at: string;
                error: string | null;
              }>;
            }>;
          }>;
        }>(
          stack.gateway.graphqlUrl,
          '{ myWebhooks { id deliveries { eventId status attempts { attempt statusCode durationMs at error } } } }',
          {},
          { authorization: `Bearer ${token}` },
        );
        expect(response.status).toBe(200);
        const [found] = response.body.data!.myWebhooks[0]!.deliveries;
        return found?.status !== 'PENDING' && found;
      });
      expect(delivery).toMatchObject({ eventId: event.id, status: 'SUCCEEDED' });
      expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
      expect(
        delivery!.attempts.every((a) => a.durationMs >= 0 && !Number.isNaN(Date.parse(a.at))),
      ).toBe(true);
    });

    it('when every attempt fails, then it stops after the configured number of attempts', async () => {
      const { token, userId } = await userWithToken(stack);
      await create(token, { url: receiver.url });
      receiver.respondWith({ status: 500 });

      await publish('api_key.expired', userId, { key_id: 'k4' });
      await receiver.waitForRequests(4);
      // Once the delivery is marked failed, nothing more is scheduled: wait for that, not a time.
      const statusOf = async () => {
        const response = await graphql<{
          myWebhooks: Array<{ deliveries: Array<{ status: string }> }>;
        }>(
          stack.gateway.graphqlUrl,
          '{ myWebhooks { deliveries { status } } }',
          {},
          { authorization: `Bearer ${token}` },
        );
        return response.body.data?.myWebhooks[0]?.deliveries[0]?.status;
      };
      const status = await waitFor(async () => {
        const current = await statusOf();
        return current !== 'PENDING' && current;
      });

      expect(status).toBe('FAILED');
      expect(receiver.requests).toHaveLength(4);
    });

    it('when the receiver answers 429 with Retry-After, then the next attempt waits at least that long', async () => {
      const { token, userId } = await userWithToken(stack);
      await create(token, { url: receiver.url });
      receiver.respondWith((_r, index) =>
        index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 },
      );

      await publish('api_key.regenerated', userId, { key_id: 'k5' });
      const [first, second] = await receiver.waitForRequests(2);

      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    });

    it('when the receiver answers 410 Gone, then the webhook is disabled and not retried', async () => {
      const { token, userId } = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith({ status: 410 });

      await publish('api_key.created', userId, { key_id: 'k6' });
      await receiver.waitForRequests(1);
      await settled(webhook.id); // the 410 is recorded, and the webhook disabled before that
      await publish('api_key.created', userId, { key_id: 'k7' });
      await settled(webhook.id);

      expect(receiver.requests).toHaveLength(1);
      const list = await call<
        Envelope<{ webhooks: Array<WebhookData & { disabled_reason: string }> }>
      >('GET', '', token);
      expect(list.body.data.webhooks).toEqual([
        expect.objectContaining({
          id: webhook.id,
          status: 'disabled',
          disabled_reason: expect.stringContaining('410'),
        }),
      ]);
    });

    it('when user notices are unreadable or name a user who is gone, then they are acknowledged and not mailed, and the next one is mailed to its user', async () => {
      const { account } = await userWithToken(stack);
      const prefix = stack.env.REDIS_KEY_PREFIX!;
      const stream = userNoticeStream(prefix);
      const before = mailbox.mails.length;
      await publisher.xadd(stream, '*', 'notice', '{"id": 1}');
      await publishUserNotice(
        publisher,
        prefix,
        buildUserNotice('0123456789abcdef01234567', 'Nobody', 'To nobody'),
      );
      await publishUserNotice(
        publisher,
        prefix,
        buildUserNotice(account.user.id, 'Hello owner', 'A notice'),
      );

      const [mail] = (await mailbox.waitForMails(before + 1)).slice(before);
      // Mailed before it is acknowledged: once the stream is empty, nothing else is on its way.
      await waitFor(async () => (await publisher.xlen(stream)) === 0);
      expect(mailbox.mails.slice(before)).toEqual([mail]);
      expect(mail!.to).toEqual([account.user.email]);
      expect(mail!.raw).toMatch(/^Subject: Hello owner/m);
      expect(await publisher.xlen(`${stream}:dead`)).toBe(0);
    });

    it('when a receiver fails every attempt for 6 days (the clock moved), then the webhook is disabled and the owner is told by their other webhooks and by mail; enabled again, recover delivers each failed event exactly once, signed', async () => {
      const { token, userId, account } = await userWithToken(stack);
      const mailsBefore = mailbox.mails.length;
      const down = await create(token, { url: receiver.url, event_types: ['api_key.expired'] });
      const watcher = await startWebhookReceiver();
      const { deliveries } = stack.webhooks.services;
      try {
        const told = await create(token, { url: watcher.url, event_types: ['webhook.disabled'] });
        receiver.respondWith({ status: 503 });
        const first = await publish('api_key.expired', userId, { key_id: 'd1' });
        await receiver.waitForRequests(4);
        await settled(down.id);
        expect(watcher.requests).toHaveLength(0);
        deliveries.clock = () => Date.now() + 6 * 86_400_000;

        const second = await publish('api_key.expired', userId, { key_id: 'd2' });
        const [notice] = await watcher.waitForRequests(1);
        await settled(down.id);

        expect(watcher.json(0)).toMatchObject({
          type: 'webhook.disabled',
          webhook_id: told.id,
          data: { webhook_id: down.id, url: receiver.url, failing_since: expect.any(String) },
        });
        expect(notice!.headers['x-webhook-signature']).toBe(hmac(told.secret, notice!.rawBody));
        expect(receiver.requests).toHaveLength(5);
        const [mail] = (await mailbox.waitForMails(mailsBefore + 1)).slice(mailsBefore);
        expect(mail!.to).toEqual([account.user.email]);
        expect(mail!.raw).toMatch(/^Subject: Webhook disabled: http:\/\/127\.0\.0\.1:\d+\//m);
        expect(mail!.raw).toContain(`/v1/cli/mutate/webhooks/${down.id}/enable`);
        const list = await call<
          Envelope<{ webhooks: Array<WebhookData & { disabled_reason: string }> }>
        >('GET', '', token);
        expect(list.body.data.webhooks.find((w) => w.id === down.id)).toMatchObject({
          status: 'disabled',
          disabled_reason: expect.stringMatching(/failed for 5 days/),
        });

        deliveries.clock = Date.now;
        expect((await call('POST', `/${down.id}/enable`, token)).status).toBe(200);
        receiver.respondWith({ status: 200 });
        const recovered = await call<Envelope<{ queued: number }>>(
          'POST',
          `/${down.id}/recover`,
          token,
          { since: new Date(Date.now() - 3_600_000).toISOString() },
        );
        expect(recovered.body.data).toEqual({ queued: 2 });
        await receiver.waitForRequests(7);
        await settled(down.id);
        const resent = receiver.requests.slice(5);
        expect(
          resent.map((r) => (JSON.parse(r.rawBody.toString()) as { id: string }).id).sort(),
        ).toEqual([first.id, second.id].sort());
        for (const request of resent)
          expect(request.headers['x-webhook-signature']).toBe(hmac(down.secret, request.rawBody));
        expect(receiver.requests).toHaveLength(7);
      } finally {
        deliveries.clock = Date.now;
        await watcher.close();
      }
    });

    it('when a webhook disabled by a 410 is enabled, then it is active again, receives the next event, and what failed meanwhile can be recovered, once', async () => {
      const { token, userId } = await userWithToken(stack);
      const intruder = await userWithToken(stack);
      const webhook = await create(token, { url: receiver.url });
      receiver.respondWith({ status: 410 });
      const gone = await publish('api_key.created', userId, { key_id: 'g1' });
      await receiver.waitForRequests(1);
      await settled(webhook.id);
      expect((await call<ErrorBody>('POST', `/${webhook.id}/enable`, intruder.token)).status).toBe(
        404,
      );

      const enabled = await call<Envelope<WebhookData & { disabled_reason: string | null }>>(
        'POST',
        `/${webhook.id}/enable`,
        token,
      );

      expect(enabled.status).toBe(200);
      expect(enabled.body.data).toMatchObject({
        id: webhook.id,
        status: 'active',
        disabled_reason: null,
      });
      receiver.respondWith({ status: 200 });
      const next = await publish('api_key.created', userId, { key_id: 'g2' });
      await receiver.waitForRequests(2);
      await settled(webhook.id);
      // The recovered delivery fails again: once, not retried (it had one attempt of four).
      receiver.respondWith({ status: 500 });
      const recovered = await call<Envelope<{ queued: number }>>(
        'POST',
        `/${webhook.id}/recover`,
        token,
        { since: new Date(Date.now() - 3_600_000).toISOString() },
      );
      expect(recovered.body.data).toEqual({ queued: 1 });
      await receiver.waitForRequests(3);
      await settled(webhook.id);
      expect(receiver.requests.map((_, i) => receiver.json(i).id)).toEqual([
        gone.id,
        next.id,
        gone.id,
      ]);
      const listed = await call<
        Envelope<{ deliveries: Array<{ event_id: string; status: string; attempts: unknown[] }> }>
      >('GET', `/${webhook.id}/deliveries`, token);
      const recoveredDelivery = listed.body.data.deliveries.find((d) => d.event_id === gone.id)!;
      expect([recoveredDelivery.status, recoveredDelivery.attempts.length]).toEqual(['failed', 2]);
      const again = await call<Envelope<WebhookData>>('POST', `/${webhook.id}/enable`, token);
      expect(again.body.data.status).toBe('active');
    });

    it("when one user's receiver hangs with many deliveries queued, then another user's delivery still goes out at once", async () => {
      const flooded = await userWithToken(stack);
      const other = await userWithToken(stack);
      const fast = await startWebhookReceiver();
      try {
        const hanging = await create(flooded.token, { url: receiver.url });
        await create(other.token, { url: fast.url });
        receiver.respondWith({ status: 200, delayMs: 5_000 });

        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            publish('api_key.created', flooded.userId, { key_id: `flood${i}` }),
          ),
        );
        await receiver.waitForRequests(4, 3_000);
        const published = Date.now();
        await publish('api_key.created', other.userId, { key_id: 'k9' });
        const [request] = await fast.waitForRequests(1, 6_000);

        // Without a per-webhook share, the 40 hanging attempts would fill every slot for 5 s.
        expect(request!.receivedAt - published).toBeLessThan(3_500);
        expect(receiver.requests.length).toBeLessThanOrEqual(8);
        await call('DELETE', `/${hanging.id}`, flooded.token);
      } finally {
        await fast.close();
      }
    });

    it("when one receiver hangs, then another's delivery is not held up", async () => {
      const { token, userId } = await userWithToken(stack);
      const fast = await startWebhookReceiver();
      try {
        await create(token, { url: receiver.url });
        await create(token, { url: fast.url });
        receiver.respondWith({ status: 200, delayMs: 5_000 });

        await publish('api_key.created', userId, { key_id: 'k8' });
        const [slowRequest] = await receiver.waitForRequests(1, 6_000);
        const [fastRequest] = await fast.waitForRequests(1, 6_000);

        // Served one after the other, the fast receiver would wait for the slow one's 5 s.
        expect(Math.abs(fastRequest!.receivedAt - slowRequest!.receivedAt)).toBeLessThan(3_500);
      } finally {
        await fast.close();
      }
    });
  });
});

describe('webhook destinations without the loopback development setting', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('webhooks-ssrf');
  });
  afterAll(() => stack.stop());

  it.each(['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook'])(
    'SSRF: when the URL is the loopback %s, then creation is refused with 400',
    async (url) => {
      const { token } = await userWithToken(stack);
      const response = await managementClient(stack)<ErrorBody>('POST', '', token, { url });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_webhook_url');
    },
  );
});

describe('POST /v1/cli/mutate/webhooks/{id}/test limits', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('webhooks-test-limit', {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_TIMEOUT_MS: '500',
    });
  });
  afterAll(() => stack.stop());

  it('HOOK-10: when a user asks for more than 10 tests in a minute, then the 11th gets 429 with Retry-After and is not sent', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { token } = await userWithToken(stack);
      const call = managementClient(stack);
      const created = await call<Envelope<WebhookData>>('POST', '', token, { url: receiver.url });
      const id = created.body.data.id;
      for (let i = 0; i < 10; i += 1)
        expect((await call('POST', `/${id}/test`, token)).status).toBe(200);
      const limited = await call<ErrorBody>('POST', `/${id}/test`, token);
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(receiver.requests).toHaveLength(10);
    } finally {
      await receiver.close();
    }
  });

  it('HOOK-10: when one GraphQL request holds 11 aliased testWebhook fields, then at most 10 tests are sent and the rest refused with RATE_LIMIT_EXCEEDED', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { token } = await userWithToken(stack);
      const created = await managementClient(stack)<Envelope<WebhookData>>('POST', '', token, {
        url: receiver.url,
      });
      expect(created.status).toBe(201);
      const fields = Array.from(
        { length: 11 },
        (_, i) => `t${i}: testWebhook(id: $id) { success }`,
      ).join('\n');

      const response = await graphql(
        stack.gateway.graphqlUrl,
        `mutation Tests($id: ID!) {\n${fields}\n}`,
        { id: created.body.data.id },
        { authorization: `Bearer ${token}` },
      );

      // Each testWebhook field sends before it resolves: the answer comes after every send.
      expect(response.status).toBe(200);
      expect(response.body.errors).toContainEqual(
        expect.objectContaining({
          extensions: expect.objectContaining({ code: 'RATE_LIMIT_EXCEEDED', httpStatus: 429 }),
        }),
      );
      expect(receiver.requests.length).toBeLessThanOrEqual(10);
    } finally {
      await receiver.close();
    }
  });
});
