import { statModelOf, type AnalyticsModels } from '../models';
import { asDays, bucketStarts, windowOf, type AnalyticsRange, type TimeWindow } from './range';
import { uniqueVisitorsSince } from './unique-visitors';

/** The fields every counter read needs: the bucket, the dimension value and the counters. */
export const COUNTER_PROJECTION = {
  _id: 0,
  bucket: 1,
  value: 1,
  pageviews: 1,
  visitors: 1,
  sessions: 1,
  bounces: 1,
  duration: 1,
  events: 1,
} as const;

export const DIMENSIONS = {
  COUNTRY: 'country',
  PAGE: 'page',
  SOURCE: 'source',
  DEVICE: 'device',
  BROWSER: 'browser',
  OS: 'os',
  EVENT: 'event',
} as const;
export type Dimension = keyof typeof DIMENSIONS;

/** Dimensions written per day only; any range reads them in day buckets. */
const DAY_ONLY = new Set(['event', 'click', 'error']);

export interface Page {
  limit: number;
  offset: number;
}
export interface Pagination extends Page {
  hasMore: boolean;
}

export interface Totals {
  pageviews: number;
  visitors: number;
  sessions: number;
  bounces: number;
  duration: number;
  events: number;
}

export interface BreakdownRow {
  value: string;
  visitors: number;
  pageviews: number;
  sessions: number;
  bounceRate: number;
  avgVisitDuration: number;
  events: number;
}

const iso = (ms: number | Date) => new Date(ms).toISOString();
/**
 * GraphQL Int is 32-bit and a larger value fails the whole response; a stored byte count can pass
 * it (1,000,001 chunks of up to 64 KiB per session), so it is reported capped.
 */
export const GRAPHQL_INT_MAX = 2 ** 31 - 1;
const asGraphQLInt = (value: number) => Math.min(value, GRAPHQL_INT_MAX);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const rates = (t: Pick<Totals, 'sessions' | 'bounces' | 'duration'>) => ({
  bounceRate: t.sessions ? round(t.bounces / t.sessions, 4) : 0,
  avgVisitDuration: t.sessions ? round(t.duration / t.sessions, 1) : 0,
});
const zero = (): Totals => ({
  pageviews: 0,
  visitors: 0,
  sessions: 0,
  bounces: 0,
  duration: 0,
  events: 0,
});

function addInto(target: Totals, doc: Partial<Totals>): void {
  target.pageviews += doc.pageviews ?? 0;
  target.visitors += doc.visitors ?? 0;
  target.sessions += doc.sessions ?? 0;
  target.bounces += doc.bounces ?? 0;
  target.duration += doc.duration ?? 0;
  target.events += doc.events ?? 0;
}

/** `limit + 1` rows were fetched: the extra one only says whether another page exists. */
export function paginate<T>(rows: T[], page: Page): { items: T[]; pagination: Pagination } {
  return {
    items: rows.slice(0, page.limit),
    pagination: { ...page, hasMore: rows.length > page.limit },
  };
}

/** Reads of the pre-aggregated counters: a read costs the buckets of its range, never the events. */
export class StatsService {
  constructor(
    private readonly models: AnalyticsModels,
    private readonly now: () => number = Date.now,
  ) {}

  private statsIn(websiteId: string, window: TimeWindow, dim: string) {
    return statModelOf(this.models, dim)
      .find(
        {
          websiteId,
          granularity: window.granularity,
          dim,
          bucket: { $gte: new Date(window.from), $lte: new Date(window.lastBucket) },
        },
        COUNTER_PROJECTION,
      )
      .lean();
  }

  async overview(websiteId: string, range: AnalyticsRange) {
    const window = windowOf(range, this.now());
    const docs = await this.statsIn(websiteId, window, '');
    const byBucket = new Map(docs.map((d) => [d.bucket.getTime(), d]));
    const total = zero();
    const series = bucketStarts(window).map((start) => {
      const doc = byBucket.get(start);
      const bucket = zero();
      if (doc) addInto(bucket, doc);
      addInto(total, bucket);
      return {
        date: iso(start),
        pageviews: bucket.pageviews,
        visitors: bucket.visitors,
        sessions: bucket.sessions,
        bounces: bucket.bounces,
      };
    });
    const uniqueVisitors =
      window.granularity === 'hour'
        ? await uniqueVisitorsSince(this.models, websiteId, window.from)
        : total.visitors;
    return {
      range,
      granularity: window.granularity,
      from: iso(window.from),
      to: iso(window.to),
      summary: {
        totalVisitors: total.sessions,
        pageviews: total.pageviews,
        uniqueVisitors,
        sessions: total.sessions,
        ...rates(total),
      },
      series,
    };
  }

  async visitors(websiteId: string, range: AnalyticsRange, page: Page) {
    const window = windowOf(range, this.now());
    const docs = await this.models.Visitor.find({
      websiteId,
      lastSeen: { $gte: new Date(window.from) },
    })
      .sort({ firstSeen: 1, _id: 1 })
      .skip(page.offset)
      .limit(page.limit + 1)
      .lean();
    const { items, pagination } = paginate(docs, page);
    return {
      visitors: items.map((v) => ({
        id: String(v._id),
        country: v.country ?? null,
        device: v.device ?? null,
        browser: v.browser ?? null,
        os: v.os ?? null,
        firstSeen: iso(v.firstSeen),
        lastSeen: iso(v.lastSeen),
        pageviews: v.pageviews ?? 0,
        sessions: v.sessions ?? 0,
        entryPage: v.entryPath ?? null,
        lastPage: v.lastPath ?? null,
      })),
      pagination,
    };
  }

  /** Rows of one dimension over a range, most visitors first, then page views, then value. */
  async breakdownRows(
    websiteId: string,
    dim: string,
    range: AnalyticsRange,
  ): Promise<BreakdownRow[]> {
    const base = windowOf(range, this.now());
    const window = DAY_ONLY.has(dim) ? asDays(base) : base;
    const docs = await this.statsIn(websiteId, window, dim);
    const byValue = new Map<string, Totals>();
    for (const doc of docs) {
      const totals = byValue.get(doc.value ?? '') ?? zero();
      addInto(totals, doc);
      byValue.set(doc.value ?? '', totals);
    }
    return [...byValue]
      .map(([value, t]) => ({
        value,
        visitors: t.visitors,
        pageviews: t.pageviews,
        sessions: t.sessions,
        events: t.events,
        ...rates(t),
      }))
      .sort(
        (a, b) =>
          b.visitors - a.visitors ||
          b.pageviews - a.pageviews ||
          b.events - a.events ||
          (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
      );
  }

  async breakdown(websiteId: string, dimension: Dimension, range: AnalyticsRange, page: Page) {
    const rows = await this.breakdownRows(websiteId, DIMENSIONS[dimension], range);
    const { items, pagination } = paginate(
      rows.slice(page.offset, page.offset + page.limit + 1),
      page,
    );
    return { dimension, rows: items, pagination };
  }

  async technology(websiteId: string, range: AnalyticsRange, limit: number) {
    const [devices, browsers, operatingSystems] = await Promise.all(
      ['device', 'browser', 'os'].map((dim) =>
        this.breakdownRows(websiteId, dim, range).then((rows) => rows.slice(0, limit)),
      ),
    );
    return {
      devices: devices ?? [],
      browsers: browsers ?? [],
      operatingSystems: operatingSystems ?? [],
    };
  }

  async heatmapPages(websiteId: string, range: AnalyticsRange, page: Page) {
    const window = asDays(windowOf(range, this.now()));
    const rows = (await this.breakdownRows(websiteId, 'click', range)).sort(
      (a, b) => b.events - a.events || (a.value < b.value ? -1 : 1),
    );
    const { items, pagination } = paginate(
      rows.slice(page.offset, page.offset + page.limit + 1),
      page,
    );
    const cellDocs = items.length
      ? await this.models.Heatmap.find(
          {
            websiteId,
            path: { $in: items.map((r) => r.value) },
            day: { $gte: new Date(window.from), $lte: new Date(window.lastBucket) },
          },
          { _id: 0, path: 1, cells: 1 },
        ).lean()
      : [];
    const cellsByPath = new Map<string, Map<string, number>>();
    for (const doc of cellDocs) {
      const cells = cellsByPath.get(doc.path) ?? new Map<string, number>();
      for (const [cell, clicks] of Object.entries((doc.cells ?? {}) as Record<string, number>))
        cells.set(cell, (cells.get(cell) ?? 0) + clicks);
      cellsByPath.set(doc.path, cells);
    }
    return {
      pages: items.map((row) => ({
        path: row.value,
        clicks: row.events,
        visitors: row.visitors,
        cells: [...(cellsByPath.get(row.value) ?? new Map<string, number>())]
          .map(([cell, clicks]) => {
            const [x, y] = cell.split('_').map(Number);
            return { x: x ?? 0, y: y ?? 0, clicks };
          })
          .sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x)
          .slice(0, 100),
      })),
      pagination,
    };
  }

  async replaySessions(websiteId: string, range: AnalyticsRange, page: Page) {
    const window = windowOf(range, this.now());
    const docs = await this.models.ReplaySession.find({
      websiteId,
      startedAt: { $gte: new Date(window.from) },
    })
      .sort({ startedAt: -1, _id: -1 })
      .skip(page.offset)
      .limit(page.limit + 1)
      .lean();
    const { items, pagination } = paginate(docs, page);
    return {
      sessions: items.map((s) => ({
        id: s.sessionId,
        visitorId: s.visitorId,
        startedAt: iso(s.startedAt),
        lastActivity: iso(s.lastActivity),
        chunks: asGraphQLInt(s.chunks ?? 0),
        bytes: asGraphQLInt(s.bytes ?? 0),
        entryPage: s.entryPath,
        country: s.country ?? null,
        device: s.device ?? null,
        browser: s.browser ?? null,
        os: s.os ?? null,
      })),
      pagination,
    };
  }

  async errorGroups(websiteId: string, range: AnalyticsRange, page: Page) {
    const rows = (await this.breakdownRows(websiteId, 'error', range)).sort(
      (a, b) => b.events - a.events || (a.value < b.value ? -1 : 1),
    );
    const { items, pagination } = paginate(
      rows.slice(page.offset, page.offset + page.limit + 1),
      page,
    );
    const groups = items.length
      ? await this.models.ErrorGroup.find({
          websiteId,
          fingerprint: { $in: items.map((r) => r.value) },
        }).lean()
      : [];
    const byFingerprint = new Map(groups.map((g) => [g.fingerprint, g]));
    return {
      groups: items.flatMap((row) => {
        const group = byFingerprint.get(row.value);
        if (!group) return [];
        return [
          {
            fingerprint: row.value,
            message: group.message,
            stack: group.stack ?? null,
            occurrences: row.events,
            affectedVisitors: row.visitors,
            totalOccurrences: group.count ?? 0,
            firstSeen: iso(group.firstSeen),
            lastSeen: iso(group.lastSeen),
            lastPage: group.lastPath ?? null,
          },
        ];
      }),
      pagination,
    };
  }
}
