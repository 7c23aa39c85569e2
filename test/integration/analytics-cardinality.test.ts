import { buildPageview, ingestEvents } from '../support/ingest';
import { startStack, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, IP, UA } from './analytics-helpers';

type Envelope<T> = { success: boolean; data: T };
type PagesData = {
  pages: Array<{ path: string; pageviews: number; visitors: number }>;
  pagination: { limit: number; offset: number; has_more: boolean };
};
type QueryData = {
  results: Array<{ dimensions: string[]; metrics: number[] }>;
  meta?: { total_rows?: number };
};

/** More distinct pages in a day than the 1,000 the counters once kept. */
const PAGES = 1_100;

describe('GET /analytics/:websiteId/pages with many distinct pages in a day', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('analytics-cardinality', { TRUSTED_PROXIES: 'loopback' });
  });
  afterAll(async () => {
    await stack.stop();
  });

  it('DATA-6: when a day brings 1,100 distinct pages before the popular ones, then the pages breakdown ranks every page as itself, exactly as POST /query does', async () => {
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    const ts = Date.now() - 60_000;
    await ingestEvents(stack, [
      ...Array.from({ length: PAGES }, (_, i) =>
        buildPageview(site.id, { path: `/p${i}`, visitorId: `many-${i}`, ts }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        buildPageview(site.id, { path: '/top', visitorId: `top-${i}`, ts }),
      ),
    ]);
    // The last page views through the collector, as a browser sends them.
    for (const ip of [IP.us, IP.gb]) {
      const response = await collect(
        stack,
        { ip, ua: UA.chromeWindows },
        { trackingCode: site.trackingCode, type: 'pageview', url: 'https://shop.example/second' },
      );
      expect(response.status).toBe(202);
    }
    await ingestEvents(stack, [buildPageview(site.id, { path: '/top', visitorId: 'top-4', ts })]);
    const apiKey = await key();

    const pages = await api<Envelope<PagesData>>(
      stack,
      apiKey,
      `/analytics/${site.id}/pages?limit=10`,
    );
    const last = await api<Envelope<PagesData>>(
      stack,
      apiKey,
      `/analytics/${site.id}/pages?limit=10&offset=${PAGES + 2 - 10}`,
    );
    const query = await api<Envelope<QueryData>>(stack, apiKey, `/query/${site.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        metrics: ['visitors', 'pageviews'],
        dimensions: ['page'],
        date_range: '7d',
        order_by: [
          ['visitors', 'desc'],
          ['pageviews', 'desc'],
        ],
        include: { total_rows: true },
        limit: 10,
      }),
    });

    expect(pages.status).toBe(200);
    const rows = pages.body.data.pages.map((p) => [p.path, p.visitors, p.pageviews]);
    expect(rows.slice(0, 3)).toEqual([
      ['/top', 5, 5],
      ['/second', 2, 2],
      ['/p0', 1, 1],
    ]);
    expect(last.status).toBe(200);
    expect(last.body.data.pages).toHaveLength(10);
    expect(last.body.data.pagination.has_more).toBe(false);
    expect(query.status).toBe(200);
    expect(query.body.data.meta?.total_rows).toBe(PAGES + 2);
    expect(query.body.data.results.map((r) => [r.dimensions[0], ...r.metrics])).toEqual(rows);
  });
});
