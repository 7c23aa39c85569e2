/**
 * A brute-force recount of every analytics figure from the raw, enriched events: the oracle of
 * test/integration/analytics-at-size.test.ts. Written from the documented semantics
 * (docs/analytics.md, the OpenAPI document) as plain loops over the events, independently of the
 * analytics subgraph: it shares only the event type and the bucket arithmetic.
 *
 * Every function takes the events in the order they were appended to the stream and returns the
 * `data` a route should answer (in REST's snake_case), given the time `now` of the request.
 *
 * Orders the documents leave open among equal rows are those of the analytics subgraph: heatmap
 * cells by row then column, heatmap pages by path, error groups by fingerprint, query rows by the
 * dimension value; strings compare by UTF-16 code units throughout.
 */
import type { CollectedEvent } from '../../common/contracts/collected-event';
import {
  DAY_MS,
  HOUR_MS,
  floorDay,
  floorHour,
} from '../../subgraphs/analytics/src/ingest/time-buckets';

export const RANGES = ['24h', '7d', '30d', '90d', '1y'] as const;
export type Range = (typeof RANGES)[number];
export type BreakdownDimension = 'country' | 'page' | 'source' | 'device' | 'browser' | 'os';
export type QueryDimension = BreakdownDimension | 'event';
export type QueryMetric =
  'visitors' | 'pageviews' | 'sessions' | 'bounce_rate' | 'visit_duration' | 'events';

/** A visit ends after 30 minutes without a page view (a gap of exactly 30 minutes goes on). */
const SESSION_TIMEOUT_MS = 30 * 60 * 1000;
const DAYS_OF: Record<Exclude<Range, '24h'>, number> = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 };

type Pageview = Extract<CollectedEvent, { type: 'pageview' }>;
type Click = Extract<CollectedEvent, { type: 'click' }>;

interface Window {
  granularity: 'hour' | 'day';
  /** Start of every bucket, oldest first. */
  buckets: number[];
  from: number;
  /** Exclusive. */
  to: number;
}

function windowOver(granularity: 'hour' | 'day', first: number, count: number): Window {
  const step = granularity === 'hour' ? HOUR_MS : DAY_MS;
  const buckets = Array.from({ length: count }, (_, i) => first + i * step);
  return { granularity, buckets, from: first, to: first + count * step };
}

/** 24h: the 24 hours ending with the current one; else whole UTC days including today. */
export function rangeWindow(range: Range, now: number): Window {
  if (range === '24h') return windowOver('hour', floorHour(now) - 23 * HOUR_MS, 24);
  const days = DAYS_OF[range];
  return windowOver('day', floorDay(now) - (days - 1) * DAY_MS, days);
}

/** The UTC days a window touches: how data kept per day only is read over 24h. */
function daysOf(window: Window): Window {
  if (window.granularity === 'day') return window;
  const first = floorDay(window.from);
  return windowOver('day', first, (floorDay(window.to - 1) - first) / DAY_MS + 1);
}

const bucketOf = (window: Window, ts: number): number | null => {
  if (ts < window.from || ts >= window.to) return null;
  return window.granularity === 'hour' ? floorHour(ts) : floorDay(ts);
};

const iso = (ms: number) => new Date(ms).toISOString();
const visitorKey = (e: { websiteId: string; visitorId: string }) =>
  `${e.websiteId}\n${e.visitorId}`;
/** Code-unit order, as "value ascending" means for paths, names and codes alike. */
const byValue = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** bounces / sessions, rounded half up to 4 decimals, in exact integer arithmetic. */
export function bounceRate(bounces: number, sessions: number): number {
  if (sessions === 0) return 0;
  return Math.floor((2 * bounces * 10_000 + sessions) / (2 * sessions)) / 10_000;
}

/** Seconds per session, rounded half up to 1 decimal, from milliseconds in exact arithmetic. */
export function visitDuration(durationMs: number, sessions: number): number {
  if (sessions === 0) return 0;
  return Math.floor((2 * durationMs + 100 * sessions) / (200 * sessions)) / 10;
}

interface Session {
  websiteId: string;
  visitorId: string;
  start: number;
  last: number;
  pageviews: number;
  entry: string;
  source: string;
  first: Pageview;
}

interface Derived {
  /** Every page view with the visit it belongs to. */
  pageviews: Array<{ event: Pageview; session: Session }>;
  sessions: Session[];
}

const derivedCache = new WeakMap<readonly CollectedEvent[], Derived>();

/** Visits, replayed in order: a page view more than 30 minutes after the previous one starts one. */
function derive(events: readonly CollectedEvent[]): Derived {
  const cached = derivedCache.get(events);
  if (cached) return cached;
  const current = new Map<string, Session>();
  const derived: Derived = { pageviews: [], sessions: [] };
  for (const event of events) {
    if (event.type !== 'pageview') continue;
    const key = visitorKey(event);
    let session = current.get(key);
    if (!session || event.ts - session.last > SESSION_TIMEOUT_MS) {
      session = {
        websiteId: event.websiteId,
        visitorId: event.visitorId,
        start: event.ts,
        last: event.ts,
        pageviews: 0,
        entry: event.path,
        source: event.source,
        first: event,
      };
      current.set(key, session);
      derived.sessions.push(session);
    }
    session.pageviews += 1;
    session.last = event.ts;
    derived.pageviews.push({ event, session });
  }
  derivedCache.set(events, derived);
  return derived;
}

/** The value a page view or a visit counts under in a breakdown dimension. */
function valueOf(dim: BreakdownDimension, event: Pageview, session: Session): string {
  switch (dim) {
    case 'page':
      return event.path;
    case 'source':
      return session.source;
    case 'country':
      return event.country ?? 'unknown';
    case 'device':
      return event.device;
    case 'browser':
      return event.browser ?? 'unknown';
    case 'os':
      return event.os ?? 'unknown';
  }
}

/** What one bucket of one value holds. */
interface Cell {
  pageviews: number;
  visitors: Set<string>;
  sessions: number;
  bounces: number;
  durationMs: number;
  events: number;
}
const newCell = (): Cell => ({
  pageviews: 0,
  visitors: new Set(),
  sessions: 0,
  bounces: 0,
  durationMs: 0,
  events: 0,
});

/** value → bucket → cell, for one website over one window; `dim` null is the website's totals. */
type Tally = Map<string, Map<number, Cell>>;

function tally(
  events: readonly CollectedEvent[],
  websiteId: string,
  window: Window,
  dim: QueryDimension | null,
): Tally {
  const result: Tally = new Map();
  const cell = (value: string, bucket: number) => {
    let buckets = result.get(value);
    if (!buckets) result.set(value, (buckets = new Map()));
    let found = buckets.get(bucket);
    if (!found) buckets.set(bucket, (found = newCell()));
    return found;
  };
  if (dim === null || dim === 'event') {
    // Custom events: in the totals (hour and day buckets) and per name (day buckets).
    for (const event of events) {
      if (event.websiteId !== websiteId || event.type !== 'event') continue;
      const bucket = bucketOf(window, event.ts);
      if (bucket === null) continue;
      const target = cell(dim === null ? '' : event.name, bucket);
      target.events += 1;
      if (dim === 'event') target.visitors.add(event.visitorId);
    }
    if (dim === 'event') return result;
  }
  const { pageviews, sessions } = derive(events);
  for (const { event, session } of pageviews) {
    if (event.websiteId !== websiteId) continue;
    const bucket = bucketOf(window, event.ts);
    if (bucket === null) continue;
    const target = cell(dim === null ? '' : valueOf(dim, event, session), bucket);
    target.pageviews += 1;
    target.visitors.add(event.visitorId);
  }
  for (const session of sessions) {
    if (session.websiteId !== websiteId) continue;
    const bucket = bucketOf(window, session.start);
    if (bucket === null) continue;
    const target = cell(dim === null ? '' : valueOf(dim, session.first, session), bucket);
    target.sessions += 1;
    if (session.pageviews === 1) target.bounces += 1;
    target.durationMs += session.last - session.start;
  }
  return result;
}

interface Sums {
  pageviews: number;
  /** Distinct per bucket, summed. */
  visitors: number;
  sessions: number;
  bounces: number;
  durationMs: number;
  events: number;
}
const zeroSums = (): Sums => ({
  pageviews: 0,
  visitors: 0,
  sessions: 0,
  bounces: 0,
  durationMs: 0,
  events: 0,
});
function addCell(into: Sums, cell: Cell | undefined): Sums {
  if (!cell) return into;
  into.pageviews += cell.pageviews;
  into.visitors += cell.visitors.size;
  into.sessions += cell.sessions;
  into.bounces += cell.bounces;
  into.durationMs += cell.durationMs;
  into.events += cell.events;
  return into;
}
const sumBuckets = (buckets: Map<number, Cell> | undefined): Sums => {
  const sums = zeroSums();
  for (const cell of buckets?.values() ?? []) addCell(sums, cell);
  return sums;
};

/** Distinct visitors of a website with a page view in [from, to). */
function distinctPageviewVisitors(
  events: readonly CollectedEvent[],
  websiteId: string,
  from: number,
  to: number,
): number {
  const seen = new Set<string>();
  for (const event of events)
    if (
      event.type === 'pageview' &&
      event.websiteId === websiteId &&
      event.ts >= from &&
      event.ts < to
    )
      seen.add(event.visitorId);
  return seen.size;
}

// ---------------------------------------------------------------------------------------------
// GET /analytics/:id

export interface ExpectedOverview {
  website_id: string;
  range: Range;
  granularity: 'hour' | 'day';
  from: string;
  to: string;
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
}

export function expectedOverview(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
): ExpectedOverview {
  const window = rangeWindow(range, now);
  const totals = tally(events, websiteId, window, null).get('');
  const total = zeroSums();
  const daily_stats = window.buckets.map((bucket) => {
    const day = addCell(zeroSums(), totals?.get(bucket));
    addCell(total, totals?.get(bucket));
    return {
      date: iso(bucket),
      pageviews: day.pageviews,
      visitors: day.visitors,
      sessions: day.sessions,
      bounces: day.bounces,
    };
  });
  return {
    website_id: websiteId,
    range,
    granularity: window.granularity,
    from: iso(window.from),
    to: iso(window.to),
    summary: {
      total_visitors: total.sessions,
      pageviews: total.pageviews,
      // Over 24h exact (two UTC days, so a visitor id per day); else each day's, summed.
      unique_visitors:
        range === '24h'
          ? distinctPageviewVisitors(events, websiteId, window.from, window.to)
          : total.visitors,
      sessions: total.sessions,
      bounce_rate: bounceRate(total.bounces, total.sessions),
      avg_visit_duration: visitDuration(total.durationMs, total.sessions),
    },
    daily_stats,
  };
}

// ---------------------------------------------------------------------------------------------
// Breakdowns: countries, pages, sources, technology (and the event rows POST /query reads)

export interface BreakdownRow {
  value: string;
  visitors: number;
  pageviews: number;
  sessions: number;
  bounce_rate: number;
  avg_visit_duration: number;
  events: number;
}

const rowOf = (value: string, sums: Sums): BreakdownRow => ({
  value,
  visitors: sums.visitors,
  pageviews: sums.pageviews,
  sessions: sums.sessions,
  bounce_rate: bounceRate(sums.bounces, sums.sessions),
  avg_visit_duration: visitDuration(sums.durationMs, sums.sessions),
  events: sums.events,
});

/**
 * Every row of a dimension over a range: most visitors first, then page views, then events, then
 * value. Custom event names are kept per UTC day, so over 24h they cover yesterday and today.
 */
export function expectedBreakdown(
  events: readonly CollectedEvent[],
  websiteId: string,
  dim: QueryDimension,
  range: Range,
  now: number,
): BreakdownRow[] {
  const base = rangeWindow(range, now);
  const window = dim === 'event' ? daysOf(base) : base;
  return [...tally(events, websiteId, window, dim)]
    .map(([value, buckets]) => rowOf(value, sumBuckets(buckets)))
    .sort(
      (a, b) =>
        b.visitors - a.visitors ||
        b.pageviews - a.pageviews ||
        b.events - a.events ||
        byValue(a.value, b.value),
    );
}

/** Rows as a breakdown route names them (`country`, `path`, `source`), without `events`. */
export function expectedBreakdownList<K extends string>(
  events: readonly CollectedEvent[],
  websiteId: string,
  dim: BreakdownDimension,
  range: Range,
  now: number,
  valueName: K,
) {
  return expectedBreakdown(events, websiteId, dim, range, now).map(
    ({ value, events: _events, ...figures }) => ({ [valueName]: value, ...figures }),
  ) as Array<Record<K, string> & Omit<BreakdownRow, 'value' | 'events'>>;
}

export function expectedTechnology(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
  limit: number,
) {
  const rows = (dim: BreakdownDimension) =>
    expectedBreakdown(events, websiteId, dim, range, now)
      .slice(0, limit)
      .map(({ value, visitors, pageviews, sessions }) => ({
        value,
        visitors,
        pageviews,
        sessions,
      }));
  return { devices: rows('device'), browsers: rows('browser'), operating_systems: rows('os') };
}

// ---------------------------------------------------------------------------------------------
// GET /analytics/:id/visitors

export interface ExpectedVisitor {
  /** The visitor's hash id (the `visitorId` of its events). */
  id: string;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
  first_seen: string;
  last_seen: string;
  pageviews: number;
  sessions: number;
  entry_page: string | null;
  last_page: string | null;
}

/**
 * Visitor records of a website whose latest event of any kind is at or after the range's start,
 * by first-seen time and then id: the list a walk over every page returns.
 */
export function expectedVisitors(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
): ExpectedVisitor[] {
  const records = new Map<
    string,
    Omit<ExpectedVisitor, 'first_seen' | 'last_seen'> & { first: number; last: number }
  >();
  for (const event of events) {
    if (event.websiteId !== websiteId) continue;
    let record = records.get(event.visitorId);
    if (!record) {
      record = {
        id: event.visitorId,
        country: event.country,
        device: event.device,
        browser: event.browser,
        os: event.os,
        first: event.ts,
        last: event.ts,
        pageviews: 0,
        sessions: 0,
        entry_page: null,
        last_page: null,
      };
      records.set(event.visitorId, record);
    }
    record.first = Math.min(record.first, event.ts);
    record.last = Math.max(record.last, event.ts);
    if (event.type === 'pageview') {
      record.pageviews += 1;
      record.entry_page ??= event.path;
      record.last_page = event.path;
    }
  }
  for (const session of derive(events).sessions)
    if (session.websiteId === websiteId) records.get(session.visitorId)!.sessions += 1;
  const from = rangeWindow(range, now).from;
  return [...records.values()]
    .filter((r) => r.last >= from)
    .sort((a, b) => a.first - b.first || byValue(a.id, b.id))
    .map(({ first, last, ...rest }) => ({ ...rest, first_seen: iso(first), last_seen: iso(last) }));
}

// ---------------------------------------------------------------------------------------------
// GET /heatmaps/:id/pages

/** The cell of a click: whole percent of the viewport width (0–99), 50 px band (at most 400). */
function cellOf(click: Click): { x: number; y: number } {
  const width = Math.max(1, click.viewportWidth);
  const x = Math.min(99, Math.max(0, Math.floor((click.x * 100) / width)));
  const y = Math.min(400, Math.max(0, Math.floor(click.y / 50)));
  return { x, y };
}

export function expectedHeatmapPages(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
) {
  const window = daysOf(rangeWindow(range, now));
  const pages = new Map<
    string,
    { clicks: number; visitors: Map<number, Set<string>>; cells: Map<string, number> }
  >();
  for (const event of events) {
    if (event.websiteId !== websiteId || event.type !== 'click') continue;
    const day = bucketOf(window, event.ts);
    if (day === null) continue;
    let page = pages.get(event.path);
    if (!page) pages.set(event.path, (page = { clicks: 0, visitors: new Map(), cells: new Map() }));
    page.clicks += 1;
    if (!page.visitors.has(day)) page.visitors.set(day, new Set());
    page.visitors.get(day)!.add(event.visitorId);
    const { x, y } = cellOf(event);
    page.cells.set(`${x}_${y}`, (page.cells.get(`${x}_${y}`) ?? 0) + 1);
  }
  return [...pages]
    .map(([path, page]) => ({
      path,
      clicks: page.clicks,
      visitors: [...page.visitors.values()].reduce((n, set) => n + set.size, 0),
      cells: [...page.cells]
        .map(([cell, clicks]) => {
          const [x, y] = cell.split('_').map(Number) as [number, number];
          return { x, y, clicks };
        })
        .sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x)
        .slice(0, 100),
    }))
    .sort((a, b) => b.clicks - a.clicks || byValue(a.path, b.path));
}

// ---------------------------------------------------------------------------------------------
// GET /replays/:id/sessions

export function expectedReplaySessions(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
) {
  const sessions = new Map<
    string,
    {
      first: Extract<CollectedEvent, { type: 'replay' }>;
      started: number;
      last: number;
      bytes: Map<number, number>;
    }
  >();
  for (const event of events) {
    if (event.websiteId !== websiteId || event.type !== 'replay') continue;
    let session = sessions.get(event.sessionId);
    if (!session)
      sessions.set(
        event.sessionId,
        (session = { first: event, started: event.ts, last: event.ts, bytes: new Map() }),
      );
    // A chunk sent again (same sequence) is neither stored nor counted: its first copy is.
    if (session.bytes.has(event.sequence)) continue;
    session.bytes.set(event.sequence, Buffer.byteLength(event.data, 'utf8'));
    session.started = Math.min(session.started, event.ts);
    session.last = Math.max(session.last, event.ts);
  }
  const from = rangeWindow(range, now).from;
  return [...sessions]
    .filter(([, s]) => s.started >= from)
    .sort(([idA, a], [idB, b]) => b.started - a.started || byValue(idB, idA))
    .map(([id, s]) => ({
      id,
      visitor_id: s.first.visitorId,
      started_at: iso(s.started),
      last_activity: iso(s.last),
      chunks: s.bytes.size,
      bytes: Math.min(
        2 ** 31 - 1,
        [...s.bytes.values()].reduce((n, b) => n + b, 0),
      ),
      entry_page: s.first.path,
      country: s.first.country,
      device: s.first.device,
      browser: s.first.browser,
      os: s.first.os,
    }));
}

// ---------------------------------------------------------------------------------------------
// GET /errors/:id/groups

export function expectedErrorGroups(
  events: readonly CollectedEvent[],
  websiteId: string,
  range: Range,
  now: number,
) {
  const window = daysOf(rangeWindow(range, now));
  const groups = new Map<
    string,
    {
      message: string;
      stack: string | null;
      total: number;
      first: number;
      last: number;
      lastPage: string;
      occurrences: number;
      visitors: Map<number, Set<string>>;
    }
  >();
  for (const event of events) {
    if (event.websiteId !== websiteId || event.type !== 'error') continue;
    let group = groups.get(event.fingerprint);
    if (!group) {
      group = {
        message: event.message,
        stack: event.stack,
        total: 0,
        first: event.ts,
        last: event.ts,
        lastPage: event.path,
        occurrences: 0,
        visitors: new Map(),
      };
      groups.set(event.fingerprint, group);
    }
    group.total += 1;
    group.first = Math.min(group.first, event.ts);
    if (event.ts >= group.last) {
      group.last = event.ts;
      group.lastPage = event.path;
    }
    const day = bucketOf(window, event.ts);
    if (day === null) continue;
    group.occurrences += 1;
    if (!group.visitors.has(day)) group.visitors.set(day, new Set());
    group.visitors.get(day)!.add(event.visitorId);
  }
  return [...groups]
    .filter(([, g]) => g.occurrences > 0)
    .map(([fingerprint, g]) => ({
      fingerprint,
      message: g.message,
      stack: g.stack,
      occurrences: g.occurrences,
      affected_visitors: [...g.visitors.values()].reduce((n, set) => n + set.size, 0),
      total_occurrences: g.total,
      first_seen: iso(g.first),
      last_seen: iso(g.last),
      last_page: g.lastPage,
    }))
    .sort((a, b) => b.occurrences - a.occurrences || byValue(a.fingerprint, b.fingerprint));
}
