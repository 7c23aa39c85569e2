import type { CollectedEvent } from '../../../../common/collected-event';
import { floorDay, floorHour, type Granularity } from './time-buckets';

/** A visit ends after this much inactivity. */
export const SESSION_TIMEOUT_MS = 30 * 60_000;
/** Cap on the per-visitor "already counted" sets; beyond it uniques are under-counted. */
const SEEN_CAP = 500;

export interface SessionState {
  startHour: Date;
  startDay: Date;
  entryPath: string;
  source: string;
  pageviews: number;
}

/** What the write path keeps per visitor (one visitor = one website, one day's visitor id). */
export interface VisitorState {
  websiteId: string;
  visitorId: string;
  firstSeen: Date;
  /** The visitor's latest event of any kind. */
  lastSeen: Date;
  /**
   * The latest page view: sessions time out and durations run from it, and the 24h uniques count
   * by it. Null until the first page view. Absent from records stored before it existed (whose
   * lastSeen moved only on page views); filled in from lastSeen when such a record is next touched.
   */
  lastPageviewAt?: Date | null;
  pageviews: number;
  sessions: number;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  screenWidth: number | null;
  screenHeight: number | null;
  entryPath: string | null;
  lastPath: string | null;
  session: SessionState | null;
  seenDay: string[];
  seenHour: string[];
  seenHourBucket: Date | null;
}

/** `duration` is in milliseconds, so sums stay exact integers wherever they are added up. */
export type Counter = 'pageviews' | 'visitors' | 'sessions' | 'bounces' | 'duration' | 'events';

export interface StatKey {
  websiteId: string;
  granularity: Granularity;
  bucket: number;
  dim: string;
  value: string;
}

export interface StatIncrement extends StatKey {
  inc: Partial<Record<Counter, number>>;
}

/** What one UTC day adds to an error group (per website and fingerprint). */
export interface ErrorGroupWrite {
  websiteId: string;
  day: number;
  fingerprint: string;
  message: string;
  stack: string | null;
  /** Path of the latest error of the group in the batch (by event time). */
  path: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface HeatmapWrite {
  websiteId: string;
  path: string;
  day: number;
  clicks: number;
  cells: Record<string, number>;
}

export interface ReplayWrite {
  websiteId: string;
  sessionId: string;
  sequence: number;
  ts: number;
  /** UTF-8 bytes of the chunk's data. */
  bytes: number;
  visitor: Pick<VisitorState, 'visitorId' | 'country' | 'device' | 'browser' | 'os'>;
  path: string;
}

export interface BatchWrites {
  stats: StatIncrement[];
  visitors: VisitorState[];
  errors: ErrorGroupWrite[];
  heatmaps: HeatmapWrite[];
  replays: ReplayWrite[];
}

/**
 * The value counted instead of one that did not fit under the cap on distinct values per website,
 * dimension and UTC day (see Admit).
 */
export const OTHER_VALUE = '(other)';
/** What the error group of OTHER_VALUE says, since it gathers many different errors. */
export const OTHER_ERRORS_MESSAGE = 'Errors beyond the daily limit of distinct fingerprints';

/**
 * Decides what a counter of `dim` on the UTC day starting at `day` (ms) counts `value` as: the
 * value itself, or OTHER_VALUE once the website has its cap of distinct values for that dimension
 * and day. Collection is public, so without it anyone could make breakdowns and queries read
 * unboundedly many documents. Hour buckets follow their day's decision. It must answer the same
 * for the same question every time (a retried batch must count the same way).
 */
export type Admit = (websiteId: string, dim: string, day: number, value: string) => string;
/** Admits every value (no cap): benchmarks and tests that build counters directly. */
export const admitAll: Admit = (_websiteId, _dim, _day, value) => value;

export interface AdmissionRequest {
  websiteId: string;
  dim: string;
  day: number;
  value: string;
}

export const visitorKey = (websiteId: string, visitorId: string) => `${websiteId}|${visitorId}`;
const statKeyString = (k: StatKey) =>
  `${k.websiteId}|${k.granularity}|${k.bucket}|${k.dim}|${k.value}`;
/**
 * The last row of the heatmap grid: clicks below 20,000 px land in it. One page's day is one
 * document of at most 100 × 401 cells (under 1 MB); without a bound, clicks at made-up depths
 * could grow it past MongoDB's 16 MB document limit and every later batch with a click on that
 * page would fail.
 */
export const LAST_HEATMAP_ROW = 400;

/** Grid cell of a click: x in whole percent of the viewport width, y in 50px rows of the document. */
export const heatmapCell = (x: number, y: number, viewportWidth: number) =>
  `${Math.min(99, Math.max(0, Math.floor((x * 100) / Math.max(1, viewportWidth))))}_${Math.min(LAST_HEATMAP_ROW, Math.max(0, Math.floor(y / 50)))}`;

/**
 * The questions aggregateBatch(events, states, admit) asks `admit`, each once, in the order first
 * asked (so deciding them in this order is deterministic). Which questions are asked never depends
 * on the answers: sessions keep their real entry page and source, and only the counter values and
 * the visitors' "already counted" marks are folded. `states` is left untouched.
 */
export function admissionRequests(
  events: CollectedEvent[],
  states: Map<string, VisitorState>,
): AdmissionRequest[] {
  const asked = new Map<string, AdmissionRequest>();
  const copies = new Map([...states].map(([key, state]) => [key, structuredClone(state)]));
  aggregateBatch(events, copies, (websiteId, dim, day, value) => {
    const key = admissionKey(websiteId, dim, day, value);
    if (!asked.has(key)) asked.set(key, { websiteId, dim, day, value });
    return value;
  });
  return [...asked.values()];
}

/** One string per admission question (values may contain any character). */
export const admissionKey = (websiteId: string, dim: string, day: number, value: string) =>
  JSON.stringify([websiteId, dim, day, value]);

/**
 * Turns an ordered batch of events into counter increments and new visitor states. Pure: the
 * caller loads the visitors' current states and writes the result with bulkWrite. Increments for
 * the same counter document are merged, so a batch costs one write per distinct document. Every
 * dimension value of a counter, heatmap page and error group passes through `admit`; visitor
 * states, replays and the website totals keep the real values.
 */
export function aggregateBatch(
  events: CollectedEvent[],
  states: Map<string, VisitorState>,
  admit: Admit = admitAll,
): BatchWrites {
  const stats = new Map<string, StatIncrement>();
  const errors = new Map<string, ErrorGroupWrite>();
  const heatmaps = new Map<string, HeatmapWrite>();
  const replays: ReplayWrite[] = [];
  const touched = new Map<string, VisitorState>();

  const add = (
    websiteId: string,
    granularity: Granularity,
    bucket: number,
    dim: string,
    value: string,
    counter: Counter,
    amount: number,
  ) => {
    const key = { websiteId, granularity, bucket, dim, value };
    const id = statKeyString(key);
    let entry = stats.get(id);
    if (!entry) {
      entry = { ...key, inc: {} };
      stats.set(id, entry);
    }
    entry.inc[counter] = (entry.inc[counter] ?? 0) + amount;
  };

  for (const event of events) {
    const key = visitorKey(event.websiteId, event.visitorId);
    let visitor = states.get(key);
    if (!visitor) {
      visitor = newVisitor(event);
      states.set(key, visitor);
    }
    touched.set(key, visitor);
    // Stored before lastPageviewAt existed, when lastSeen moved only on page views: that was it.
    if (visitor.lastPageviewAt === undefined)
      visitor.lastPageviewAt = visitor.pageviews > 0 ? visitor.lastSeen : null;
    visitor.lastSeen = new Date(Math.max(visitor.lastSeen.getTime(), event.ts));
    const hour = floorHour(event.ts);
    const day = floorDay(event.ts);
    if (visitor.seenHourBucket?.getTime() !== hour) {
      visitor.seenHour = [];
      visitor.seenHourBucket = new Date(hour);
    }
    const firstTime = (granularity: Granularity, mark: string) =>
      markSeen(granularity === 'hour' ? visitor.seenHour : visitor.seenDay, mark);
    /** The value a counter of `dim` in `bucket` counts `value` as (its day decides). */
    const fold = (dim: string, bucket: number, value: string) =>
      admit(event.websiteId, dim, floorDay(bucket), value);
    const buckets: Array<[Granularity, number]> = [
      ['hour', hour],
      ['day', day],
    ];

    switch (event.type) {
      case 'pageview': {
        const previous = visitor.lastPageviewAt?.getTime() ?? null;
        const active =
          visitor.session !== null &&
          previous !== null &&
          event.ts - previous <= SESSION_TIMEOUT_MS;
        const elapsedMs = active ? Math.max(0, event.ts - previous) : 0;
        if (!active) {
          visitor.sessions += 1;
          visitor.session = {
            startHour: new Date(hour),
            startDay: new Date(day),
            entryPath: event.path,
            source: event.source,
            pageviews: 0,
          };
        }
        const session = visitor.session as SessionState;
        session.pageviews += 1;
        visitor.pageviews += 1;
        visitor.lastPageviewAt = new Date(Math.max(previous ?? event.ts, event.ts));
        visitor.lastPath = event.path;
        visitor.entryPath ??= event.path;

        const fixed = fixedDimensions(visitor);
        for (const [granularity, bucket] of buckets) {
          const page = fold('page', bucket, event.path);
          const source = fold('source', bucket, session.source);
          const counted: Array<[string, string, string]> = [
            ['', '', ''],
            ...fixed.map(([dim, value]): [string, string, string] => [
              dim,
              fold(dim, bucket, value),
              dim,
            ]),
            ['page', page, `page:${page}`],
            ['source', source, `source:${source}`],
          ];
          for (const [dim, value, mark] of counted) {
            add(event.websiteId, granularity, bucket, dim, value, 'pageviews', 1);
            if (firstTime(granularity, mark))
              add(event.websiteId, granularity, bucket, dim, value, 'visitors', 1);
          }
        }
        // Sessions, bounces and durations belong to the buckets where the session started.
        const sessionDims: Array<[string, string]> = [
          ['', ''],
          ...fixed,
          ['page', session.entryPath],
          ['source', session.source],
        ];
        const sessionBuckets: Array<[Granularity, number]> = [
          ['hour', session.startHour.getTime()],
          ['day', session.startDay.getTime()],
        ];
        for (const [granularity, bucket] of sessionBuckets) {
          for (const [dim, real] of sessionDims) {
            const value = dim === '' ? '' : fold(dim, bucket, real);
            if (!active) {
              add(event.websiteId, granularity, bucket, dim, value, 'sessions', 1);
              add(event.websiteId, granularity, bucket, dim, value, 'bounces', 1);
            } else {
              if (elapsedMs > 0)
                add(event.websiteId, granularity, bucket, dim, value, 'duration', elapsedMs);
              if (session.pageviews === 2)
                add(event.websiteId, granularity, bucket, dim, value, 'bounces', -1);
            }
          }
        }
        break;
      }
      case 'event': {
        // Totals in hour buckets too: the 24h range reads hours.
        add(event.websiteId, 'hour', hour, '', '', 'events', 1);
        add(event.websiteId, 'day', day, '', '', 'events', 1);
        const name = fold('event', day, event.name);
        add(event.websiteId, 'day', day, 'event', name, 'events', 1);
        if (firstTime('day', `event:${name}`))
          add(event.websiteId, 'day', day, 'event', name, 'visitors', 1);
        break;
      }
      case 'click': {
        const path = fold('click', day, event.path);
        add(event.websiteId, 'day', day, 'click', path, 'events', 1);
        if (firstTime('day', `click:${path}`))
          add(event.websiteId, 'day', day, 'click', path, 'visitors', 1);
        const id = `${event.websiteId}|${path}|${day}`;
        let heatmap = heatmaps.get(id);
        if (!heatmap) {
          heatmap = { websiteId: event.websiteId, path, day, clicks: 0, cells: {} };
          heatmaps.set(id, heatmap);
        }
        heatmap.clicks += 1;
        const cell = heatmapCell(event.x, event.y, event.viewportWidth);
        heatmap.cells[cell] = (heatmap.cells[cell] ?? 0) + 1;
        break;
      }
      case 'error': {
        const fingerprint = fold('error', day, event.fingerprint);
        const folded = fingerprint !== event.fingerprint;
        add(event.websiteId, 'day', day, 'error', fingerprint, 'events', 1);
        if (firstTime('day', `error:${fingerprint}`))
          add(event.websiteId, 'day', day, 'error', fingerprint, 'visitors', 1);
        const id = `${event.websiteId}|${day}|${fingerprint}`;
        const group = errors.get(id);
        if (group) {
          group.count += 1;
          if (event.ts >= group.lastSeen) group.path = event.path;
          group.firstSeen = Math.min(group.firstSeen, event.ts);
          group.lastSeen = Math.max(group.lastSeen, event.ts);
        } else {
          errors.set(id, {
            websiteId: event.websiteId,
            day,
            fingerprint,
            message: folded ? OTHER_ERRORS_MESSAGE : event.message,
            stack: folded ? null : event.stack,
            path: event.path,
            count: 1,
            firstSeen: event.ts,
            lastSeen: event.ts,
          });
        }
        break;
      }
      case 'replay': {
        replays.push({
          websiteId: event.websiteId,
          sessionId: event.sessionId,
          sequence: event.sequence,
          ts: event.ts,
          // A raw event read back from storage (a rebuild) carries the size instead of the data.
          bytes: (event as { bytes?: number }).bytes ?? Buffer.byteLength(event.data),
          path: event.path,
          visitor: {
            visitorId: visitor.visitorId,
            country: visitor.country,
            device: visitor.device,
            browser: visitor.browser,
            os: visitor.os,
          },
        });
        break;
      }
    }
  }
  return {
    stats: [...stats.values()],
    visitors: [...touched.values()],
    errors: [...errors.values()],
    heatmaps: [...heatmaps.values()],
    replays,
  };
}

function newVisitor(event: CollectedEvent): VisitorState {
  return {
    websiteId: event.websiteId,
    visitorId: event.visitorId,
    firstSeen: new Date(event.ts),
    lastSeen: new Date(event.ts),
    lastPageviewAt: null,
    pageviews: 0,
    sessions: 0,
    country: event.country,
    device: event.device,
    browser: event.browser,
    os: event.os,
    screenWidth: event.screenWidth,
    screenHeight: event.screenHeight,
    entryPath: null,
    lastPath: null,
    session: null,
    seenDay: [],
    seenHour: [],
    seenHourBucket: null,
  };
}

/** Dimensions that are fixed for a visitor: its id hashes the IP and user agent they derive from. */
function fixedDimensions(visitor: VisitorState): Array<[string, string]> {
  return [
    ['country', visitor.country ?? 'unknown'],
    ['device', visitor.device ?? 'unknown'],
    ['browser', visitor.browser ?? 'unknown'],
    ['os', visitor.os ?? 'unknown'],
  ];
}

function markSeen(seen: string[], mark: string): boolean {
  if (seen.includes(mark)) return false;
  if (seen.length >= SEEN_CAP) return false;
  seen.push(mark);
  return true;
}
