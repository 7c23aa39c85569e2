import { startStack, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

type Envelope<T> = { success: boolean; data: T; error?: { code: string; message: string } };
type Row = {
  dimensions: string[];
  metrics: Array<number | null>;
  comparison?: {
    dimensions: string[];
    metrics: Array<number | null>;
    change: Array<number | null>;
  };
};
type QueryData = {
  metrics: string[];
  dimensions: string[];
  results: Row[];
  pagination: { limit: number; offset: number; has_more: boolean };
  date_range: { from: string; to: string };
  meta?: { total_rows?: number; time_labels?: string[] };
};

/** Visitors: an address and a browser each (the visitor id hashes both). */
const visitor = (i: number, country: string, ua = UA.chromeWindows) => ({
  ip: `203.0.113.${i}`,
  ua,
  country,
});

/**
 * POST /query over every collected event (the engine, docs/analytics.md "POST /query/:websiteId"): several
 * dimensions, filters across dimensions, properties, exact at any number of distinct values.
 */
describe('POST /query/:websiteId: the event-level query language', () => {
  let stack: Stack;
  let site: { id: string; trackingCode: string };
  let key: string;

  const query = (body: unknown) =>
    api<Envelope<QueryData>>(stack, key, `/query/${site.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startStack('analytics-query', { TRUSTED_PROXIES: 'loopback' });
    const fixture = await analyticsAccount(stack);
    site = fixture.account.websites[0]!;
    key = await fixture.key();
    const send = async (v: ReturnType<typeof visitor>, payload: Record<string, unknown>) => {
      const response = await collect(
        stack,
        { ip: v.ip, ua: v.ua },
        { trackingCode: site.trackingCode, url: 'https://shop.example/', ...payload },
        { 'cf-ipcountry': v.country },
      );
      expect(response.body).toEqual({ accepted: true });
    };
    const de1 = visitor(1, 'DE');
    const de2 = visitor(2, 'DE', UA.safariIphone);
    const us = visitor(3, 'US');
    await send(de1, { type: 'pageview', url: 'https://shop.example/pricing' });
    await send(de1, { type: 'pageview', url: 'https://shop.example/docs' });
    await send(de1, {
      type: 'event',
      name: 'Signup',
      url: 'https://shop.example/pricing',
      props: { plan: 'pro', seats: 3 },
    });
    await send(de2, { type: 'pageview', url: 'https://shop.example/pricing' });
    await send(de2, {
      type: 'event',
      name: 'Signup',
      url: 'https://shop.example/pricing',
      props: { plan: 'free' },
    });
    await send(us, { type: 'pageview', url: 'https://shop.example/pricing' });
    await send(us, { type: 'pageview', url: 'https://shop.example/blog/hello' });
    await send(us, {
      type: 'event',
      name: 'Signup',
      url: 'https://shop.example/blog/hello',
      props: { plan: 'pro' },
    });
    await send(de1, {
      type: 'event',
      name: 'Purchase',
      url: 'https://shop.example/pricing',
      revenue: { amount: '49.90', currency: 'EUR' },
    });
    await send(us, {
      type: 'event',
      name: 'Purchase',
      url: 'https://shop.example/pricing',
      revenue: { amount: 10, currency: 'usd' },
    });
    const { goals } = stack.keys.services;
    await goals.create(site.id, { kind: 'event', eventName: 'Signup' });
    await goals.create(site.id, { kind: 'event', eventName: 'Purchase', currency: 'EUR' });
    await goals.create(site.id, { kind: 'page', pagePath: '/docs*', name: 'Visit docs' });
    await waitUntilIdle(stack.analytics.services.ingest);
  });
  afterAll(() => stack.stop());

  it('DATA-6: when pages of visitors from Germany are asked, then two dimensions come back filtered by a third', async () => {
    const response = await query({
      metrics: ['visitors', 'pageviews'],
      dimensions: ['page', 'country'],
      filters: [['is', 'country', ['DE']]],
      date_range: '24h',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.results).toEqual([
      { dimensions: ['/pricing', 'DE'], metrics: [2, 2] },
      { dimensions: ['/docs', 'DE'], metrics: [1, 1] },
    ]);
  });

  it('DATA-6: when one property breaks down events filtered by another dimension, then each value counts its events and visitors', async () => {
    const response = await query({
      metrics: ['visitors', 'events'],
      dimensions: ['event:props:plan'],
      filters: [
        ['is', 'event', ['Signup']],
        ['is', 'device', ['desktop']],
      ],
      date_range: '7d',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.results).toEqual([{ dimensions: ['pro'], metrics: [2, 2] }]);
  });

  it('DATA-6: when filters combine or, not and matches, then only the events that satisfy them count', async () => {
    const response = await query({
      metrics: ['pageviews'],
      filters: [
        [
          'or',
          [
            ['matches', 'page', ['^/blog/']],
            ['not', ['contains', 'page', ['PRIC', 'blog']]],
          ],
        ],
      ],
      date_range: '24h',
    });
    expect(response.status).toBe(200);
    // /blog/hello, and /docs (neither pricing nor blog).
    expect(response.body.data.results).toEqual([{ dimensions: [], metrics: [2] }]);
  });

  it('DATA-6: when total rows and time labels are included and the previous period compared, then meta and each row say so', async () => {
    const response = await query({
      metrics: ['visitors'],
      dimensions: ['time:day'],
      date_range: '7d',
      include: { total_rows: true, time_labels: true, comparisons: { mode: 'previous_period' } },
    });
    expect(response.status).toBe(200);
    const { results, meta } = response.body.data;
    expect(results).toHaveLength(7);
    expect(meta?.total_rows).toBe(7);
    expect(meta?.time_labels).toEqual(results.map((r) => r.dimensions[0]));
    const today = results.at(-1)!;
    expect(today.metrics).toEqual([3]);
    expect(today.comparison).toEqual({
      dimensions: [expect.any(String)],
      metrics: [0],
      change: [null],
    });
  });

  it('DATA-6: when goals are the dimension, then each counts its converted visitors, their share and its revenue in its own currency', async () => {
    const response = await query({
      metrics: ['visitors', 'events', 'conversion_rate', 'revenue'],
      dimensions: ['goal'],
      date_range: '7d',
    });
    expect(response.status).toBe(200);
    // Three visitors in all; the US purchase is in dollars, so the EUR goal's revenue leaves it out.
    expect(response.body.data.results).toEqual([
      { dimensions: ['Signup'], metrics: [3, 3, 1, null] },
      { dimensions: ['Purchase'], metrics: [2, 2, 0.6667, 49.9] },
      { dimensions: ['Visit docs'], metrics: [1, 0, 0.3333, null] },
    ]);
  });

  it('DATA-6: when a goal filters a breakdown, then each row converts against its own visitors', async () => {
    const response = await query({
      metrics: ['visitors', 'conversion_rate'],
      dimensions: ['country'],
      filters: [['is', 'goal', ['Purchase']]],
      date_range: '7d',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.results).toEqual([
      { dimensions: ['DE'], metrics: [1, 0.5] },
      { dimensions: ['US'], metrics: [1, 1] },
    ]);
  });

  it.each([
    [
      'a goal the website does not have',
      { metrics: ['visitors'], filters: [['is', 'goal', ['Nope']]] },
      'goal "Nope" is not one of the website\'s goals (Signup, Purchase, Visit docs)',
    ],
    [
      'revenue without the goal dimension',
      { metrics: ['revenue'] },
      'revenue needs the goal dimension',
    ],
  ])(
    'DATA-6: when the query asks for %s, then it is refused with 400 saying why',
    async (_case, body, message) => {
      const response = await query(body);
      expect(response.status).toBe(400);
      expect(response.body.error?.code).toBe('invalid_parameters');
      expect(response.body.error?.message).toContain(message);
    },
  );

  it('DATA-6: when a visit lands from a campaign on another host, then its UTM parameters and hostname are dimensions of its events', async () => {
    const v = visitor(7, 'NL');
    const response = await collect(
      stack,
      { ip: v.ip, ua: v.ua },
      {
        trackingCode: site.trackingCode,
        type: 'pageview',
        url: 'https://www.shop.example/landing?utm_source=newsletter&utm_medium=email&utm_campaign=Spring%20Sale',
      },
      { 'cf-ipcountry': v.country },
    );
    expect(response.status).toBe(202);
    await waitUntilIdle(stack.analytics.services.ingest);

    const answer = await query({
      metrics: ['visitors', 'sessions'],
      dimensions: ['utm_campaign', 'utm_medium', 'hostname'],
      filters: [['is_not', 'utm_campaign', ['(none)']]],
      date_range: '24h',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.results).toEqual([
      { dimensions: ['Spring Sale', 'email', 'www.shop.example'], metrics: [1, 1] },
    ]);
  });

  it('DATA-6: when a day has more distinct pages than the counters keep apart, then the query ranks every page exactly', async () => {
    const pages = 1_200;
    const v = visitor(9, 'FR');
    for (let n = 0; n < pages; n += 1) {
      const response = await collect(
        stack,
        { ip: v.ip, ua: v.ua },
        {
          trackingCode: site.trackingCode,
          type: 'pageview',
          url: `https://shop.example/p/${n}`,
        },
        { 'cf-ipcountry': 'FR', 'x-forwarded-for': `198.18.${Math.floor(n / 250)}.${n % 250}` },
      );
      expect(response.status).toBe(202);
    }
    await waitUntilIdle(stack.analytics.services.ingest, 60_000);
    const response = await query({
      metrics: ['pageviews'],
      dimensions: ['page'],
      filters: [['contains', 'page', ['/p/']]],
      date_range: '24h',
      include: { total_rows: true },
      limit: 10_000,
    });
    expect(response.status).toBe(200);
    expect(response.body.data.meta?.total_rows).toBe(pages);
    expect(response.body.data.results.some((r) => r.dimensions[0] === '(other)')).toBe(false);
  });
});
