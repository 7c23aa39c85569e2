import { createHmac } from 'node:crypto';
import { createLogger } from '../../common/platform/logger';
import { buildEvent, publishPlatformEvent } from '../../common/contracts/platform-events';
import { createRedis } from '../../common/platform/redis';
import { startWebhooksSubgraph } from '../../subgraphs/webhooks/src/app';
import { UNREADABLE_SECRET } from '../../subgraphs/webhooks/src/services/delivery.service';
import { loadWebhooksConfig } from '../../subgraphs/webhooks/src/config';
import { buildAccessToken, buildAccount } from '../support/factories';
import { http } from '../support/http';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

type RunningWebhooks = Awaited<ReturnType<typeof startWebhooksSubgraph>>;

/**
 * Durability: the webhooks subgraph is stopped and a new instance started on the same MongoDB
 * database and Redis prefix, as a deploy or crash would. Retries are 1.5 s apart, long enough to
 * stop the process while one is queued.
 */
describe('webhook delivery across a restart of the webhooks subgraph', () => {
  let stack: Stack;
  let webhooks: RunningWebhooks;
  let receiver: WebhookReceiver;
  let publisher: ReturnType<typeof createRedis>;
  let userId: string;
  let token: string;
  let webhookId: string;
  let secret: string;

  /** A new instance on the same database, Redis prefix and port (the gateway's subgraph URL). */
  const startAgain = async (env: Record<string, string> = {}) => {
    const config = loadWebhooksConfig({
      ...stack.env,
      MONGODB_URI: testMongoUri(`${stack.id}_webhooks`),
      WEBHOOKS_PORT: new URL(stack.webhooks.url).port,
      ...env,
    });
    webhooks = await startWebhooksSubgraph(
      config,
      createLogger('webhooks', stack.env.LOG_LEVEL ?? 'silent'),
    );
  };
  const restart = async (env: Record<string, string> = {}) => {
    await webhooks.stop();
    await startAgain(env);
  };

  beforeAll(async () => {
    stack = await startStack('webhooks-restart', {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: '1500',
      WEBHOOK_MAX_ATTEMPTS: '3',
    });
    webhooks = stack.webhooks;
    publisher = createRedis(stack.env.REDIS_URL!);
    receiver = await startWebhookReceiver();
    const account = await buildAccount(stack);
    userId = account.user.id;
    ({ token } = await buildAccessToken(stack, userId));
    const created = await http<{ data: { id: string; secret: string } }>(
      `${stack.facade.url}/v1/cli/mutate/webhooks`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      },
    );
    expect(created.status).toBe(201);
    secret = created.body.data.secret;
    webhookId = created.body.data.id;
  });
  afterAll(async () => {
    publisher.disconnect();
    await receiver.close();
    await stack.facade.stop();
    await stack.gateway.stop();
    await Promise.all([stack.analytics.stop(), stack.keys.stop(), webhooks.stop()]);
  });

  it('when a retry is queued and the subgraph restarts, then the new instance delivers it with the same event id', async () => {
    receiver.respondWith((_r, index) => (index === 0 ? { status: 500 } : { status: 200 }));
    const event = buildEvent('api_key.expiring', userId, null, { key_id: 'k1', days_left: 1 });

    await publishPlatformEvent(publisher, stack.env.REDIS_KEY_PREFIX!, event);
    await receiver.waitForRequests(1);
    await restart();
    const [first, second] = await receiver.waitForRequests(2, 15_000);

    expect(receiver.json(0).id).toBe(event.id);
    expect(receiver.json(1).id).toBe(event.id);
    expect(first!.headers['x-webhook-attempt']).toBe('1');
    expect(second!.headers['x-webhook-attempt']).toBe('2');
    expect(second!.headers['x-webhook-signature']).toBe(
      createHmac('sha256', secret).update(second!.rawBody).digest('hex'),
    );
  });

  it('when an event is published while the subgraph is down, then it is delivered once it is back', async () => {
    receiver.respondWith({ status: 200 });
    const before = receiver.requests.length;
    await webhooks.stop();
    const event = buildEvent('usage.threshold_reached', userId, null, { threshold: 100 });

    await publishPlatformEvent(publisher, stack.env.REDIS_KEY_PREFIX!, event);
    await startAgain();
    await receiver.waitForRequests(before + 1, 10_000);

    expect(receiver.json(before).id).toBe(event.id);
  });

  it('when the at-rest key changed across the restart, then tests and deliveries report the unreadable secret (no 500, nothing left pending unattempted) until a rotation repairs it', async () => {
    receiver.respondWith({ status: 200 });
    await restart({ WEBHOOK_SECRET_KEY: 'c'.repeat(64) });
    const before = receiver.requests.length;
    const callWebhooks = (path: string) =>
      http<{ data: { success: boolean; error: string | null; secret?: string } }>(
        `${stack.facade.url}/v1/cli/mutate/webhooks/${webhookId}${path}`,
        { method: 'POST', headers: { authorization: `Bearer ${token}` } },
      );

    const unsent = await callWebhooks('/test');
    expect(unsent.status).toBe(200);
    expect(unsent.body.data).toMatchObject({ success: false, error: UNREADABLE_SECRET });
    const event = buildEvent('api_key.expiring', userId, null, { key_id: 'k2', days_left: 7 });
    await publishPlatformEvent(publisher, stack.env.REDIS_KEY_PREFIX!, event);
    const delivery = await waitFor(async () => {
      const [latest] = await webhooks.services.deliveries.recentDeliveries(webhookId, 1);
      return latest?.eventId === event.id && latest.attempts.length > 0 ? latest : null;
    });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: UNREADABLE_SECRET });
    expect(receiver.requests.length).toBe(before);

    const rotated = await callWebhooks('/rotate');
    expect(rotated.status).toBe(200);
    const test = await callWebhooks('/test');
    expect(test.body.data).toMatchObject({ success: true, error: null });
    const [request] = (await receiver.waitForRequests(before + 1)).slice(before);
    expect(request!.headers['x-webhook-signature']).toBe(
      createHmac('sha256', rotated.body.data.secret!).update(request!.rawBody).digest('hex'),
    );
  });
});
