import mongoose from 'mongoose';
import { analyticsEventStream } from '../../common/contracts/collected-event';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { http } from '../support/http';
import { expectMatchesOpenApi } from '../support/openapi';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, IP, UA } from './analytics-helpers';
import { COLLECT_EVENTS_PER_MINUTE } from '../../rest-facade/src/routes/public.routes';
import { waitUntilIdle } from '../support/ingest-idle';

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
type Overview = { summary: { pageviews: number; sessions: number; unique_visitors: number } };
type QueryData = { results: Array<{ dimensions: string[]; metrics: number[] }> };
type RawEvent = { type: string; path: string; payload: Record<string, unknown> };

describe('public collection endpoint POST /api/collect', () => {
  let stack: Stack;
  let site: { id: string; trackingCode: string };
  let key: () => Promise<string>;
  let appendedEntries: () => Promise<number>;
  let closeRedis: () => void;
  let analyticsDb: mongoose.Connection;
  const visit = { ip: IP.us, ua: UA.chromeWindows };

  beforeAll(async () => {
    stack = await startStack('analytics-collect', { TRUSTED_PROXIES: 'loopback' });
    const fixture = await analyticsAccount(stack);
    site = fixture.account.websites[0]!;
    key = fixture.key;
    const redis = createRedis(stack.env.REDIS_URL!);
    await waitForRedis(redis);
    const stream = analyticsEventStream(stack.env.REDIS_KEY_PREFIX!);
    // Entries ever appended (Redis 7): the consumer deletes what it has applied, so XLEN shrinks.
    appendedEntries = async () => {
      const info = (await redis.xinfo('STREAM', stream).catch(() => [])) as unknown[];
      const at = info.indexOf('entries-added');
      return at === -1 ? 0 : Number(info[at + 1]);
    };
    closeRedis = () => redis.disconnect();
    analyticsDb = await mongoose
      .createConnection(testMongoUri(`${stack.id}_analytics`))
      .asPromise();
  });
  afterAll(async () => {
    closeRedis();
    await analyticsDb.close();
    await stack.stop();
  });

  /** A website's raw events since `since` (today's partition; just after midnight, yesterday's). */
  async function rawEventsOf(websiteId: string, since: number): Promise<RawEvent[]> {
    const partition = (at: number) =>
      `analytics_events_${new Date(at).toISOString().slice(0, 10).replaceAll('-', '')}`;
    const names = new Set([partition(since), partition(Date.now())]);
    const found: RawEvent[] = [];
    for (const name of names)
      found.push(
        ...((await analyticsDb
          .collection(name)
          .find({ websiteId })
          .toArray()) as unknown as RawEvent[]),
      );
    return found;
  }

  const pageview = () => ({
    trackingCode: site.trackingCode,
    type: 'pageview',
    url: 'https://shop.example/',
  });

  it.each<[string, string | Record<string, unknown>, string, string]>([
    ['a body that is not JSON', '{"type":', 'invalid_json', 'JSON'],
    ['a missing url', { type: 'pageview', trackingCode: 'x' }, 'invalid_parameters', 'url'],
    [
      'a relative url',
      { type: 'pageview', trackingCode: 'x', url: '/home' },
      'invalid_parameters',
      'url',
    ],
    [
      'an unknown event type',
      { type: 'purchase', trackingCode: 'x', url: 'https://a.example/' },
      'invalid_parameters',
      'type',
    ],
    [
      'an unknown field',
      { type: 'pageview', trackingCode: 'x', url: 'https://a.example/', ip: '1.2.3.4' },
      'invalid_parameters',
      'ip',
    ],
    [
      'a click without viewport',
      { type: 'click', trackingCode: 'x', url: 'https://a.example/', x: 1, y: 2 },
      'invalid_parameters',
      'viewport',
    ],
    [
      'a negative click position',
      {
        type: 'click',
        trackingCode: 'x',
        url: 'https://a.example/',
        x: -1,
        y: 2,
        viewport: { width: 10, height: 10 },
      },
      'invalid_parameters',
      'x',
    ],
    [
      'an error without message',
      { type: 'error', trackingCode: 'x', url: 'https://a.example/' },
      'invalid_parameters',
      'message',
    ],
    [
      'a custom event property name with a dot',
      {
        type: 'event',
        trackingCode: 'x',
        url: 'https://a.example/',
        name: 'signup',
        props: { 'plan.name': 'pro' },
      },
      'invalid_parameters',
      'property name "plan.name"',
    ],
    ...[
      ['a NUL', 'plan\u0000'],
      ['a lone surrogate', '\ud800'],
    ].map(
      ([what, name]) =>
        [
          `a custom event property name with ${what}`,
          {
            type: 'event',
            trackingCode: 'x',
            url: 'https://a.example/',
            name: 'signup',
            props: { [name!]: 'pro' },
          },
          'invalid_parameters',
          'must be valid text without NUL',
        ] as [string, Record<string, unknown>, string, string],
    ),
    [
      'replay events nested 20,000 levels deep (40 KB)',
      `{"type":"replay","trackingCode":"x","url":"https://a.example/","sessionId":"session-deep","sequence":0,"events":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
      'invalid_parameters',
      'nested more than 200 levels deep',
    ],
    [
      'a referrer longer than 2048 characters',
      {
        type: 'pageview',
        trackingCode: 'x',
        url: 'https://a.example/',
        referrer: `https://b.example/${'r'.repeat(2048)}`,
      },
      'invalid_parameters',
      'referrer',
    ],
    [
      'revenue on a page view',
      {
        type: 'pageview',
        trackingCode: 'x',
        url: 'https://a.example/',
        revenue: { amount: 10, currency: 'EUR' },
      },
      'invalid_parameters',
      'revenue',
    ],
    [
      'a revenue currency that is not ISO 4217',
      {
        type: 'event',
        trackingCode: 'x',
        url: 'https://a.example/',
        name: 'Purchase',
        revenue: { amount: 10, currency: 'EUX' },
      },
      'invalid_parameters',
      'revenue.currency: must be an ISO 4217 currency code',
    ],
    [
      'a revenue amount that is not a number',
      {
        type: 'event',
        trackingCode: 'x',
        url: 'https://a.example/',
        name: 'Purchase',
        revenue: { amount: '12,50', currency: 'EUR' },
      },
      'invalid_parameters',
      'revenue.amount: must be a number or a decimal string',
    ],
    [
      'a revenue amount beyond 2^53',
      {
        type: 'event',
        trackingCode: 'x',
        url: 'https://a.example/',
        name: 'Purchase',
        revenue: { amount: '9007199254740993', currency: 'EUR' },
      },
      'invalid_parameters',
      'revenue.amount: must be at most 2^53',
    ],
    [
      'a fractional screen width',
      {
        type: 'pageview',
        trackingCode: 'x',
        url: 'https://a.example/',
        screen: { width: 10.5, height: 10 },
      },
      'invalid_parameters',
      'screen.width',
    ],
  ])(
    'DATA-6: when the body has %s, then 400 says what is wrong and nothing is written',
    async (_case, body, code, mentions) => {
      const before = await appendedEntries();
      const response = await collect(stack, visit, body as Record<string, unknown>);
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe(code);
      expect(response.body.error?.message).toContain(mentions);
      expect(await appendedEntries()).toBe(before);
    },
  );

  it('DATA-6: when one IP posts more than the per-minute limit, then 429 with Retry-After and the excess is not written', async () => {
    const flood = { ip: '198.51.100.77', ua: UA.chromeWindows };
    // A website of its own, so the other tests' counts stay as they are.
    const elsewhere = (await analyticsAccount(stack)).account.websites[0]!;
    const pageview = () => ({
      type: 'pageview',
      url: 'https://shop.example/',
      trackingCode: elsewhere.trackingCode,
    });
    const statuses: number[] = [];
    for (let sent = 0; sent < COLLECT_EVENTS_PER_MINUTE; sent += 50)
      statuses.push(
        ...(
          await Promise.all(Array.from({ length: 50 }, () => collect(stack, flood, pageview())))
        ).map((r) => r.status),
      );
    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    const before = await appendedEntries();
    const refused = await collect(stack, flood, pageview());
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await appendedEntries()).toBe(before);
    // Another IP is not held back by it.
    expect((await collect(stack, { ...flood, ip: '198.51.100.78' }, pageview())).status).toBe(202);
  });

  it('DATA-6: when the body is larger than 64 KiB, then 413 and nothing is written', async () => {
    const before = await appendedEntries();
    const response = await collect(stack, visit, {
      ...pageview(),
      type: 'event',
      name: 'x',
      props: { blob: 'a'.repeat(70_000) },
    });
    expect(response.status).toBe(413);
    expect(await appendedEntries()).toBe(before);
  });

  it('DATA-6: when the tracking code is unknown, then 404 unknown_tracking_code and nothing is written', async () => {
    const before = await appendedEntries();
    const response = await collect(stack, visit, {
      ...pageview(),
      trackingCode: 'wa-doesnotexist',
    });
    expect(response.status).toBe(404);
    expect(response.body.error?.code).toBe('unknown_tracking_code');
    expect(await appendedEntries()).toBe(before);
  });

  it.each([
    ['from a known bot', UA.googlebot, 'bot'],
    ["with curl's default User-Agent", 'curl/8.5.0', 'bot'],
    ['without a User-Agent', '', 'no_user_agent'],
  ])(
    'DATA-6: when a page view comes %s, then it is answered 202, not accepted, with the reason, and counted nowhere',
    async (_sender, ua, reason) => {
      const before = await appendedEntries();
      const response = await collect(stack, { ip: IP.gb, ua }, pageview());
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ accepted: false, reason });
      expect(await appendedEntries()).toBe(before);
    },
  );

  it('DATA-6: when a browser preflights from any origin, then CORS allows the POST', async () => {
    const response = await http(`${stack.facade.url}/api/collect`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://anywhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('DATA-6: when the tracking script is requested, then JavaScript is served to any origin', async () => {
    const response = await http<string>(`${stack.facade.url}/tracker.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body).toContain('/api/collect');
  });

  it.each([
    ['/api/collect', 'POST, OPTIONS'],
    ['/tracker.js', 'GET, HEAD'],
    ['/live/{code}', 'GET, HEAD, OPTIONS'],
  ])(
    'SURF-4: when %s is asked for from another origin, then CORS names exactly the methods its Allow names',
    async (path, allowed) => {
      const url = `${stack.facade.url}${path.replace('{code}', site.trackingCode)}`;
      const method = path === '/tracker.js' ? 'GET' : 'OPTIONS';
      const response = await http(url, {
        method,
        headers: { origin: 'https://anywhere.example' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe(allowed);
      if (method === 'OPTIONS') {
        expect(response.status).toBe(204);
        expectMatchesOpenApi(method, url, response);
      }
    },
  );

  it.each([
    ['DELETE', () => `/live/${site.trackingCode}`, 'GET, HEAD, OPTIONS'],
    ['POST', () => `/live/${site.trackingCode}`, 'GET, HEAD, OPTIONS'],
    ['GET', () => '/api/collect', 'POST, OPTIONS'],
    ['PUT', () => '/tracker.js', 'GET, HEAD'],
  ])(
    'SURF-4: when %s is sent to a public path, then 405 with an Allow header, as on the External API',
    async (method, path, allowed) => {
      const url = `${stack.facade.url}${path()}`;
      const response = await http(url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allowed);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'method_not_allowed',
          message: `This endpoint accepts ${allowed} only`,
          timestamp: expect.any(String),
        },
      });
      expectMatchesOpenApi(method, url, response);
    },
  );

  it('DATA-2: when only rejected requests were sent, then the website has no traffic; one valid page view then counts exactly once', async () => {
    await waitUntilIdle(stack.analytics.services.ingest);
    const k = await key();
    const empty = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=24h`);
    expect(empty.status).toBe(200);
    expect(empty.body.data.summary).toMatchObject({
      pageviews: 0,
      sessions: 0,
      unique_visitors: 0,
    });

    const accepted = await collect(stack, visit, {
      ...pageview(),
      screen: { width: 1440, height: 900 },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ accepted: true });
    await waitUntilIdle(stack.analytics.services.ingest);
    const after = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=24h`);
    expect(after.body.data.summary).toMatchObject({
      pageviews: 1,
      sessions: 1,
      unique_visitors: 1,
    });
  });

  it('DATA-6: when an accepted entry is delivered again (after a crash), then it is not counted twice', async () => {
    const k = await key();
    const before = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=24h`);
    const { ingest } = stack.analytics.services;
    const event = {
      websiteId: site.id,
      ts: Date.now(),
      path: '/replayed',
      visitorId: 'v-replayed',
      country: null,
      device: 'desktop',
      browser: null,
      os: null,
      screenWidth: null,
      screenHeight: null,
      type: 'pageview',
      referrer: null,
      source: 'direct',
    } as const;
    // A stream id as Redis would give it now: batches are applied in stream order.
    const id = `${Date.now()}-0`;
    await ingest.apply([{ id, event }]);
    await ingest.apply([{ id, event }]);
    const after = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=24h`);
    expect(after.body.data.summary.pageviews).toBe(before.body.data.summary.pageviews + 1);
  });

  it('DATA-6: when a page view comes with all five UTM parameters, then the stored raw event keeps them, the hostname and the referrer, and the source counts as before', async () => {
    const fixture = await analyticsAccount(stack);
    const website = fixture.account.websites[0]!;
    const since = Date.now();

    const response = await collect(stack, visit, {
      type: 'pageview',
      trackingCode: website.trackingCode,
      url: 'https://WWW.Shop.Example/landing?utm_source=Newsletter&utm_medium=email&utm_campaign=Spring%20Sale&utm_content=%20header%20&utm_term=web+analytics&ref=x',
      referrer: 'https://mail.example/inbox/42',
    });
    expect(response.status).toBe(202);
    await waitUntilIdle(stack.analytics.services.ingest);

    const [stored, ...others] = await rawEventsOf(website.id, since);
    expect(others).toEqual([]);
    expect(stored).toMatchObject({ type: 'pageview', path: '/landing' });
    expect(stored!.payload).toMatchObject({
      hostname: 'www.shop.example',
      utm: {
        source: 'Newsletter',
        medium: 'email',
        campaign: 'Spring Sale',
        content: 'header',
        term: 'web analytics',
      },
      referrer: 'https://mail.example/inbox/42',
      source: 'newsletter',
    });
    const bySource = await api<Envelope<QueryData>>(
      stack,
      await fixture.key(),
      `/query/${website.id}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metrics: ['pageviews'], dimensions: ['source'], date_range: '24h' }),
      },
    );
    expect(bySource.status).toBe(200);
    expect(bySource.body.data.results).toEqual([{ dimensions: ['newsletter'], metrics: [1] }]);
  });

  it('DATA-6: when named events carry revenue (an order and a refund), then the stored raw events keep the exact amount as a decimal string and the currency in upper case, and the events count as before', async () => {
    const fixture = await analyticsAccount(stack);
    const website = fixture.account.websites[0]!;
    const since = Date.now();
    const purchase = (revenue: Record<string, unknown> | undefined) => ({
      type: 'event',
      trackingCode: website.trackingCode,
      url: 'https://shop.example/checkout?utm_source=ads',
      name: 'Purchase',
      props: { plan: 'pro' },
      ...(revenue ? { revenue } : {}),
    });

    for (const revenue of [
      { amount: '1299.90', currency: 'eur' },
      { amount: -19.99, currency: 'USD' },
      undefined,
    ])
      expect((await collect(stack, visit, purchase(revenue))).status).toBe(202);
    await waitUntilIdle(stack.analytics.services.ingest);

    const stored = await rawEventsOf(website.id, since);
    expect(stored.map((e) => e.payload.revenue)).toEqual(
      expect.arrayContaining([
        { amount: '1299.9', currency: 'EUR' },
        { amount: '-19.99', currency: 'USD' },
        null,
      ]),
    );
    expect(stored).toHaveLength(3);
    expect(stored[0]!.payload).toMatchObject({
      hostname: 'shop.example',
      utm: { source: 'ads', medium: null, campaign: null, content: null, term: null },
    });
    const byEvent = await api<Envelope<QueryData>>(
      stack,
      await fixture.key(),
      `/query/${website.id}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metrics: ['events'], dimensions: ['event'], date_range: '24h' }),
      },
    );
    expect(byEvent.status).toBe(200);
    expect(byEvent.body.data.results).toEqual([{ dimensions: ['Purchase'], metrics: [3] }]);
  });

  it('DATA-6: when the retention period has passed, then the raw events are dropped and the counters stay', async () => {
    const k = await key();
    const before = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=7d`);
    const purged = await stack.analytics.services.retention.purge(
      Date.now() + 3 * 365 * 86_400_000,
    );
    expect(purged.dropped).toContain(
      `analytics_events_${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`,
    );
    const after = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}?range=7d`);
    expect(after.status).toBe(200);
    expect(after.body.data.summary).toEqual(before.body.data.summary);
  });
});
