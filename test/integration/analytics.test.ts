import { gzipSync } from 'node:zlib';
import { http } from '../support/http';
import { collect, analyticsAccount, api, IP, UA } from './analytics-helpers';
import { startStack, type Stack } from '../support/stack';
import { waitUntilIdle } from '../support/ingest-idle';

type Envelope<T> = {
  success: boolean;
  data: T;
  timestamp: string;
  error?: { code: string; message: string };
};
type Overview = {
  website_id: string;
  range: string;
  granularity: string;
  summary: {
    total_visitors: number;
    pageviews: number;
    unique_visitors: number;
    sessions: number;
    bounce_rate: number;
    avg_visit_duration: number;
  };
  daily_stats: Array<{
    date: string;
    pageviews: number;
    visitors: number;
    sessions: number;
    bounces: number;
  }>;
};
type VisitorsData = {
  visitors: Array<{
    id: string;
    country: string | null;
    last_seen: string;
    pageviews: number;
    browser: string;
  }>;
  pagination: { limit: number; offset: number; has_more: boolean };
};
type Row = { visitors: number; pageviews: number; sessions: number };

const sum = (rows: Array<{ pageviews: number }>) =>
  rows.reduce((total, row) => total + row.pageviews, 0);

describe('analytics: collected traffic read back through the External API', () => {
  let stack: Stack;
  // Usage limits count per organization (Pro: 30/min), so each group of tests reads its own
  // website, in its own organization, that received the same traffic.
  const sites: Partial<
    Record<
      'overview' | 'breakdowns' | 'query',
      { site: { id: string; trackingCode: string }; key: () => Promise<string> }
    >
  > = {};
  let site: { id: string; trackingCode: string };
  let key: () => Promise<string>;
  const url = (path: string) => `https://shop.example${path}`;

  async function websiteWithTraffic() {
    const fixture = await analyticsAccount(stack);
    const t = fixture.account.websites[0]!.trackingCode;
    const us = { ip: IP.us, ua: UA.chromeWindows };
    const gb = { ip: IP.gb, ua: UA.safariIphone };
    const br = { ip: IP.br, ua: UA.firefoxLinux };
    // US: two pages in one visit; GB and BR: one page each (bounces).
    for (const [visit, payload] of [
      [
        us,
        { trackingCode: t, type: 'pageview', url: url('/'), screen: { width: 1920, height: 1080 } },
      ],
      [us, { trackingCode: t, type: 'pageview', url: url('/pricing'), referrer: url('/') }],
      [
        gb,
        { trackingCode: t, type: 'pageview', url: url('/'), referrer: 'https://www.google.com/' },
      ],
      [
        br,
        {
          trackingCode: t,
          type: 'pageview',
          url: url('/blog'),
          referrer: 'https://news.ycombinator.com/item?id=1',
        },
      ],
    ] as const) {
      const response = await collect(stack, visit, payload);
      expect(response.status).toBe(202);
    }
    return { site: fixture.account.websites[0]!, key: fixture.key };
  }

  beforeAll(async () => {
    stack = await startStack('analytics', { TRUSTED_PROXIES: 'loopback' });
    sites.overview = await websiteWithTraffic();
    sites.breakdowns = await websiteWithTraffic();
    sites.query = await websiteWithTraffic();
    await waitUntilIdle(stack.analytics.services.ingest);
  });
  const use = (name: keyof typeof sites) =>
    beforeAll(() => {
      ({ site, key } = sites[name]!);
    });
  afterAll(() => stack.stop());

  describe('GET /analytics/:websiteId', () => {
    use('overview');
    it('DATA-1 DATA-2: when traffic was collected, then the overview has exact totals and zero-filled daily_stats in the envelope', async () => {
      const response = await api<Envelope<Overview>>(
        stack,
        await key(),
        `/analytics/${site.id}?range=7d`,
      );
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(new Date(response.body.timestamp).toISOString()).toBe(response.body.timestamp);
      const data = response.body.data;
      expect(data.range).toBe('7d');
      expect(data.granularity).toBe('day');
      expect(data.summary).toMatchObject({
        total_visitors: 3,
        pageviews: 4,
        unique_visitors: 3,
        sessions: 3,
        bounce_rate: 0.6667,
      });
      expect(data.summary.avg_visit_duration).toBeGreaterThanOrEqual(0);
      expect(data.daily_stats).toHaveLength(7);
      expect(sum(data.daily_stats)).toBe(4);
      expect(data.daily_stats.reduce((n, d) => n + d.sessions, 0)).toBe(3);
      expect(data.daily_stats.filter((d) => d.pageviews === 0).length).toBeGreaterThanOrEqual(5);
    });

    it('DATA-3: when no range is given, then 7d is used; 30d, 90d and 1y give one entry per day', async () => {
      const k = await key();
      const fallback = await api<Envelope<Overview>>(stack, k, `/analytics/${site.id}`);
      expect(fallback.status).toBe(200);
      expect(fallback.body.data.range).toBe('7d');
      for (const [range, days] of [
        ['30d', 30],
        ['90d', 90],
        ['1y', 365],
      ] as const) {
        const response = await api<Envelope<Overview>>(
          stack,
          k,
          `/analytics/${site.id}?range=${range}`,
        );
        expect(response.status).toBe(200);
        expect(response.body.data.daily_stats).toHaveLength(days);
        expect(response.body.data.summary.pageviews).toBe(4);
      }
    });

    it('DATA-3: when timeRange=24h is sent (the polling alias), then 24 hourly entries and exact totals come back', async () => {
      const response = await api<Envelope<Overview>>(
        stack,
        await key(),
        `/analytics/${site.id}?timeRange=24h`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data.range).toBe('24h');
      expect(response.body.data.granularity).toBe('hour');
      expect(response.body.data.daily_stats).toHaveLength(24);
      expect(response.body.data.summary).toMatchObject({
        pageviews: 4,
        unique_visitors: 3,
        sessions: 3,
      });
      expect(sum(response.body.data.daily_stats)).toBe(4);
    });

    it.each(['2d', '7D', ''])(
      'DATA-3: when range=%s, then 400 invalid_parameters names the allowed values',
      async (range) => {
        const response = await api<Envelope<unknown>>(
          stack,
          await key(),
          `/analytics/${site.id}?range=${range}${range === '' ? 'x' : ''}`,
        );
        expect(response.status).toBe(400);
        expect(response.body.error?.code).toBe('invalid_parameters');
        expect(response.body.error?.message).toContain('24h, 7d, 30d, 90d, 1y');
      },
    );

    it('DATA-6: when a query parameter the route does not accept is sent, then 400 invalid_parameters names it and what is accepted', async () => {
      const response = await api<Envelope<unknown>>(
        stack,
        await key(),
        `/analytics/${site.id}?startDate=2026-01-01&range=30d`,
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'invalid_parameters',
          message: 'Unknown query parameter "startDate"; this endpoint accepts range, timeRange',
          timestamp: expect.any(String),
          details: { unknown: ['startDate'], accepted: ['range', 'timeRange'] },
        },
      });
      const misspelt = await api<Envelope<unknown>>(
        stack,
        await key(),
        `/analytics/${site.id}/visitors?ragne=30d&ofset=10`,
      );
      expect(misspelt.status).toBe(400);
      expect(misspelt.body.error?.message).toBe(
        'Unknown query parameters "ragne", "ofset"; this endpoint accepts range, timeRange, limit, offset',
      );
    });

    it("DATA-6: when the website does not exist, then 404 not_found; when it is another organization's, then 403 forbidden", async () => {
      const k = await key();
      const unknown = await api<Envelope<unknown>>(stack, k, '/analytics/65f000000000000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error?.code).toBe('not_found');
      const malformed = await api<Envelope<unknown>>(stack, k, '/analytics/not-an-id');
      expect(malformed.status).toBe(404);
      const other = await analyticsAccount(stack);
      const foreign = await api<Envelope<unknown>>(
        stack,
        k,
        `/analytics/${other.account.websites[0]!.id}`,
      );
      expect(foreign.status).toBe(403);
      expect(foreign.body.error?.code).toBe('forbidden');
    });
  });

  describe('a website id that cannot be one', () => {
    use('overview');
    it('DATA-6: when the website id is not 24 hexadecimal digits, then it is answered 404 where an unknown id is, after bad parameters and a bad body, and no operation runs for it', async () => {
      const { apollo } = stack.facade.engine;
      const operations = jest.spyOn(apollo, 'executeOperation');
      try {
        const badRange = await api<Envelope<unknown>>(
          stack,
          await key(),
          '/analytics/not-an-id?range=2y',
        );
        expect(badRange.status).toBe(400);
        const unknown = await api<Envelope<unknown>>(
          stack,
          await key(),
          `/analytics/${'f'.repeat(25)}`,
        );
        expect(unknown.status).toBe(404);
        expect(unknown.body.error).toMatchObject({
          code: 'not_found',
          message: 'Website not found',
        });
        const query = await api<Envelope<unknown>>(stack, await key(), '/query/not-an-id', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ metrics: ['nothing'] }),
        });
        expect(query.status).toBe(400);
        // Only the keys' own look-ups (each key is new here) ran.
        const run = operations.mock.calls.map(([request]) => request.operationName);
        expect(run.filter((name) => name !== 'Viewer')).toEqual([]);
      } finally {
        operations.mockRestore();
      }
    });
  });

  describe('GET /analytics/:websiteId/countries, /pages, /technology', () => {
    use('breakdowns');
    it('DATA-6: when traffic came from three countries, then countries lists each with exact counts, most visitors first', async () => {
      const response = await api<
        Envelope<{ countries: Array<Row & { country: string }>; pagination: unknown }>
      >(stack, await key(), `/analytics/${site.id}/countries?range=7d`);
      expect(response.status).toBe(200);
      expect(
        response.body.data.countries.map(({ country, visitors, pageviews, sessions }) => ({
          country,
          visitors,
          pageviews,
          sessions,
        })),
      ).toEqual([
        { country: 'US', visitors: 1, pageviews: 2, sessions: 1 },
        { country: 'BR', visitors: 1, pageviews: 1, sessions: 1 },
        { country: 'GB', visitors: 1, pageviews: 1, sessions: 1 },
      ]);
      expect(response.body.data.pagination).toEqual({ limit: 100, offset: 0, has_more: false });
    });

    it('DATA-6: when three paths were viewed, then pages counts views and visitors per path', async () => {
      const response = await api<
        Envelope<{ pages: Array<Row & { path: string; bounce_rate: number }> }>
      >(stack, await key(), `/analytics/${site.id}/pages?range=24h`);
      expect(response.status).toBe(200);
      expect(
        response.body.data.pages.map(({ path, visitors, pageviews }) => ({
          path,
          visitors,
          pageviews,
        })),
      ).toEqual([
        { path: '/', visitors: 2, pageviews: 2 },
        { path: '/blog', visitors: 1, pageviews: 1 },
        { path: '/pricing', visitors: 1, pageviews: 1 },
      ]);
    });

    it('DATA-6: when pages are paged with limit=1, then has_more tells whether more rows follow', async () => {
      const k = await key();
      const first = await api<
        Envelope<{ pages: Array<{ path: string }>; pagination: { has_more: boolean } }>
      >(stack, k, `/analytics/${site.id}/pages?limit=1`);
      const last = await api<
        Envelope<{ pages: Array<{ path: string }>; pagination: { has_more: boolean } }>
      >(stack, k, `/analytics/${site.id}/pages?limit=1&offset=2`);
      expect(first.status).toBe(200);
      expect(first.body.data.pages.map((p) => p.path)).toEqual(['/']);
      expect(first.body.data.pagination.has_more).toBe(true);
      expect(last.body.data.pages.map((p) => p.path)).toEqual(['/pricing']);
      expect(last.body.data.pagination.has_more).toBe(false);
    });

    it('DATA-6: when visitors used three browsers on two device types, then technology breaks them down', async () => {
      const response = await api<
        Envelope<
          Record<'devices' | 'browsers' | 'operating_systems', Array<Row & { value: string }>>
        >
      >(stack, await key(), `/analytics/${site.id}/technology`);
      expect(response.status).toBe(200);
      const pick = (rows: Array<Row & { value: string }>) =>
        rows.map(({ value, visitors }) => [value, visitors]);
      expect(pick(response.body.data.devices)).toEqual([
        ['desktop', 2],
        ['mobile', 1],
      ]);
      expect(pick(response.body.data.browsers)).toEqual([
        ['Chrome', 1],
        ['Firefox', 1],
        ['Mobile Safari', 1],
      ]);
      expect(pick(response.body.data.operating_systems)).toEqual([
        ['Windows', 1],
        ['Linux', 1],
        ['iOS', 1],
      ]);
    });
  });

  describe('GET /analytics/:websiteId/visitors', () => {
    use('breakdowns');
    it('DATA-4 DATA-5: when visitors are listed, then each record has country, last_seen and pageviews', async () => {
      const response = await api<Envelope<VisitorsData>>(
        stack,
        await key(),
        `/analytics/${site.id}/visitors`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data.pagination).toEqual({ limit: 100, offset: 0, has_more: false });
      expect(response.body.data.visitors.map((v) => [v.country, v.pageviews])).toEqual([
        ['US', 2],
        ['GB', 1],
        ['BR', 1],
      ]);
      for (const visitor of response.body.data.visitors)
        expect(new Date(visitor.last_seen).toISOString()).toBe(visitor.last_seen);
    });

    it.each(['5000', '2000000001', '99999999999999999999999'])(
      'DATA-4: when limit is %s (above 1000), then it is clamped to 1000',
      async (limit) => {
        const response = await api<Envelope<VisitorsData>>(
          stack,
          await key(),
          `/analytics/${site.id}/visitors?limit=${limit}`,
        );
        expect(response.status).toBe(200);
        expect(response.body.data.pagination.limit).toBe(1000);
      },
    );

    it.each([
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['limit=', 'limit'],
      ['limit', 'limit'],
      ['offset=', 'offset'],
      ['offset=2000000001', 'offset'],
      ['range=week', 'range'],
    ])('DATA-4: when %s, then 400 invalid_parameters names the parameter', async (query, name) => {
      const response = await api<Envelope<unknown>>(
        stack,
        await key(),
        `/analytics/${site.id}/visitors?${query}`,
      );
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error?.code).toBe('invalid_parameters');
      expect(response.body.error?.message).toContain(name);
    });
  });

  describe('POST /query/:websiteId', () => {
    use('query');
    type QueryData = {
      metrics: string[];
      dimensions: string[];
      results: Array<{ dimensions: string[]; metrics: number[] }>;
      pagination: { has_more: boolean };
      date_range: { from: string; to: string };
    };
    const query = async (body: unknown, k?: string) =>
      api<Envelope<QueryData>>(stack, k ?? (await key()), `/query/${site.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('DATA-6: when a breakdown by country is filtered to US and GB, then exactly those rows come back in the asked order', async () => {
      const response = await query({
        metrics: ['visitors', 'pageviews'],
        dimensions: ['country'],
        filters: [['is', 'country', ['US', 'GB']]],
        order_by: [['pageviews', 'desc']],
      });
      expect(response.status).toBe(200);
      expect(response.body.data.results).toEqual([
        { dimensions: ['US'], metrics: [1, 2] },
        { dimensions: ['GB'], metrics: [1, 1] },
      ]);
      expect(response.body.data.pagination.has_more).toBe(false);
    });

    it('DATA-6: when totals are filtered with contains and is_not, then only matching values are summed', async () => {
      const k = await key();
      const contains = await query(
        { metrics: ['pageviews'], filters: [['contains', 'page', ['PRI']]], date_range: '24h' },
        k,
      );
      expect(contains.status).toBe(200);
      expect(contains.body.data.results).toEqual([{ dimensions: [], metrics: [1] }]);
      const isNot = await query(
        { metrics: ['pageviews', 'sessions'], filters: [['is_not', 'source', ['direct']]] },
        k,
      );
      expect(isNot.body.data.results).toEqual([{ dimensions: [], metrics: [2, 2] }]);
    });

    it('DATA-6: when visitors are asked for one page, or per page, then they are answered', async () => {
      const k = await key();
      const onePage = await query(
        { metrics: ['visitors'], filters: [['is', 'page', ['/pricing']]] },
        k,
      );
      const perPage = await query(
        { metrics: ['visitors'], dimensions: ['page'], filters: [['is_not', 'page', ['/nope']]] },
        k,
      );
      expect(onePage.status).toBe(200);
      expect(perPage.status).toBe(200);
      expect(perPage.body.data.results.length).toBeGreaterThan(1);
    });

    it('DATA-6: when grouped by time:day over a custom date range, then one zero-filled row per day sums to the total', async () => {
      const day = (offset: number) =>
        new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const response = await query({
        metrics: ['pageviews'],
        dimensions: ['time:day'],
        date_range: [day(-6), day(1)],
      });
      expect(response.status).toBe(200);
      expect(response.body.data.results).toHaveLength(8);
      expect(response.body.data.results.reduce((n, r) => n + (r.metrics[0] ?? 0), 0)).toBe(4);
      expect(response.body.data.date_range.from).toBe(`${day(-6)}T00:00:00.000Z`);
    });

    it.each([
      ['no metrics', { dimensions: ['country'] }, 'metrics'],
      ['an unknown metric', { metrics: ['bogus'] }, 'metrics.0'],
      ['an unknown field', { metrics: ['visitors'], segment: 'x' }, 'segment'],
      [
        'an unknown dimension',
        { metrics: ['visitors'], dimensions: ['city'] },
        'dimensions[0]: unknown dimension "city"',
      ],
      [
        'a bad filter operator',
        { metrics: ['visitors'], filters: [['between', 'page', ['/']]] },
        'filters[0][0]: unknown operator "between"',
      ],
      [
        'filters nested deeper than five',
        {
          metrics: ['visitors'],
          filters: [['not', ['not', ['not', ['not', ['not', ['is', 'page', ['/']]]]]]]],
        },
        'nest at most 5 deep',
      ],
      [
        'a regular expression RE2 cannot run',
        { metrics: ['visitors'], filters: [['matches', 'page', ['(?=x)']]] },
        'filters[0][2][0]: not a regular expression',
      ],
      [
        'a malformed date',
        { metrics: ['visitors'], date_range: ['2026-13-01', '2026-12-01'] },
        'date_range',
      ],
      [
        'a date past the last one whose range end is still a four-digit year',
        { metrics: ['visitors'], date_range: ['9999-01-01', '9999-12-31'] },
        'date_range[1] must be from 1970-01-01 to 9999-12-30',
      ],
      [
        'a date before the Unix epoch',
        { metrics: ['visitors'], date_range: ['0000-01-01', '0000-01-02'] },
        'date_range[0] must be from 1970-01-01 to 9999-12-30',
      ],
      [
        'an order by an unrequested field',
        { metrics: ['visitors'], order_by: [['pageviews', 'desc']] },
        'order_by',
      ],
      [
        'time:hour over 90 days',
        { metrics: ['visitors'], dimensions: ['time:hour'], date_range: '90d' },
        'time:hour',
      ],
      [
        'a conversion rate without a goal',
        { metrics: ['conversion_rate'], dimensions: ['page'] },
        'conversion_rate needs the goal dimension',
      ],
      [
        'a goal the website does not have',
        { metrics: ['visitors'], filters: [['is', 'goal', ['Nope']]] },
        'goal "Nope" is not one of the website',
      ],
      [
        'a comparison over the last 24 hours',
        {
          metrics: ['visitors'],
          date_range: '24h',
          include: { comparisons: { mode: 'previous_period' } },
        },
        'comparisons need a date range of whole days',
      ],
    ])(
      'DATA-6: when the body has %s, then 400 invalid_parameters says what is wrong',
      async (_case, body, mentions) => {
        const response = await query(body);
        expect(response.status).toBe(400);
        expect(response.body.error?.code).toBe('invalid_parameters');
        expect(response.body.error?.message).toContain(mentions);
      },
    );
  });

  describe('POST /query/:websiteId body format', () => {
    it('DATA-6: when the body is not sent as application/json, then 415 unsupported_media_type says how to send it', async () => {
      const fixture = await analyticsAccount(stack);
      const k = await fixture.key();
      const path = `/query/${fixture.account.websites[0]!.id}`;
      const body = JSON.stringify({ metrics: ['visitors'] });
      for (const contentType of ['application/x-www-form-urlencoded', 'text/plain']) {
        const response = await api<unknown>(stack, k, path, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        expect(response.status).toBe(415);
        expect(response.body).toEqual({
          success: false,
          error: {
            code: 'unsupported_media_type',
            message: 'Send the body as JSON with Content-Type: application/json',
            timestamp: expect.any(String),
          },
        });
        expect(response.headers.get('x-usage-limit')).toBe('10000');
      }
      const json = await api<unknown>(stack, k, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body,
      });
      expect(json.status).toBe(200);
    });

    it('DATA-6: when the body is not valid JSON or over 64 KiB, then 400 invalid_json or 413 payload_too_large after the key is checked', async () => {
      const fixture = await analyticsAccount(stack);
      const k = await fixture.key();
      const path = `/query/${fixture.account.websites[0]!.id}`;
      const headers = { 'content-type': 'application/json' };
      const brokenBody = '{"metrics": [';
      const largeBody = JSON.stringify({ metrics: ['visitors'], pad: 'x'.repeat(70_000) });
      for (const body of [brokenBody, largeBody]) {
        const withoutKey = await http<{ error: { code: string } }>(
          `${stack.facade.url}/api/external/v1${path}`,
          { method: 'POST', headers, body },
        );
        expect(withoutKey.status).toBe(401);
        expect(withoutKey.body.error.code).toBe('invalid_api_key');
      }
      const broken = await api<{ error: { code: string } }>(stack, k, path, {
        method: 'POST',
        headers,
        body: brokenBody,
      });
      expect(broken.status).toBe(400);
      expect(broken.body.error.code).toBe('invalid_json');
      expect(broken.headers.get('x-usage-monthly')).toBe('1');
      const large = await api<{ error: { code: string } }>(stack, k, path, {
        method: 'POST',
        headers,
        body: largeBody,
      });
      expect(large.status).toBe(413);
      expect(large.body.error.code).toBe('payload_too_large');
      expect(large.headers.get('x-usage-monthly')).toBe('2');
    });

    it('DATA-6: when the body is JSON but not an object, or its bytes do not match their Content-Encoding, then 400 saying which; a gzip body is read', async () => {
      const fixture = await analyticsAccount(stack);
      const k = await fixture.key();
      const path = `/query/${fixture.account.websites[0]!.id}`;
      const json = { 'content-type': 'application/json' };
      for (const body of ['null', '"pageviews"', '[]']) {
        const response = await api<{ error: { code: string; message: string } }>(stack, k, path, {
          method: 'POST',
          headers: json,
          body,
        });
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('invalid_parameters');
        expect(response.body.error.message).toMatch(/^\(body\): .*expected object/);
      }
      const query = JSON.stringify({ metrics: ['pageviews'] });
      for (const encoding of ['gzip', 'br']) {
        const response = await api<{ error: { code: string; message: string } }>(stack, k, path, {
          method: 'POST',
          headers: { ...json, 'content-encoding': encoding },
          body: query,
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toEqual({
          code: 'invalid_json',
          message: expect.stringContaining('does not match its Content-Encoding'),
          timestamp: expect.any(String),
        });
      }
      const gzipped = await api<{ success: boolean }>(stack, k, path, {
        method: 'POST',
        headers: { ...json, 'content-encoding': 'gzip' },
        body: gzipSync(query),
      });
      expect(gzipped.status).toBe(200);
      expect(gzipped.body.success).toBe(true);
      expect(gzipped.headers.get('x-usage-monthly')).toBe('6');
    });
  });

  describe('permissions', () => {
    it('AUTH-4: when the key lacks the read analytics permission, then 403 forbidden', async () => {
      const fixture = await analyticsAccount(stack);
      const k = await fixture.key({ permissions: ['track_events'] });
      const response = await api<{ error: { code: string; message: string } }>(
        stack,
        k,
        `/analytics/${fixture.account.websites[0]!.id}`,
      );
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    });
  });
});
