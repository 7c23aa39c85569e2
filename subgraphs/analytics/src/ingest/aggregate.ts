import type { CollectedEvent } from '../../../../common/contracts/collected-event';
import { floorDay, floorHour, type Granularity } from './time-buckets';

/** A visit ends after this much inactivity. */
export const SESSION_TIMEOUT_MS = 30 * 60_000;
/** Cap on the per-visitor "already counted" sets; beyond it uniques are under-counted. */
const SEEN_CAP = 500;

export interface SessionState {
  /** When its first page view was (ms); absent in sessions stored before it was kept. */
  startedAt?: number;
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

/**
 * Where an event belongs, as the event-level engine keeps it beside the event: its visitor's fixed
 * dimensions and the visit (session) it happened in. Null visit: the visitor had no page view yet,
 * or its last one was more than the session timeout before.
 */
export interface EventVisit {
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  visit: { startedAt: number; entryPage: string; source: string } | null;
}

export interface BatchWrites {
  stats: StatIncrement[];
  visitors: VisitorState[];
  errors: ErrorGroupWrite[];
  heatmaps: HeatmapWrite[];
  replays: ReplayWrite[];
  /** One per event, in the batch's order. */
  visits: EventVisit[];
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
 * Turns an ordered batch of events into counter increments and new visitor states. Pure: the
 * caller loads the visitors' current states and writes the result with bulkWrite. Increments for
 * the same counter document are merged, so a batch costs one write per distinct document. Every
 * value is counted as itself, however many distinct values a day has (docs/analytics.md, "Exact at
 * any number of values").
 */
export function aggregateBatch(
  events: CollectedEvent[],
  states: Map<string, VisitorState>,
): BatchWrites {
  const batch = new BatchAccumulator();
  for (const event of events) {
    const visitor = touchVisitor(batch, states, event);
    const hour = floorHour(event.ts);
    const day = floorDay(event.ts);
    noteActivity(visitor, event.ts, hour);
    const before = event.type === 'pageview' ? null : visitOf(visitor, event.ts);
    switch (event.type) {
      case 'pageview':
        countPageview(batch, event, visitor, hour, day);
        break;
      case 'event':
        countCustomEvent(batch, event, visitor, hour, day);
        break;
      case 'click':
        countClick(batch, event, visitor, day);
        break;
      case 'error':
        countError(batch, event, visitor, day);
        break;
      case 'replay':
        recordReplay(batch, event, visitor);
        break;
    }
    batch.visits.push({
      country: visitor.country,
      device: visitor.device,
      browser: visitor.browser,
      os: visitor.os,
      visit: event.type === 'pageview' ? visitOf(visitor, event.ts) : before,
    });
  }
  return batch.writes();
}

/** The visit an event at `ts` happens in: the visitor's current one, unless it has timed out. */
function visitOf(visitor: VisitorState, ts: number): EventVisit['visit'] {
  const { session, lastPageviewAt } = visitor;
  if (!session || !lastPageviewAt || ts - lastPageviewAt.getTime() > SESSION_TIMEOUT_MS)
    return null;
  return {
    startedAt: session.startedAt ?? session.startHour.getTime(),
    entryPage: session.entryPath,
    source: session.source,
  };
}

type EventOf<T extends CollectedEvent['type']> = Extract<CollectedEvent, { type: T }>;

/** The writes of one batch as aggregateBatch gathers them, merged per target document. */
class BatchAccumulator {
  private readonly stats = new Map<string, StatIncrement>();
  readonly errors = new Map<string, ErrorGroupWrite>();
  readonly heatmaps = new Map<string, HeatmapWrite>();
  readonly replays: ReplayWrite[] = [];
  readonly touched = new Map<string, VisitorState>();
  readonly visits: EventVisit[] = [];

  add(
    websiteId: string,
    granularity: Granularity,
    bucket: number,
    dim: string,
    value: string,
    counter: Counter,
    amount: number,
  ): void {
    const key = { websiteId, granularity, bucket, dim, value };
    const id = statKeyString(key);
    let entry = this.stats.get(id);
    if (!entry) {
      entry = { ...key, inc: {} };
      this.stats.set(id, entry);
    }
    entry.inc[counter] = (entry.inc[counter] ?? 0) + amount;
  }

  writes(): BatchWrites {
    return {
      stats: [...this.stats.values()],
      visitors: [...this.touched.values()],
      errors: [...this.errors.values()],
      heatmaps: [...this.heatmaps.values()],
      replays: this.replays,
      visits: this.visits,
    };
  }
}

/** The event's visitor (created when new, in the current record shape), among the batch's writes. */
function touchVisitor(
  batch: BatchAccumulator,
  states: Map<string, VisitorState>,
  event: CollectedEvent,
): VisitorState {
  const key = visitorKey(event.websiteId, event.visitorId);
  let visitor = states.get(key);
  if (!visitor) {
    visitor = newVisitor(event);
    states.set(key, visitor);
  }
  batch.touched.set(key, visitor);
  // Stored before lastPageviewAt existed, when lastSeen moved only on page views: that was it.
  if (visitor.lastPageviewAt === undefined)
    visitor.lastPageviewAt = visitor.pageviews > 0 ? visitor.lastSeen : null;
  return visitor;
}

/** Moves lastSeen up to `ts`, and starts a new hour's "already counted" marks. */
function noteActivity(visitor: VisitorState, ts: number, hour: number): void {
  visitor.lastSeen = new Date(Math.max(visitor.lastSeen.getTime(), ts));
  if (visitor.seenHourBucket?.getTime() !== hour) {
    visitor.seenHour = [];
    visitor.seenHourBucket = new Date(hour);
  }
}

function countPageview(
  batch: BatchAccumulator,
  event: EventOf<'pageview'>,
  visitor: VisitorState,
  hour: number,
  day: number,
): void {
  const previous = visitor.lastPageviewAt?.getTime() ?? null;
  const active =
    visitor.session !== null && previous !== null && event.ts - previous <= SESSION_TIMEOUT_MS;
  const elapsedMs = active ? Math.max(0, event.ts - previous) : 0;
  if (!active) startSession(visitor, event, hour, day);
  const session = visitor.session as SessionState;
  notePageview(visitor, session, event, previous);
  const fixed = fixedDimensions(visitor);
  countPageviewIn(batch, event, visitor, session, fixed, 'hour', hour);
  countPageviewIn(batch, event, visitor, session, fixed, 'day', day);
  countSession(batch, event.websiteId, session, fixed, active, elapsedMs);
}

function startSession(
  visitor: VisitorState,
  event: EventOf<'pageview'>,
  hour: number,
  day: number,
): void {
  visitor.sessions += 1;
  visitor.session = {
    startedAt: event.ts,
    startHour: new Date(hour),
    startDay: new Date(day),
    entryPath: event.path,
    source: event.source,
    pageviews: 0,
  };
}

function notePageview(
  visitor: VisitorState,
  session: SessionState,
  event: EventOf<'pageview'>,
  previous: number | null,
): void {
  session.pageviews += 1;
  visitor.pageviews += 1;
  visitor.lastPageviewAt = new Date(Math.max(previous ?? event.ts, event.ts));
  visitor.lastPath = event.path;
  visitor.entryPath ??= event.path;
}

/** The page view and, the first time in the bucket, its visitor: in total and per dimension. */
function countPageviewIn(
  batch: BatchAccumulator,
  event: EventOf<'pageview'>,
  visitor: VisitorState,
  session: SessionState,
  fixed: Array<[string, string]>,
  granularity: Granularity,
  bucket: number,
): void {
  const page = event.path;
  const source = session.source;
  const counted: Array<[string, string, string]> = [
    ['', '', ''],
    ...fixed.map(([dim, value]): [string, string, string] => [dim, value, dim]),
    ['page', page, `page:${page}`],
    ['source', source, `source:${source}`],
  ];
  for (const [dim, value, mark] of counted) {
    batch.add(event.websiteId, granularity, bucket, dim, value, 'pageviews', 1);
    if (firstTime(visitor, granularity, mark))
      batch.add(event.websiteId, granularity, bucket, dim, value, 'visitors', 1);
  }
}

/**
 * A new session counts as a session and a bounce; a continued one adds its duration and, at its
 * second page view, takes the bounce back. Both in the buckets where the session started.
 */
function countSession(
  batch: BatchAccumulator,
  websiteId: string,
  session: SessionState,
  fixed: Array<[string, string]>,
  active: boolean,
  elapsedMs: number,
): void {
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
    for (const [dim, value] of sessionDims) {
      if (!active) {
        batch.add(websiteId, granularity, bucket, dim, value, 'sessions', 1);
        batch.add(websiteId, granularity, bucket, dim, value, 'bounces', 1);
      } else {
        if (elapsedMs > 0)
          batch.add(websiteId, granularity, bucket, dim, value, 'duration', elapsedMs);
        if (session.pageviews === 2)
          batch.add(websiteId, granularity, bucket, dim, value, 'bounces', -1);
      }
    }
  }
}

function countCustomEvent(
  batch: BatchAccumulator,
  event: EventOf<'event'>,
  visitor: VisitorState,
  hour: number,
  day: number,
): void {
  // Totals in hour buckets too: the 24h range reads hours.
  batch.add(event.websiteId, 'hour', hour, '', '', 'events', 1);
  batch.add(event.websiteId, 'day', day, '', '', 'events', 1);
  countInDay(batch, visitor, event.websiteId, day, 'event', event.name);
}

function countClick(
  batch: BatchAccumulator,
  event: EventOf<'click'>,
  visitor: VisitorState,
  day: number,
): void {
  countInDay(batch, visitor, event.websiteId, day, 'click', event.path);
  addToHeatmap(batch, event, day);
}

function countError(
  batch: BatchAccumulator,
  event: EventOf<'error'>,
  visitor: VisitorState,
  day: number,
): void {
  countInDay(batch, visitor, event.websiteId, day, 'error', event.fingerprint);
  addToErrorGroup(batch, event, day);
}

/** One event of `value` in the day's counter of `dim`, and its visitor the first time that day. */
function countInDay(
  batch: BatchAccumulator,
  visitor: VisitorState,
  websiteId: string,
  day: number,
  dim: string,
  value: string,
): void {
  batch.add(websiteId, 'day', day, dim, value, 'events', 1);
  if (firstTime(visitor, 'day', `${dim}:${value}`))
    batch.add(websiteId, 'day', day, dim, value, 'visitors', 1);
}

function addToHeatmap(batch: BatchAccumulator, event: EventOf<'click'>, day: number): void {
  const { path } = event;
  const id = `${event.websiteId}|${path}|${day}`;
  let heatmap = batch.heatmaps.get(id);
  if (!heatmap) {
    heatmap = { websiteId: event.websiteId, path, day, clicks: 0, cells: {} };
    batch.heatmaps.set(id, heatmap);
  }
  heatmap.clicks += 1;
  const cell = heatmapCell(event.x, event.y, event.viewportWidth);
  heatmap.cells[cell] = (heatmap.cells[cell] ?? 0) + 1;
}

function addToErrorGroup(batch: BatchAccumulator, event: EventOf<'error'>, day: number): void {
  const { fingerprint } = event;
  const id = `${event.websiteId}|${day}|${fingerprint}`;
  const group = batch.errors.get(id);
  if (group) {
    group.count += 1;
    if (event.ts >= group.lastSeen) group.path = event.path;
    group.firstSeen = Math.min(group.firstSeen, event.ts);
    group.lastSeen = Math.max(group.lastSeen, event.ts);
    return;
  }
  batch.errors.set(id, {
    websiteId: event.websiteId,
    day,
    fingerprint,
    message: event.message,
    stack: event.stack,
    path: event.path,
    count: 1,
    firstSeen: event.ts,
    lastSeen: event.ts,
  });
}

function recordReplay(
  batch: BatchAccumulator,
  event: EventOf<'replay'>,
  visitor: VisitorState,
): void {
  batch.replays.push({
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

function firstTime(visitor: VisitorState, granularity: Granularity, mark: string): boolean {
  return markSeen(granularity === 'hour' ? visitor.seenHour : visitor.seenDay, mark);
}

function markSeen(seen: string[], mark: string): boolean {
  if (seen.includes(mark)) return false;
  if (seen.length >= SEEN_CAP) return false;
  seen.push(mark);
  return true;
}
