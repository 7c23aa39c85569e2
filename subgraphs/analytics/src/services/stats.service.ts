import type { VisitorState } from '../ingest/aggregate';
import { DAY_MS } from '../ingest/time-buckets';
import { addInto, rates, zero, type Family, type Vector } from '../store/counters';
import { mergeErrorMeta, type ErrorMeta } from '../store/error-meta';
import { visitorStates } from '../store/hot-query';
import { dayStartOf, daysBetween, type DayKey } from '../store/hot-keys';
import { VISITOR_CHUNK } from '../store/snapshots';
import { byFirstSeen, newestFirst, type ReplayState } from '../store/visitor-codec';
import { asDays, windowOf, type AnalyticsRange } from './range';
import { daysOfHours, todayOf, type ReadModel } from './read-model';

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

/** A list made of per-day segments, read one slice at a time. */
interface Segment<T> {
  count: number;
  read(start: number, end: number): Promise<T[]>;
}

/** Items `start`..`end` of the segments in order; segments past `end` are never made. */
async function sliceSegments<T>(
  segments: ReadonlyArray<Segment<T> | (() => Segment<T> | Promise<Segment<T>>)>,
  start: number,
  end: number,
) {
  const items: T[] = [];
  let offset = 0;
  for (const made of segments) {
    const segment = typeof made === 'function' ? await made() : made;
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + segment.count);
    if (from < to) items.push(...(await segment.read(from - offset, to - offset)));
    offset += segment.count;
    if (offset >= end) break;
  }
  return items;
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
    const { redis, keys, snapshots } = this.model;
    const states = (day: DayKey, ids: string[]) => visitorStates(redis, keys, websiteId, day, ids);
    const records = await this.model.consistent(websiteId, (index, q) => {
      if (window.granularity === 'hour') {
        // Yesterday's visitors last seen in the window, then all of today's.
        const [yesterday, today] = daysOfHours(window);
        const seen = yesterday && today ? q.visitorsSeenSince(yesterday, window.from) : null;
        const last = today ?? yesterday!;
        const todays = q.visitorCount(last);
        return async () => {
          const segments: Segment<VisitorState>[] = [];
          if (seen) {
            const earlier = (await states(yesterday!, seen())).sort(byFirstSeen);
            segments.push({ count: earlier.length, read: async (s, e) => earlier.slice(s, e) });
          }
          segments.push({
            count: todays(),
            read: async (s, e) =>
              states(last, await redis.zrange(keys.visitorsByFirstSeen(websiteId, last), s, e - 1)),
          });
          return sliceSegments(segments, page.offset, page.offset + page.limit + 1);
        };
      }
      const days = daysBetween(window.from, window.lastBucket).filter(
        (day) => dayStartOf(day) + DAY_MS > kept,
      );
      const segments = days.map((day): (() => Segment<VisitorState>) => {
        const entry = index.days.get(day);
        if (entry?.hot) {
          const count = q.visitorCount(day);
          return () => ({
            count: count(),
            read: async (s, e) =>
              states(day, await redis.zrange(keys.visitorsByFirstSeen(websiteId, day), s, e - 1)),
          });
        }
        const snapshot = entry?.snapshot;
        return () => ({
          count: snapshot ? entry.visitors : 0,
          read: async (s, e) => {
            const chunks: VisitorState[] = [];
            for (let k = Math.floor(s / VISITOR_CHUNK); k * VISITOR_CHUNK < e; k += 1)
              chunks.push(...(await snapshots.visitorChunk(snapshot!, k)));
            const base = Math.floor(s / VISITOR_CHUNK) * VISITOR_CHUNK;
            return chunks.slice(s - base, e - base);
          },
        });
      });
      return () => sliceSegments(segments, page.offset, page.offset + page.limit + 1);
    });
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
    const { snapshots } = this.model;
    const sessions = await this.model.consistent(websiteId, (index, q) => {
      const days = [...daysBetween(asDays(window).from, window.lastBucket)].reverse();
      const segments = days.map((day, i): (() => Promise<Segment<ReplayState>>) => {
        const entry = index.days.get(day);
        // The first day of a 24-hour window: only the sessions that started inside it.
        const since =
          window.granularity === 'hour' && i === days.length - 1 && days.length > 1
            ? window.from
            : null;
        const inWindow = (list: ReplayState[]) =>
          since === null ? list : list.filter((r) => r.startedAt >= since);
        if (entry?.hot) {
          const read = q.replays(day);
          return async () => {
            const list = inWindow([...read().values()].sort(newestFirst));
            return { count: list.length, read: async (s, e) => list.slice(s, e) };
          };
        }
        const snapshot = entry?.snapshot;
        return async () => {
          if (!snapshot) return { count: 0, read: async () => [] };
          if (since === null)
            return {
              count: entry.replays,
              read: async (s, e) => (await snapshots.read(snapshot)).replays.slice(s, e),
            };
          const list = inWindow((await snapshots.read(snapshot)).replays);
          return { count: list.length, read: async (s, e) => list.slice(s, e) };
        };
      });
      return () => sliceSegments(segments, page.offset, page.offset + page.limit + 1);
    });
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
