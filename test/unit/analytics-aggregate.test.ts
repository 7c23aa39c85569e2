import {
  aggregateBatch,
  heatmapCell,
  LAST_HEATMAP_ROW,
  SESSION_TIMEOUT_MS,
  type VisitorState,
} from '../../subgraphs/analytics/src/ingest/aggregate';
import type { CollectedEvent } from '../../common/contracts/collected-event';
import { windowOf } from '../../subgraphs/analytics/src/services/range';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const visitor = {
  visitorId: 'v1',
  country: 'US',
  device: 'desktop' as const,
  browser: 'Chrome',
  os: 'Windows',
  screenWidth: 1920,
  screenHeight: 1080,
};
const pageview = (
  path: string,
  ts: number,
  overrides: Partial<CollectedEvent> = {},
): CollectedEvent =>
  ({
    ...visitor,
    websiteId: 'w1',
    ts,
    path,
    type: 'pageview',
    referrer: null,
    source: 'direct',
    ...overrides,
  }) as CollectedEvent;

function totals(events: CollectedEvent[], states = new Map<string, VisitorState>()) {
  const writes = aggregateBatch(events, states);
  const day = writes.stats.filter((s) => s.granularity === 'day' && s.dim === '');
  const sum = (counter: 'pageviews' | 'visitors' | 'sessions' | 'bounces' | 'duration') =>
    day.reduce((n, s) => n + (s.inc[counter] ?? 0), 0);
  return {
    writes,
    pageviews: sum('pageviews'),
    visitors: sum('visitors'),
    sessions: sum('sessions'),
    bounces: sum('bounces'),
    duration: sum('duration'),
  };
}

describe('analytics write path: aggregateBatch', () => {
  it('DATA-2: when one visitor views two pages in a visit, then 2 page views, 1 visitor, 1 session, no bounce and the gap as duration', () => {
    const result = totals([pageview('/', T0), pageview('/pricing', T0 + 42_000)]);
    expect(result).toMatchObject({
      pageviews: 2,
      visitors: 1,
      sessions: 1,
      bounces: 0,
      duration: 42_000,
    });
  });

  it('DATA-2: when a visitor returns after 30 minutes of inactivity, then a second session starts and both bounce', () => {
    const result = totals([pageview('/', T0), pageview('/', T0 + SESSION_TIMEOUT_MS + 1)]);
    expect(result).toMatchObject({
      pageviews: 2,
      visitors: 1,
      sessions: 2,
      bounces: 2,
      duration: 0,
    });
  });

  it('DATA-2: when the state of an earlier batch is passed in, then the visitor is not counted again', () => {
    const states = new Map<string, VisitorState>();
    totals([pageview('/', T0)], states);
    const second = totals([pageview('/about', T0 + 1_000)], states);
    expect(second).toMatchObject({
      pageviews: 1,
      visitors: 0,
      sessions: 0,
      bounces: -1,
      duration: 1_000,
    });
  });

  it('DATA-5: when a visitor clicks after a page view, then last_seen moves with the click while the visit still runs from the page view', () => {
    const clickAt = T0 + SESSION_TIMEOUT_MS - 60_000;
    const nextPageAt = T0 + SESSION_TIMEOUT_MS + 60_000;
    const result = totals([
      pageview('/', T0),
      click('/', 'v1', { ts: clickAt }),
      pageview('/b', nextPageAt),
    ]);
    // 31 minutes after the first page view: a new visit, though the click came 2 minutes before.
    expect(result).toMatchObject({ pageviews: 2, sessions: 2, bounces: 2, duration: 0 });
    const [state] = result.writes.visitors;
    expect(state!.lastSeen).toEqual(new Date(nextPageAt));
    expect(state!.lastPageviewAt).toEqual(new Date(nextPageAt));

    const clickOnly = totals([pageview('/', T0), click('/', 'v1', { ts: T0 + 60_000 })]).writes
      .visitors[0]!;
    expect(clickOnly.lastSeen).toEqual(new Date(T0 + 60_000));
    expect(clickOnly.lastPageviewAt).toEqual(new Date(T0));
  });

  it('DATA-5: when a visitor stored before lastPageviewAt existed views another page, then its visit goes on from the stored lastSeen', () => {
    const states = new Map<string, VisitorState>();
    totals([pageview('/', T0)], states);
    for (const state of states.values()) delete state.lastPageviewAt;
    expect(totals([pageview('/b', T0 + 5_000)], states)).toMatchObject({
      sessions: 0,
      bounces: -1,
      duration: 5_000,
    });
  });

  it('DATA-5: when a visitor stored before lastPageviewAt existed clicks and views a page 50 minutes after its last one, then a new visit starts (the click does not extend the old one)', () => {
    const states = new Map<string, VisitorState>();
    totals([pageview('/', T0)], states);
    for (const state of states.values()) delete state.lastPageviewAt;
    const lateClick = click('/', 'v1', { ts: T0 + 25 * 60_000 });
    const result = totals([lateClick, pageview('/b', T0 + 50 * 60_000)], states);
    expect(result).toMatchObject({ sessions: 1, bounces: 1, duration: 0 });
    expect(result.writes.visitors[0]!.lastPageviewAt).toEqual(new Date(T0 + 50 * 60_000));

    // Touched by a click only, the record gets its last page view filled in from lastSeen.
    const clickedOnly = new Map<string, VisitorState>();
    totals([pageview('/', T0)], clickedOnly);
    for (const state of clickedOnly.values()) delete state.lastPageviewAt;
    const [state] = totals([lateClick], clickedOnly).writes.visitors;
    expect(state!.lastPageviewAt).toEqual(new Date(T0));
  });

  it('DATA-6: when page views are batched, then increments of one counter document are merged into one write', () => {
    const { writes } = totals([
      pageview('/', T0),
      pageview('/', T0 + 1_000),
      pageview('/', T0 + 2_000),
    ]);
    const pageRows = writes.stats.filter((s) => s.granularity === 'day' && s.dim === 'page');
    expect(pageRows).toHaveLength(1);
    expect(pageRows[0]!.inc).toMatchObject({ pageviews: 3, visitors: 1 });
  });

  it('DATA-6: when clicks and errors arrive, then heatmap cells and error groups are aggregated', () => {
    const onButton = click('/', 'v1', { x: 500, y: 120 });
    const error = {
      ...visitor,
      websiteId: 'w1',
      ts: T0,
      path: '/',
      type: 'error',
      message: 'boom',
      stack: null,
      fingerprint: 'f1',
    } as CollectedEvent;
    const { writes } = totals([onButton, onButton, error, error]);
    expect(writes.heatmaps).toEqual([
      { websiteId: 'w1', path: '/', day: Date.UTC(2026, 10, 20), clicks: 2, cells: { '50_2': 2 } },
    ]);
    expect(writes.errors[0]).toMatchObject({
      fingerprint: 'f1',
      count: 2,
      day: Date.UTC(2026, 10, 20),
    });
  });

  it('DATA-6: when a click is at the right edge, then its cell stays inside the grid', () => {
    expect(heatmapCell(1000, 0, 1000)).toBe('99_0');
  });

  it('DATA-6: when clicks come from any depth, then a page-day holds at most 100 × 401 cells', () => {
    expect(heatmapCell(0, 19_999, 1000)).toBe('0_399');
    expect(heatmapCell(0, 20_000, 1000)).toBe(`0_${LAST_HEATMAP_ROW}`);
    expect(heatmapCell(0, 1_000_000, 1000)).toBe(`0_${LAST_HEATMAP_ROW}`);
  });
});

/** A click on `path` in a 1000 × 800 viewport; `overrides` move it in time or on the page. */
const click = (
  path: string,
  visitorId: string,
  overrides: { ts?: number; x?: number; y?: number } = {},
): CollectedEvent =>
  ({
    ...visitor,
    visitorId,
    websiteId: 'w1',
    ts: T0,
    path,
    type: 'click',
    x: 10,
    y: 10,
    viewportWidth: 1000,
    viewportHeight: 800,
    selector: null,
    ...overrides,
  }) as CollectedEvent;
const error = (fingerprint: string, visitorId: string): CollectedEvent =>
  ({
    ...visitor,
    visitorId,
    websiteId: 'w1',
    ts: T0,
    path: '/',
    type: 'error',
    message: `message of ${fingerprint}`,
    stack: 'at x',
    fingerprint,
  }) as CollectedEvent;

describe('analytics write path: every distinct value counted as itself', () => {
  const rowsOf = (writes: ReturnType<typeof aggregateBatch>, granularity: string, dim: string) =>
    Object.fromEntries(
      writes.stats
        .filter((s) => s.granularity === granularity && s.dim === dim)
        .map((s) => [s.value, s.inc]),
    );

  it('DATA-6: when a day has 1,200 distinct pages, clicked pages and error fingerprints, then each has its own counter row, heatmap and error group in day and hour buckets', () => {
    const paths = Array.from({ length: 1_200 }, (_, i) => `/p${i}`);
    const events = paths.flatMap((path, i) => [
      pageview(path, T0 + i * 1_000, { visitorId: `v${i}` }),
      click(path, `v${i}`),
      error(`f${i}`, `v${i}`),
    ]);

    const writes = aggregateBatch(events, new Map());

    for (const granularity of ['day', 'hour']) {
      const pages = rowsOf(writes, granularity, 'page');
      expect(Object.keys(pages).sort()).toEqual([...paths].sort());
      expect(pages['/p1199']).toEqual({ pageviews: 1, visitors: 1, sessions: 1, bounces: 1 });
    }
    expect(writes.heatmaps.map((h) => h.path).sort()).toEqual([...paths].sort());
    expect(Object.keys(rowsOf(writes, 'day', 'click'))).toHaveLength(1_200);
    expect(writes.errors).toHaveLength(1_200);
    expect(writes.errors.find((g) => g.fingerprint === 'f1199')).toMatchObject({
      message: 'message of f1199',
      stack: 'at x',
      count: 1,
    });
  });
});

describe('analytics ranges', () => {
  it('DATA-3: when the range is 24h, then 24 hour buckets end with the current hour; 7d is 7 UTC days including today', () => {
    const now = Date.UTC(2026, 10, 21, 23, 30);
    expect(windowOf('LAST_24_HOURS', now)).toEqual({
      granularity: 'hour',
      from: Date.UTC(2026, 10, 21, 0),
      lastBucket: Date.UTC(2026, 10, 21, 23),
      to: Date.UTC(2026, 10, 22),
    });
    expect(windowOf('LAST_7_DAYS', now)).toMatchObject({
      granularity: 'day',
      from: Date.UTC(2026, 10, 15),
      lastBucket: Date.UTC(2026, 10, 21),
    });
  });
});
