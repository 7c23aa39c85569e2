import { DAY_MS } from '../ingest/time-buckets';
import { addInto, rates, zero, type Family, type Vector } from '../store/counters';
import { mergeErrorMeta, type ErrorMeta } from '../store/error-meta';
import { windowOf, type AnalyticsRange } from './range';
import { todayOf, type ReadModel } from './read-model';

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

export interface Page {
  limit: number;
  offset: number;
}
export interface Pagination extends Page {
  hasMore: boolean;
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

/** `limit + 1` rows were fetched: the extra one only says whether another page exists. */
export function paginate<T>(rows: T[], page: Page): { items: T[]; pagination: Pagination } {
  return {
    items: rows.slice(0, page.limit),
    pagination: { ...page, hasMore: rows.length > page.limit },
  };
}

export function breakdownRow([value, v]: [string, Vector]): BreakdownRow {
  return {
    value,
    pageviews: v[0],
    visitors: v[1],
    sessions: v[2],
    events: v[5],
    ...rates(v),
  };
}

/** The analytics reads (services/read-model.ts): a read costs its range's values, not the history. */
export class StatsService {
  constructor(
    private readonly model: ReadModel,
    /** Visitor records older than this many days are gone (retention). */
    private readonly retentionDays: number,
    private readonly now: () => number = Date.now,
  ) {}

  async overview(websiteId: string, range: AnalyticsRange) {
    const window = windowOf(range, this.now());
    const { buckets, uniqueVisitors } = await this.model.consistent(websiteId, (index, q) =>
      this.model.series(index, q, window),
    );
    const total = zero();
    for (const [, vector] of buckets) addInto(total, vector);
    return {
      range,
      granularity: window.granularity,
      from: iso(window.from),
      to: iso(window.to),
      summary: {
        totalVisitors: total[2],
        pageviews: total[0],
        uniqueVisitors: uniqueVisitors ?? total[1],
        sessions: total[2],
        ...rates(total),
      },
      series: buckets.map(([start, v]) => ({
        date: iso(start),
        pageviews: v[0],
        visitors: v[1],
        sessions: v[2],
        bounces: v[3],
      })),
    };
  }

  async visitors(websiteId: string, range: AnalyticsRange, page: Page) {
    const now = this.now();
    const window = windowOf(range, now);
    const kept = now - this.retentionDays * DAY_MS;
    const slice = { start: page.offset, end: page.offset + page.limit + 1 };
    const records = await this.model.visitorRecords(websiteId, window, kept, slice);
    const { items, pagination } = paginate(records, page);
    return {
      visitors: items.map((v) => ({
        id: v.visitorId,
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

  /** Rows of one family over a range in its order, the first `count`. */
  private ranked(websiteId: string, family: Family, range: AnalyticsRange, count: number) {
    const now = this.now();
    const window = windowOf(range, now);
    return this.model.consistent(websiteId, (index, q) => {
      const rows = this.model.rangeRows(index, q, family, window, todayOf(now));
      return async () => (await rows()).top(count);
    });
  }

  async breakdown(websiteId: string, dimension: Dimension, range: AnalyticsRange, page: Page) {
    const rows = await this.ranked(
      websiteId,
      DIMENSIONS[dimension],
      range,
      page.offset + page.limit + 1,
    );
    const { items, pagination } = paginate(rows.slice(page.offset).map(breakdownRow), page);
    return { dimension, rows: items, pagination };
  }

  async technology(websiteId: string, range: AnalyticsRange, limit: number) {
    const [devices, browsers, operatingSystems] = await Promise.all(
      (['device', 'browser', 'os'] as const).map(async (family) =>
        (await this.ranked(websiteId, family, range, limit)).map(breakdownRow),
      ),
    );
    return { devices: devices!, browsers: browsers!, operatingSystems: operatingSystems! };
  }

  async heatmapPages(websiteId: string, range: AnalyticsRange, page: Page) {
    const now = this.now();
    const window = windowOf(range, now);
    const { rows, cells } = await this.model.consistent(websiteId, (index, q) => {
      const clicks = this.model.rangeRows(index, q, 'click', window, todayOf(now));
      const cellsOf = this.model.rangeCells(index, q, window, todayOf(now));
      return async () => {
        const ranked = (await clicks()).top(page.offset + page.limit + 1).slice(page.offset);
        return { rows: ranked, cells: await cellsOf() };
      };
    });
    const { items, pagination } = paginate(rows, page);
    return {
      pages: items.map(([path, v]) => ({
        path,
        clicks: v[5],
        visitors: v[1],
        cells: cells.top(path),
      })),
      pagination,
    };
  }

  async replaySessions(websiteId: string, range: AnalyticsRange, page: Page) {
    const window = windowOf(range, this.now());
    const slice = { start: page.offset, end: page.offset + page.limit + 1 };
    const sessions = await this.model.replayRecords(websiteId, window, slice);
    const { items, pagination } = paginate(sessions, page);
    return {
      sessions: items.map((s) => ({
        id: s.sessionId,
        visitorId: s.visitorId,
        startedAt: iso(s.startedAt),
        lastActivity: iso(s.lastActivity),
        chunks: asGraphQLInt(s.chunks),
        bytes: asGraphQLInt(s.bytes),
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
    const now = this.now();
    const window = windowOf(range, now);
    const { rows, groups } = await this.model.consistent(websiteId, (index, q) => {
      const errors = this.model.rangeRows(index, q, 'error', window, todayOf(now));
      // All time: the index holds the sealed days, every hot day adds what came after.
      const hot = [...index.days].filter(([, entry]) => entry.hot).map(([day]) => q.errors(day));
      return async () => {
        const groups = new Map(index.errors);
        for (const read of hot)
          for (const [fingerprint, meta] of read())
            groups.set(fingerprint, mergeErrorMeta(groups.get(fingerprint), meta));
        const ranked = (await errors()).top(page.offset + page.limit + 1).slice(page.offset);
        return { rows: ranked, groups };
      };
    });
    const { items, pagination } = paginate(rows, page);
    return {
      groups: items.flatMap(([fingerprint, v]) => {
        const group: ErrorMeta | undefined = groups.get(fingerprint);
        if (!group) return [];
        return [
          {
            fingerprint,
            message: group.message,
            stack: group.stack ?? null,
            occurrences: v[5],
            affectedVisitors: v[1],
            totalOccurrences: group.count,
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
