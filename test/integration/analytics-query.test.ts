import { startStack, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, UA } from './analytics-helpers';

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
 * POST /query over every collected event (the engine, docs/analytics.md "POST /query"): several
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
    await stack.analytics.services.ingest.waitUntilIdle();
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
    await stack.analytics.services.ingest.waitUntilIdle(60_000);
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
