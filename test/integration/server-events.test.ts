import { createRedis, waitForRedis, type RedisClient } from '../../common/platform/redis';
import { idempotentEventId } from '../../rest-facade/src/events/idempotency';
import { MAX_BATCH_EVENTS } from '../../rest-facade/src/events/server-events.schema';
import { buildAccount, buildApiKey } from '../support/factories';
import { http } from '../support/http';
import { waitUntilIdle } from '../support/ingest-idle';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, type Stack } from '../support/stack';
import { api, collect, IP, UA } from './analytics-helpers';

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
type EventResult = {
  index: number;
  status: string;
  event_id?: string;
  reason?: string;
  message?: string;
};
type Answer = {
  website_id: string;
  accepted: number;
  duplicates: number;
  ignored: number;
  invalid: number;
  events: EventResult[];
};
type ErrorBody = { success?: false; error: { code: string; message: string } };
type Rows = { results: Array<{ dimensions: string[]; metrics: number[] }> };

describe('server-side Events API POST /api/events', () => {
  let stack: Stack;
  let redis: RedisClient;
  let account: Awaited<ReturnType<typeof buildAccount>>;
  let key: string;

  beforeAll(async () => {
    stack = await startStack('server-events', { TRUSTED_PROXIES: 'loopback' });
    account = await buildAccount(stack, { plan: 'pro', websites: 2 });
    key = (await buildApiKey(stack, account)).key;
    redis = createRedis(stack.env.REDIS_URL!);
    await waitForRedis(redis);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  const site = (i = 0) => account.websites[i]!;

  async function send<T = Envelope<Answer>>(
    body: unknown,
    options: { key?: string | null; contentType?: string; query?: string; method?: string } = {},
  ) {
    const url = `${stack.facade.url}/api/events${options.query ?? ''}`;
    const method = options.method ?? 'POST';
    const response = await http<T>(url, {
      method,
      headers: {
        ...(options.key === null ? {} : { 'x-api-key': options.key ?? key }),
        'content-type': options.contentType ?? 'application/json',
      },
      body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    expectMatchesOpenApi(method, url, response);
    return response;
  }

  const serverEvent = (fields: Record<string, unknown> = {}) => ({
    type: 'pageview',
    url: `https://${site().domain}/`,
    ip: IP.gb,
    user_agent: UA.safariIphone,
    ...fields,
  });

  async function query(websiteId: string, body: Record<string, unknown>) {
    await waitUntilIdle(stack.analytics.services.ingest);
    const response = await api<Envelope<Rows>>(stack, key, `/query/${websiteId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ date_range: '7d', ...body }),
    });
    expect(response.status).toBe(200);
    return response.body.data.results.map((row) => [row.dimensions, row.metrics]);
  }

  it("EVENTS-1: when a backend sends a page view and a purchase with the end user's IP and user agent, then they count with the same visitor and country as the tracking script's events", async () => {
    const page = `/browser-and-server-${Date.now()}`;
    const browser = await collect(
      stack,
      { ip: IP.gb, ua: UA.safariIphone },
      {
        trackingCode: site().trackingCode,
        type: 'pageview',
        url: `https://${site().domain}${page}`,
      },
    );
    expect(browser.status).toBe(202);

    const response = await send({
      website_id: site().id,
      events: [
        serverEvent({ url: `https://${site().domain}${page}`, referrer: 'https://news.example/' }),
        serverEvent({
          type: 'event',
          name: 'Purchase',
          url: `https://${site().domain}${page}`,
          props: { plan: 'pro' },
          revenue: { amount: '49.90', currency: 'eur' },
        }),
      ],
    });

    expect(response.status).toBe(202);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(response.headers.get('x-usage-monthly')).not.toBeNull();
    const answer = response.body.data;
    expect(answer).toMatchObject({ website_id: site().id, accepted: 2, duplicates: 0 });
    expect(answer.events.map((e) => [e.index, e.status])).toEqual([
      [0, 'accepted'],
      [1, 'accepted'],
    ]);
    expect(answer.events.every((e) => typeof e.event_id === 'string')).toBe(true);
    // One visitor (the same day's id from the same IP and user agent), in GB, on a phone.
    expect(
      await query(site().id, {
        metrics: ['visitors', 'pageviews', 'events'],
        dimensions: ['country', 'device'],
        filters: [['is', 'page', [page]]],
      }),
    ).toEqual([
      [
        ['GB', 'mobile'],
        [1, 2, 1],
      ],
    ]);
    expect(
      await query(site().id, {
        metrics: ['events'],
        dimensions: ['event', 'event:props:plan'],
        filters: [
          ['is', 'page', [page]],
          ['is', 'event', ['Purchase']],
        ],
      }),
    ).toEqual([[['Purchase', 'pro'], [1]]]);
  });

  it('EVENTS-2: when a batch is sent again after its answer was lost, then its keyed events are answered duplicate with the same ids and counted once', async () => {
    const page = `/retried-${Date.now()}`;
    const url = `https://${site().domain}${page}`;
    const batch = {
      website_id: site().id,
      events: [
        serverEvent({ url, idempotency_key: `order-${page}-1` }),
        serverEvent({ url, ip: IP.us, idempotency_key: `order-${page}-2` }),
        // The same key twice in one batch: the second is the duplicate.
        serverEvent({ url, ip: IP.us, idempotency_key: `order-${page}-2` }),
      ],
    };
    const first = await send(batch);
    expect(first.status).toBe(202);
    expect(first.body.data.events.map((e) => e.status)).toEqual([
      'accepted',
      'accepted',
      'duplicate',
    ]);
    const retried = await send(batch);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({ accepted: 0, duplicates: 3 });
    expect(retried.body.data.events.map((e) => e.event_id)).toEqual(
      first.body.data.events.map((e) => e.event_id),
    );

    expect(
      await query(site().id, {
        metrics: ['visitors', 'pageviews'],
        filters: [['is', 'page', [page]]],
      }),
    ).toEqual([[[], [2, 2]]]);
  });

  it('EVENTS-2: when a sender marked a key and stopped before its event reached the stream, then the event sent again is answered duplicate and counted once', async () => {
    const page = `/marked-not-sent-${Date.now()}`;
    const idempotencyKey = `signup-${page}`;
    const eventId = idempotentEventId(site().id, idempotencyKey);
    await redis.set(
      `${stack.env.REDIS_KEY_PREFIX}events:seen:{${site().id}}:${eventId}`,
      String(Date.now() - 60_000),
      'EX',
      3600,
    );

    const response = await send({
      website_id: site().id,
      events: [
        serverEvent({
          type: 'event',
          name: 'Signup',
          url: `https://${site().domain}${page}`,
          idempotency_key: idempotencyKey,
        }),
      ],
    });

    expect(response.body.data.events).toEqual([
      { index: 0, status: 'duplicate', event_id: eventId },
    ]);
    expect(
      await query(site().id, { metrics: ['events'], filters: [['is', 'page', [page]]] }),
    ).toEqual([[[], [1]]]);
  });

  it('EVENTS-3: when a batch holds bots, an empty user agent and invalid events, then each is answered on its own and only the valid one counts', async () => {
    const page = `/mixed-${Date.now()}`;
    const url = `https://${site().domain}${page}`;
    const response = await send({
      website_id: site().id,
      events: [
        serverEvent({ url, user_agent: UA.googlebot }),
        serverEvent({ url, user_agent: 'python-requests/2.32.3' }),
        serverEvent({ url, user_agent: '' }),
        serverEvent({ url: '/relative' }),
        serverEvent({ url, ip: '999.1.1.1' }),
        serverEvent({ url, trackingCode: 'abc' }),
        serverEvent({ url, type: 'click' }),
        'not an event',
        serverEvent({ url }),
      ],
    });

    expect(response.status).toBe(202);
    const { events, ...counts } = response.body.data;
    expect(counts).toEqual({
      website_id: site().id,
      accepted: 1,
      duplicates: 0,
      ignored: 3,
      invalid: 5,
    });
    expect(events.map((e) => [e.status, e.reason ?? e.message?.split(':')[0]])).toEqual([
      ['ignored', 'bot'],
      ['ignored', 'bot'],
      ['ignored', 'no_user_agent'],
      ['invalid', 'url'],
      ['invalid', 'ip'],
      ['invalid', '(body)'],
      ['invalid', 'type'],
      ['invalid', '(body)'],
      ['accepted', undefined],
    ]);
    expect(events[5]!.message).toMatch(/trackingCode/);
    expect(
      await query(site().id, { metrics: ['pageviews'], filters: [['is', 'page', [page]]] }),
    ).toEqual([[[], [1]]]);
  });

  it('AUTH-4: when the key lacks the track events permission or the website, then 403 forbidden; an unknown website is 404; nothing is counted', async () => {
    const page = `/refused-${Date.now()}`;
    const readOnly = (await buildApiKey(stack, account, { permissions: ['read_analytics'] })).key;
    const otherSiteOnly = (await buildApiKey(stack, account, { websiteIds: [site(1).id] })).key;
    const stranger = await buildAccount(stack);
    const batch = (websiteId: string) => ({
      website_id: websiteId,
      events: [serverEvent({ url: `https://${site().domain}${page}` })],
    });

    const cases = [
      [await send<ErrorBody>(batch(site().id), { key: readOnly }), 403, 'forbidden'],
      [await send<ErrorBody>(batch(site().id), { key: otherSiteOnly }), 403, 'forbidden'],
      [await send<ErrorBody>(batch(stranger.websites[0]!.id), {}), 403, 'forbidden'],
      [await send<ErrorBody>(batch('0123456789abcdef01234567'), {}), 404, 'not_found'],
      [await send<ErrorBody>(batch('not-an-id'), {}), 404, 'not_found'],
      [await send<ErrorBody>(batch(site().id), { key: null }), 401, 'invalid_api_key'],
      [await send<ErrorBody>(batch(site().id), { key: 'svc_unknown' }), 401, 'invalid_api_key'],
    ] as const;
    expect(cases.map(([response]) => [response.status, response.body.error.code])).toEqual(
      cases.map(([, status, code]) => [status, code]),
    );
    expect(cases[0][0].body.error.message).toMatch(/track_events/);
    expect(
      await query(site().id, { metrics: ['pageviews'], filters: [['is', 'page', [page]]] }),
    ).toEqual([[[], [0]]]);
  });

  it('EVENTS-4: when the request is not a well-formed batch, then 400, 413, 415 or 405 says what is wrong', async () => {
    const event = serverEvent();
    const cases: Array<[Awaited<ReturnType<typeof send<ErrorBody>>>, number, string, RegExp]> = [
      [await send<ErrorBody>('{"website_id":'), 400, 'invalid_json', /JSON/],
      [await send<ErrorBody>({ events: [event] }), 400, 'invalid_parameters', /website_id/],
      [
        await send<ErrorBody>({ website_id: site().id, events: [] }),
        400,
        'invalid_parameters',
        /events/,
      ],
      [
        await send<ErrorBody>({
          website_id: site().id,
          events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => event),
        }),
        400,
        'invalid_parameters',
        /events/,
      ],
      [
        await send<ErrorBody>({ website_id: site().id, events: [event], extra: 1 }),
        400,
        'invalid_parameters',
        /extra/,
      ],
      [
        await send<ErrorBody>({ website_id: site().id, events: [event] }, { query: '?dry=1' }),
        400,
        'invalid_parameters',
        /Unknown query parameter "dry"/,
      ],
      [
        await send<ErrorBody>(
          { website_id: site().id, events: [event] },
          { contentType: 'application/x-www-form-urlencoded' },
        ),
        415,
        'unsupported_media_type',
        /application\/json/,
      ],
      [
        await send<ErrorBody>({
          website_id: site().id,
          events: [{ ...event, props: { pad: 'x'.repeat(500) } }],
          pad: 'x'.repeat(1024 * 1024),
        }),
        413,
        'payload_too_large',
        /too large/,
      ],
      [await send<ErrorBody>(undefined, { method: 'GET' }), 405, 'method_not_allowed', /POST/],
    ];
    expect(cases.map(([response]) => [response.status, response.body.error.code])).toEqual(
      cases.map(([, status, code]) => [status, code]),
    );
    for (const [response, , , message] of cases)
      expect(response.body.error.message).toMatch(message);
  });

  it('EVENTS-5: when a request is answered, then it counts as one call of the month whatever its number of events', async () => {
    const counted = (await buildApiKey(stack, account)).key;
    const events = Array.from({ length: 50 }, (_, i) =>
      serverEvent({ url: `https://${site().domain}/counted-${i}` }),
    );
    const first = await send({ website_id: site().id, events }, { key: counted });
    const second = await send({ website_id: site().id, events }, { key: counted });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(Number(second.headers.get('x-usage-monthly'))).toBe(
      Number(first.headers.get('x-usage-monthly')) + 1,
    );
    expect([first.headers.get('x-usage-total'), second.headers.get('x-usage-total')]).toEqual([
      '1',
      '2',
    ]);
  });
});
