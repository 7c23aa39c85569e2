import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../common/platform/redis';
import { deleteKeysMatching, openTestRedis } from '../support/redis';
import { collectPayloadSchema } from '../../rest-facade/src/collect/collect.schema';
import { appendEvent } from '../../rest-facade/src/collect/collector.service';
import { enrich, normalizeIp } from '../../rest-facade/src/collect/enrich';
import type { CollectedEvent } from '../../common/contracts/collected-event';
import { floorDay, floorHour } from '../../subgraphs/analytics/src/ingest/time-buckets';
import { analyticsDataset } from '../support/analytics-dataset';
import {
  expectedBreakdownList,
  expectedErrorGroups,
  expectedHeatmapPages,
  expectedOverview,
  expectedReplaySessions,
  expectedTechnology,
  expectedVisitors,
  RANGES,
  type ExpectedVisitor,
  type Range,
} from '../support/analytics-recount';
import { buildAccount, buildApiKey } from '../support/factories';
import { expectedStats, statsRowsOf } from '../support/stats-answer';
import type { QueryBodyInput as QueryBody } from '../../rest-facade/src/routes/query-body';
import { startStack, type Stack } from '../support/stack';
import { api } from './analytics-helpers';
import { waitUntilSealed } from '../support/ingest-idle';

/**
 * Visitor ids (contract change in progress). `true`: a visitor's `id` is its hash id, the
 * `visitorId` of its events (what replays report as `visitor_id`), and records are compared by id,
 * in order. `false`: the code still answers with a database id, so records are matched by their
 * other fields and the ids are only checked to be distinct.
 */
const VISITOR_ID_IS_HASH = true;

type Envelope<T> = { success: boolean; data: T; timestamp: string };
type Pagination = { limit: number; offset: number; has_more: boolean };
type VisitorPage = { visitors: ExpectedVisitor[]; pagination: Pagination };

const DAY_MS = 86_400_000;

/**
 * Runs `read` and returns it with the time taken just before it; runs it again when the UTC hour
 * changed meanwhile, since the ranges (24 hours, today) move on the hour.
 */
async function atSteadyHour<T>(read: () => Promise<T>): Promise<{ now: number; result: T }> {
  for (;;) {
    const now = Date.now();
    const result = await read();
    if (floorHour(Date.now()) === floorHour(now)) return { now, result };
  }
}

describe('analytics at size: every figure of every route equals a recount from the raw events', () => {
  let stack: Stack;
  let redis: RedisClient;
  let key: string;
  let sites: Array<{ id: string; trackingCode: string; domain: string }>;
  /** The enriched events, in the order they were appended to the stream. */
  const events: CollectedEvent[] = [];
  /** The time the dataset ends at. */
  let generatedAt: number;

  const get = <T>(path: string) => api<Envelope<T>>(stack, key, path);
  const post = <T>(path: string, body: unknown) =>
    api<Envelope<T>>(stack, key, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** Every site × range, checked side by side. */
  const eachSiteAndRange = (
    ranges: readonly Range[],
    check: (siteId: string, range: Range) => Promise<void>,
  ) => Promise.all(sites.flatMap((site) => ranges.map((range) => check(site.id, range))));

  beforeAll(async () => {
    // Days two and more days old are sealed as soon as they are quiet, so the reads below combine
    // sealed snapshots (cold windows) with the hot days, as they do in production.
    stack = await startStack('analytics-at-size', {
      TRUSTED_PROXIES: 'loopback',
      ANALYTICS_SEAL_QUIET_SECONDS: '0',
    });
    redis = await openTestRedis(stack.env.REDIS_URL!);
    const account = await buildAccount(stack, {
      plan: 'enterprise',
      websites: 3,
      customLimits: { requestsPerMinute: 100_000, requestsPerMonth: 10_000_000 },
    });
    key = (await buildApiKey(stack, account)).key;
    sites = account.websites;
    generatedAt = Date.now();
    const dataset = analyticsDataset({
      now: generatedAt,
      sites: sites.map((site) => ({ trackingCode: site.trackingCode, host: site.domain })),
    });
    // Exactly what scripts/seed.ts does: validate, enrich with the UTC day's salt, append.
    const salts = new Map<number, string>();
    const prefix = stack.env.REDIS_KEY_PREFIX!;
    const enriched = dataset.map((item) => {
      const day = floorDay(item.ts);
      if (!salts.has(day)) salts.set(day, randomBytes(32).toString('hex'));
      return enrich(collectPayloadSchema.parse(item.payload), {
        websiteId: sites[item.site]!.id,
        ip: normalizeIp(item.ip),
        userAgent: item.userAgent,
        countryHeader: undefined,
        salt: salts.get(day)!,
        now: item.ts,
      });
    });
    // One visitor in twenty of the days already sealed arrives late, after those days were sealed
    // (a backlog, dead letters re-added): their days are thawed and sealed again.
    const sealedBefore = floorDay(generatedAt) - 2 * DAY_MS;
    const late = (e: CollectedEvent) =>
      e.ts < sealedBefore && Number.parseInt(e.visitorId.slice(0, 4), 16) % 20 === 0;
    const append = async (batch: CollectedEvent[]) => {
      for (const event of batch) {
        await appendEvent(redis, prefix, event);
        events.push(event);
      }
    };
    const { ingest } = stack.analytics.services;
    await append(enriched.filter((e) => !late(e)));
    await waitUntilSealed(ingest, 120_000);
    await append(enriched.filter(late));
    await waitUntilSealed(ingest, 120_000);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    if (redis) {
      await deleteKeysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);
      redis.disconnect();
    }
  });

  it('DATA-6: when the dataset was generated, then it has the size and the variety the figures below depend on', () => {
    const count = (type: CollectedEvent['type']) => events.filter((e) => e.type === type).length;
    expect(events.length).toBeGreaterThanOrEqual(5_000);
    expect(events.length).toBeLessThanOrEqual(10_000);
    for (const type of ['pageview', 'event', 'click', 'error', 'replay'] as const)
      expect(count(type)).toBeGreaterThan(0);
    const values = (pick: (e: CollectedEvent) => unknown) => new Set(events.map(pick)).size;
    expect(values((e) => e.country)).toBeGreaterThanOrEqual(10);
    expect(new Set(events.map((e) => e.device))).toEqual(
      new Set(['desktop', 'mobile', 'tablet', 'other']),
    );
    expect(events.some((e) => e.country === null)).toBe(true);
    expect(events.some((e) => e.browser === null)).toBe(true);
    expect(
      values((e) => (e.type === 'pageview' ? `${e.websiteId} ${e.path}` : '')),
    ).toBeGreaterThan(300);
    const lastDay = events.filter((e) => e.ts > generatedAt - DAY_MS);
    expect(new Set(lastDay.map((e) => floorHour(e.ts))).size).toBeGreaterThanOrEqual(12);
    expect(floorDay(events[0]!.ts)).toBe(floorDay(generatedAt) - 39 * DAY_MS);
    // The boundaries the figures depend on: pauses of more than 30 minutes (a second visit), page
    // views exactly 30 minutes (one visit) and 30 minutes and 1 ms apart, a visitor in two hours
    // of the last 24, replay chunks sent twice and out of order.
    const previous = new Map<string, number>();
    const gaps: number[] = [];
    const recentHours = new Map<string, Set<number>>();
    for (const e of events) {
      if (e.type !== 'pageview') continue;
      const visitor = `${e.websiteId} ${e.visitorId}`;
      const last = previous.get(visitor);
      if (last !== undefined) gaps.push(e.ts - last);
      previous.set(visitor, e.ts);
      if (e.ts > generatedAt - DAY_MS)
        recentHours.set(visitor, (recentHours.get(visitor) ?? new Set()).add(floorHour(e.ts)));
    }
    expect(gaps.filter((gap) => gap > 30 * 60_000).length).toBeGreaterThan(100);
    expect(gaps).toEqual(expect.arrayContaining([30 * 60_000, 30 * 60_000 + 1]));
    expect([...recentHours.values()].some((hours) => hours.size > 1)).toBe(true);
    const sequences = new Map<string, number[]>();
    for (const e of events)
      if (e.type === 'replay')
        sequences.set(e.sessionId, [...(sequences.get(e.sessionId) ?? []), e.sequence]);
    const arrivals = [...sequences.values()];
    expect(arrivals.some((s) => new Set(s).size < s.length)).toBe(true);
    expect(arrivals.some((s) => s.some((sequence, i) => i > 0 && sequence < s[i - 1]!))).toBe(true);
  });

  it('DATA-1 DATA-2 DATA-3: when the overview of each range is read, then the summary and every daily_stats entry equal the recount', async () => {
    await eachSiteAndRange(RANGES, async (siteId, range) => {
      const { now, result } = await atSteadyHour(() => get(`/analytics/${siteId}?range=${range}`));
      expect(result.status).toBe(200);
      expect(result.body.success).toBe(true);
      expect(result.body.data).toEqual(expectedOverview(events, siteId, range, now));
    });
  });

  describe('GET /analytics/:websiteId/visitors', () => {
    /** Walks offset += limit until has_more is false; every page must answer 200. */
    async function walk(siteId: string, range: Range, limit: number) {
      return atSteadyHour(async () => {
        const pages: Array<{ status: number; body: Envelope<VisitorPage> }> = [];
        for (let offset = 0; ; offset += limit) {
          const page = await get<VisitorPage>(
            `/analytics/${siteId}/visitors?range=${range}&limit=${limit}&offset=${offset}`,
          );
          pages.push(page);
          if (page.status !== 200 || !page.body.data.pagination.has_more) break;
        }
        return pages;
      });
    }

    function expectWalk(
      pages: Array<{ status: number; body: Envelope<VisitorPage> }>,
      limit: number,
      expected: ExpectedVisitor[],
    ) {
      expect(pages.map((p) => p.status)).toEqual(pages.map(() => 200));
      expect(pages.map((p) => p.body.data.pagination)).toEqual(
        pages.map((_, i) => ({ limit, offset: i * limit, has_more: i < pages.length - 1 })),
      );
      const seen = pages.flatMap((p) => p.body.data.visitors);
      expect(new Set(seen.map((v) => v.id)).size).toBe(seen.length);
      const firstSeen = seen.map((v) => Date.parse(v.first_seen));
      expect(firstSeen).toEqual([...firstSeen].sort((a, b) => a - b));
      if (VISITOR_ID_IS_HASH) {
        expect(seen).toEqual(expected);
        return;
      }
      // Matched by every field but the id: first-seen order, ties by the fields themselves.
      const withoutId = (list: ExpectedVisitor[]) =>
        list
          .map((v) =>
            JSON.stringify([
              v.country,
              v.device,
              v.browser,
              v.os,
              v.first_seen,
              v.last_seen,
              v.pageviews,
              v.sessions,
              v.entry_page,
              v.last_page,
            ]),
          )
          .sort();
      expect(withoutId(seen)).toEqual(withoutId(expected));
      expect(seen.map((v) => v.first_seen)).toEqual(expected.map((v) => v.first_seen));
    }

    it('DATA-4 DATA-5: when every range is walked with limit 1000 until has_more is false, then every visitor comes exactly once, in first-seen order, with every field as recounted', async () => {
      await eachSiteAndRange(RANGES, async (siteId, range) => {
        const { now, result } = await walk(siteId, range, 1000);
        expectWalk(result, 1000, expectedVisitors(events, siteId, range, now));
      });
    });

    it('DATA-4: when the 30d list of the busiest website is walked 37 at a time, then the pages join into the same list', async () => {
      const siteId = sites[0]!.id;
      const { now, result } = await walk(siteId, '30d', 37);
      const expected = expectedVisitors(events, siteId, '30d', now);
      expect(result.length).toBe(Math.ceil(expected.length / 37));
      expectWalk(result, 37, expected);
    });
  });

  describe('breakdowns: countries, pages, sources, technology', () => {
    const routes = [
      ['countries', 'country', 'country'],
      ['pages', 'page', 'path'],
      ['sources', 'source', 'source'],
    ] as const;

    it.each(routes)(
      'DATA-6: when /%s is read for each range, then every row, every figure and the order equal the recount',
      async (route, dimension, valueName) => {
        await eachSiteAndRange(RANGES, async (siteId, range) => {
          const { now, result } = await atSteadyHour(() =>
            get(`/analytics/${siteId}/${route}?range=${range}&limit=1000`),
          );
          expect(result.status).toBe(200);
          expect(result.body.data).toEqual({
            [route]: expectedBreakdownList(events, siteId, dimension, range, now, valueName),
            pagination: { limit: 1000, offset: 0, has_more: false },
          });
        });
      },
    );

    it('DATA-6: when /technology is read for each range, then devices, browsers and operating systems equal the recount', async () => {
      await eachSiteAndRange(RANGES, async (siteId, range) => {
        const { now, result } = await atSteadyHour(() =>
          get(`/analytics/${siteId}/technology?range=${range}&limit=1000`),
        );
        expect(result.status).toBe(200);
        expect(result.body.data).toEqual(expectedTechnology(events, siteId, range, now, 1000));
      });
    });

    it('DATA-6: when pages over 1y are paged 25 at a time, and technology is limited to 2 rows, then the pages join into the full list and technology keeps the top rows', async () => {
      const siteId = sites[0]!.id;
      const { now, result } = await atSteadyHour(async () => {
        const pages = [];
        for (let offset = 0; ; offset += 25) {
          const page = await get<{ pages: unknown[]; pagination: Pagination }>(
            `/analytics/${siteId}/pages?range=1y&limit=25&offset=${offset}`,
          );
          pages.push(page);
          if (page.status !== 200 || !page.body.data.pagination.has_more) break;
        }
        const technology = await get(`/analytics/${siteId}/technology?range=1y&limit=2`);
        return { pages, technology };
      });
      const expected = expectedBreakdownList(events, siteId, 'page', '1y', now, 'path');
      expect(result.pages.map((p) => p.status)).toEqual(result.pages.map(() => 200));
      expect(result.pages.map((p) => p.body.data.pagination)).toEqual(
        result.pages.map((_, i) => ({
          limit: 25,
          offset: i * 25,
          has_more: i < result.pages.length - 1,
        })),
      );
      expect(result.pages.flatMap((p) => p.body.data.pages)).toEqual(expected);
      expect(result.technology.status).toBe(200);
      expect(result.technology.body.data).toEqual(expectedTechnology(events, siteId, '1y', now, 2));
    });
  });

  describe('heatmaps, replays, error groups', () => {
    const ranges = ['24h', '7d', '1y'] as const;

    it('DATA-6: when heatmap pages are walked over 24h, 7d and 1y (limit 1000 is clamped to 100), then clicks, visitors and the busiest cells equal the recount', async () => {
      type HeatmapList = { pages: unknown[]; pagination: Pagination };
      await eachSiteAndRange(ranges, async (siteId, range) => {
        const { now, result } = await atSteadyHour(async () => {
          const pages: Array<{ status: number; body: Envelope<HeatmapList> }> = [];
          for (let offset = 0; ; offset += 100) {
            const page = await get<HeatmapList>(
              `/heatmaps/${siteId}/pages?range=${range}&limit=1000&offset=${offset}`,
            );
            pages.push(page);
            if (page.status !== 200 || !page.body.data.pagination.has_more) break;
          }
          return pages;
        });
        expect(result.map((p) => p.status)).toEqual(result.map(() => 200));
        expect(result.map((p) => p.body.data.pagination)).toEqual(
          result.map((_, i) => ({ limit: 100, offset: i * 100, has_more: i < result.length - 1 })),
        );
        expect(result.flatMap((p) => p.body.data.pages)).toEqual(
          expectedHeatmapPages(events, siteId, range, now),
        );
      });
    });

    it('DATA-6: when replay sessions are read over 24h, 7d and 1y, then each session (chunks sent twice or out of order included) equals the recount, newest first', async () => {
      await eachSiteAndRange(ranges, async (siteId, range) => {
        const { now, result } = await atSteadyHour(() =>
          get(`/replays/${siteId}/sessions?range=${range}&limit=1000`),
        );
        expect(result.status).toBe(200);
        expect(result.body.data).toEqual({
          sessions: expectedReplaySessions(events, siteId, range, now),
          pagination: { limit: 1000, offset: 0, has_more: false },
        });
      });
    });

    it('DATA-6: when error groups are read over 24h, 7d and 1y, then occurrences, affected visitors and the all-time figures equal the recount', async () => {
      await eachSiteAndRange(ranges, async (siteId, range) => {
        const { now, result } = await atSteadyHour(() =>
          get(`/errors/${siteId}/groups?range=${range}&limit=1000`),
        );
        expect(result.status).toBe(200);
        expect(result.body.data).toEqual({
          groups: expectedErrorGroups(events, siteId, range, now),
          pagination: { limit: 1000, offset: 0, has_more: false },
        });
      });
    });
  });

  describe('POST /query/:websiteId', () => {
    const ALL = [
      'visitors',
      'pageviews',
      'sessions',
      'bounce_rate',
      'visit_duration',
      'events',
    ] as const;
    const day = (offset: number) =>
      new Date(floorDay(Date.now()) + offset * DAY_MS).toISOString().slice(0, 10);
    const bodies = (): Array<[string, QueryBody]> => [
      ['no dimension over 7d (the default)', { metrics: [...ALL] }],
      ['no dimension over 24h', { metrics: [...ALL], date_range: '24h' }],
      ['no dimension over 1y', { metrics: [...ALL], date_range: '1y' }],
      ...(['country', 'page', 'source', 'device', 'browser', 'os'] as const).map(
        (dimension): [string, QueryBody] => [
          `by ${dimension} over 30d`,
          { metrics: [...ALL], dimensions: [dimension], date_range: '30d', limit: 1000 },
        ],
      ),
      [
        'by country over 24h',
        { metrics: [...ALL], dimensions: ['country'], date_range: '24h', limit: 1000 },
      ],
      [
        'no dimension over 1y, event metrics only (from the day rollups)',
        { metrics: ['visitors', 'pageviews', 'events'], date_range: '1y' },
      ],
      [
        'by page over 30d (from the day rollups)',
        {
          metrics: ['visitors', 'pageviews'],
          dimensions: ['page'],
          date_range: '30d',
          limit: 1000,
        },
      ],
      [
        'by source and month over 90d (from the day rollups)',
        {
          metrics: ['visitors', 'pageviews', 'events'],
          dimensions: ['source', 'time:month'],
          date_range: '90d',
          limit: 1000,
        },
      ],
      [
        'by page with bounce rates over 1y (whole months from the month rollups)',
        {
          metrics: ['visitors', 'pageviews', 'bounce_rate', 'visit_duration'],
          dimensions: ['page'],
          date_range: '1y',
          limit: 1000,
        },
      ],
      [
        'by country and month from mid-month to mid-month (month and day rollups)',
        {
          metrics: ['visitors', 'pageviews', 'events', 'sessions'],
          dimensions: ['country', 'time:month'],
          date_range: [day(-75), day(-10)],
          limit: 1000,
        },
      ],
      [
        'by event over 90d',
        { metrics: ['visitors', 'events', 'pageviews'], dimensions: ['event'], date_range: '90d' },
      ],
      [
        'by event over 24h (yesterday and today)',
        { metrics: ['events', 'visitors'], dimensions: ['event'], date_range: '24h' },
      ],
      [
        'time:day over 30d',
        { metrics: [...ALL], dimensions: ['time:day'], date_range: '30d', limit: 1000 },
      ],
      [
        'time:day over a custom range from before the first event to after today',
        {
          metrics: [...ALL],
          dimensions: ['time:day'],
          date_range: [day(-45), day(2)],
          limit: 1000,
        },
      ],
      ['time:hour over 24h', { metrics: [...ALL], dimensions: ['time:hour'], date_range: '24h' }],
      [
        'time:day over 24h',
        { metrics: ['pageviews', 'events'], dimensions: ['time:day'], date_range: '24h' },
      ],
      [
        'time:day newest first, filtered to one country',
        {
          metrics: ['visitors', 'pageviews', 'sessions'],
          dimensions: ['time:day'],
          filters: [['is', 'country', ['US']]],
          date_range: '7d',
          order_by: [['time:day', 'desc']],
        },
      ],
      [
        'time:hour filtered to two devices',
        {
          metrics: ['visitors', 'pageviews', 'bounce_rate'],
          dimensions: ['time:hour'],
          filters: [['is', 'device', ['mobile', 'tablet']]],
          date_range: '24h',
        },
      ],
      [
        'one page with is, no dimension',
        {
          metrics: ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'visit_duration'],
          filters: [['is', 'page', ['/pricing']]],
          date_range: '30d',
        },
      ],
      [
        'one page with is over 24h (hours summed)',
        { metrics: ['visitors', 'pageviews'], filters: [['is', 'page', ['/']]], date_range: '24h' },
      ],
      [
        'several countries with is, unknown included',
        {
          metrics: ['visitors', 'pageviews', 'sessions'],
          filters: [['is', 'country', ['US', 'DE', 'unknown']]],
          date_range: '90d',
        },
      ],
      [
        'sources other than direct (is_not)',
        {
          metrics: ['pageviews', 'sessions', 'bounce_rate', 'visit_duration'],
          filters: [['is_not', 'source', ['direct']]],
          date_range: '1y',
        },
      ],
      [
        'one custom event name',
        {
          metrics: ['visitors', 'events'],
          filters: [['is', 'event', ['Signup']]],
          date_range: '30d',
        },
      ],
      [
        'pages containing "BLOG" (case-insensitive), least viewed first',
        {
          metrics: ['pageviews', 'visitors'],
          dimensions: ['page'],
          filters: [['contains', 'page', ['BLOG']]],
          date_range: '1y',
          order_by: [['pageviews', 'asc']],
          limit: 1000,
        },
      ],
      [
        'docs pages but not /docs itself, by path descending',
        {
          metrics: ['visitors', 'pageviews', 'sessions'],
          dimensions: ['page'],
          filters: [
            ['contains', 'page', ['/docs/', '/Docs/']],
            ['is_not', 'page', ['/docs']],
          ],
          date_range: '90d',
          order_by: [['page', 'desc']],
          limit: 1000,
        },
      ],
      [
        'sources by bounce rate descending, then visit duration ascending',
        {
          metrics: ['bounce_rate', 'visit_duration', 'sessions'],
          dimensions: ['source'],
          date_range: '1y',
          order_by: [
            ['bounce_rate', 'desc'],
            ['visit_duration', 'asc'],
          ],
        },
      ],
      [
        'browsers by sessions ascending, then visitors descending',
        {
          metrics: ['visitors', 'sessions'],
          dimensions: ['browser'],
          date_range: '7d',
          order_by: [
            ['sessions', 'asc'],
            ['visitors', 'desc'],
          ],
        },
      ],
      [
        'a page of 10 pages at offset 20',
        {
          metrics: ['visitors', 'pageviews'],
          dimensions: ['page'],
          date_range: '1y',
          limit: 10,
          offset: 20,
        },
      ],
      [
        'an offset past the last row',
        { metrics: ['visitors'], dimensions: ['page'], date_range: '7d', offset: 5000 },
      ],
    ];

    it('DATA-6: when each query body is posted for each website, then results, pagination and date_range equal the recount', async () => {
      await Promise.all(
        sites.flatMap((site) =>
          bodies().map(async ([name, body]) => {
            const { now, result } = await atSteadyHour(() => post(`/query/${site.id}`, body));
            expect({ name, status: result.status }).toEqual({ name, status: 200 });
            expect({ name, data: result.body.data }).toEqual({
              name,
              data: expectedStats(statsRowsOf(events, site.id), body, now),
            });
          }),
        ),
      );
    });

    it('DATA-6: when a breakdown query is paged 10 rows at a time until has_more is false, then the pages join into the one-page answer', async () => {
      const siteId = sites[1]!.id;
      const body: QueryBody = {
        metrics: ['visitors', 'pageviews', 'sessions'],
        dimensions: ['page'],
        date_range: '90d',
      };
      const { now, result } = await atSteadyHour(async () => {
        const pages = [];
        for (let offset = 0; ; offset += 10) {
          const page = await post<{ results: unknown[]; pagination: Pagination }>(
            `/query/${siteId}`,
            {
              ...body,
              limit: 10,
              offset,
            },
          );
          pages.push(page);
          if (page.status !== 200 || !page.body.data.pagination.has_more) break;
        }
        return pages;
      });
      expect(result.map((p) => p.status)).toEqual(result.map(() => 200));
      const all = expectedStats(statsRowsOf(events, siteId), { ...body, limit: 1000 }, now);
      expect(result.length).toBe(Math.ceil(all.results.length / 10));
      expect(result.flatMap((p) => p.body.data.results)).toEqual(all.results);
    });
  });
});
