import {
  aggregateBatch,
  heatmapCell,
  LAST_HEATMAP_ROW,
  SESSION_TIMEOUT_MS,
  type VisitorState,
} from '../../subgraphs/analytics/src/ingest/aggregate';
import type { CollectedEvent } from '../../subgraphs/analytics/src/ingest/collected-event';
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
      duration: 42,
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
      duration: 1,
    });
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
    const click = {
      ...visitor,
      websiteId: 'w1',
      ts: T0,
      path: '/',
      type: 'click',
      x: 500,
      y: 120,
      viewportWidth: 1000,
      viewportHeight: 800,
      selector: null,
    } as CollectedEvent;
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
    const { writes } = totals([click, click, error, error]);
    expect(writes.heatmaps).toEqual([
      { websiteId: 'w1', path: '/', day: Date.UTC(2026, 10, 20), clicks: 2, cells: { '50_2': 2 } },
    ]);
    expect(writes.errors[0]).toMatchObject({ fingerprint: 'f1', count: 2, newVisitors: 1 });
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
