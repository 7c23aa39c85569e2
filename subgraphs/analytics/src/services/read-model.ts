import type { Redis } from 'ioredis';
import { DAY_MS, HOUR_MS, floorDay } from '../ingest/time-buckets';
import {
  addInto,
  addRows,
  DAY_ONLY_FAMILIES,
  orderOf,
  zero,
  type Family,
  type RowOrder,
  type Rows,
  type Vector,
} from '../store/counters';
import type { DayIndexStore, WebsiteIndex } from '../store/day-index';
import { HotQuery } from '../store/hot-query';
import {
  dayKeyOf,
  dayStartOf,
  daysBetween,
  hourKeyOf,
  type DayKey,
  type HotKeys,
} from '../store/hot-keys';
import type { Cells, SnapshotStore } from '../store/snapshots';
import { cellOrder, WINDOW_DAYS, type ColdWindow, type WindowStore } from '../store/windows';
import { asDays, bucketStarts, type TimeWindow } from './range';

/** How often a read starts again because the index moved under it before giving up. */
const CONSISTENT_ATTEMPTS = 3;

/** Rows of one family over a time window: the sealed part (a cold window) and the hot days' sum. */
export interface RangeRows {
  family: Family;
  cold: ColdWindow | null;
  hot: Rows;
}

/**
 * What every analytics read is built from: the day index, the hot tier (read in one MULTI with
 * the website's epoch, so both are of one moment), sealed snapshots and cold windows. A read never
 * touches raw events, and its cost depends on the range and the values in it, not on the stored
 * history.
 */
export class ReadModel {
  constructor(
    readonly redis: Redis,
    readonly keys: HotKeys,
    readonly index: DayIndexStore,
    readonly snapshots: SnapshotStore,
    private readonly windows: WindowStore,
  ) {}

  /**
   * Plans a read against the cached index (queueing its hot reads), runs it, and finishes it once
   * the epoch read with the hot data confirms the index it was planned on; otherwise plans again
   * on the announced revision.
   */
  async consistent<T>(
    website: string,
    plan: (index: WebsiteIndex, q: HotQuery) => () => Promise<T> | T,
  ): Promise<T> {
    let index = await this.index.cached(website);
    for (let attempt = 1; ; attempt += 1) {
      const q = new HotQuery(this.redis, this.keys, website);
      const finish = plan(index, q);
      const epoch = await q.run();
      if (String(index.rev) === (epoch ?? '0') || attempt === CONSISTENT_ATTEMPTS) return finish();
      index = await this.index.current(website, epoch);
    }
  }

  /** The cold window of a day range ending today, when the window is one (else null). */
  coldWindow(index: WebsiteIndex, window: TimeWindow, today: number): Promise<ColdWindow> | null {
    const days = (window.lastBucket - window.from) / DAY_MS + 1;
    if (
      window.granularity !== 'day' ||
      window.lastBucket !== today ||
      !(WINDOW_DAYS as readonly number[]).includes(days)
    )
      return null;
    return this.windows.get(index, days, today);
  }

  /**
   * Queues what the rows of `family` over `window` need and returns how to finish them. Day-only
   * families read hour windows as days. Day windows that are a standard range ending today come
   * from a cold window; any other day window sums its sealed days' snapshots (cost per day).
   */
  rangeRows(
    index: WebsiteIndex,
    q: HotQuery,
    family: Family,
    window: TimeWindow,
    today: number,
  ): () => Promise<RangeRows> {
    const effective = DAY_ONLY_FAMILIES.has(family) ? asDays(window) : window;
    if (effective.granularity === 'hour') {
      const hours = bucketStarts(effective).map((start) => q.hourRows(hourKeyOf(start), family));
      return async () => ({ family, cold: null, hot: sumRows(hours.map((read) => read())) });
    }
    const days = daysBetween(effective.from, effective.lastBucket);
    const hot = days.filter((day) => index.days.get(day)?.hot).map((day) => q.dayRows(day, family));
    const cold = this.coldWindow(index, effective, today);
    return async () => {
      const hotRows = sumRows(hot.map((read) => read()));
      if (cold) return { family, cold: await cold, hot: hotRows };
      for (const day of days) {
        const snapshot = index.days.get(day)?.snapshot;
        if (snapshot)
          addRows(hotRows, (await this.snapshots.read(snapshot)).counters.get(family) ?? new Map());
      }
      return { family, cold: null, hot: hotRows };
    };
  }

  /** Per-bucket totals of a window (index and hot tier), oldest first, and the 24h uniques. */
  series(
    index: WebsiteIndex,
    q: HotQuery,
    window: TimeWindow,
  ): () => { buckets: Array<[number, Vector]>; uniqueVisitors: number | null } {
    if (window.granularity === 'hour') {
      const hours = bucketStarts(window).map(
        (start) => [start, q.hourRows(hourKeyOf(start), 'total')] as const,
      );
      const uniques = daysOfHours(window).map((day) => q.pageviewersSince(day, window.from));
      return () => ({
        buckets: hours.map(([start, read]) => [start, read().get('') ?? zero()]),
        uniqueVisitors: uniques.reduce((n, read) => n + read(), 0),
      });
    }
    const days = daysBetween(window.from, window.lastBucket).map((day) => {
      const entry = index.days.get(day);
      return [day, entry, entry?.hot ? q.dayRows(day, 'total') : null] as const;
    });
    return () => ({
      buckets: days.map(([day, entry, hot]) => {
        const vector = [...(entry?.totals ?? zero())] as Vector;
        const hotTotals = hot?.().get('');
        if (hotTotals) addInto(vector, hotTotals);
        return [dayStartOf(day), vector];
      }),
      uniqueVisitors: null,
    });
  }

  /**
   * Rows of `family` per bucket of a window (hours, or days: hot days from the hot tier, sealed
   * ones from their snapshots), oldest first.
   */
  bucketRows(
    index: WebsiteIndex,
    q: HotQuery,
    family: Family,
    window: TimeWindow,
  ): () => Promise<Array<[number, Rows]>> {
    if (window.granularity === 'hour') {
      const hours = bucketStarts(window).map(
        (start) => [start, q.hourRows(hourKeyOf(start), family)] as const,
      );
      return async () => hours.map(([start, read]) => [start, read()]);
    }
    const days = daysBetween(window.from, window.lastBucket).map((day) => {
      const entry = index.days.get(day);
      return [day, entry?.snapshot ?? null, entry?.hot ? q.dayRows(day, family) : null] as const;
    });
    return () =>
      Promise.all(
        days.map(async ([day, snapshot, hot]): Promise<[number, Rows]> => {
          const rows: Rows = new Map();
          if (snapshot)
            addRows(rows, (await this.snapshots.read(snapshot)).counters.get(family) ?? new Map());
          if (hot) addRows(rows, hot());
          return [dayStartOf(day), rows];
        }),
      );
  }

  /**
   * The busiest `MAX_CELLS` heatmap cells of each of `pages` over a window of days (hot days
   * queued on `q`; a cold window keeps each page's cells sorted, so only what the hot days touched
   * is sorted per read).
   */
  rangeCells(
    index: WebsiteIndex,
    q: HotQuery,
    window: TimeWindow,
    today: number,
  ): (pages: string[]) => Promise<Map<string, Array<[string, number]>>> {
    const days = asDays(window);
    const dayList = daysBetween(days.from, days.lastBucket);
    const hot = dayList.filter((day) => index.days.get(day)?.hot).map((day) => q.cells(day));
    const cold = this.coldWindow(index, days, today);
    return async (pages) => {
      const hotCells = hot.map((read) => read());
      const coldWindow = cold ? await cold : null;
      const sealed = coldWindow
        ? []
        : await Promise.all(
            dayList.flatMap((day) => {
              const snapshot = index.days.get(day)?.snapshot;
              return snapshot ? [this.snapshots.read(snapshot)] : [];
            }),
          );
      const result = new Map<string, Array<[string, number]>>();
      for (const page of pages) {
        const sum = (sources: Array<Map<string, Cells>>) => {
          const total: Cells = new Map();
          for (const source of sources)
            for (const [cell, clicks] of source.get(page) ?? [])
              total.set(cell, (total.get(cell) ?? 0) + clicks);
          return total;
        };
        const coldCells = coldWindow?.cells.get(page) ?? sum(sealed.map((s) => s.cells));
        const coldSorted = coldWindow
          ? coldWindow.sortedCells(page)
          : [...coldCells].sort(cellOrder);
        const merged = new Map<string, number>();
        for (const [cell, clicks] of sum(hotCells))
          merged.set(cell, (coldCells.get(cell) ?? 0) + clicks);
        result.set(page, mergeTop(coldSorted, merged, cellOrder, MAX_CELLS));
      }
      return result;
    };
  }
}

/** Cells listed per heatmap page. */
export const MAX_CELLS = 100;

/**
 * The first `count` entries of a cold part and a hot part in `order`: `coldSorted` is the cold
 * part already in order, `merged` holds the entries the hot part touched with both parts summed
 * (their cold entries are skipped).
 */
export function mergeTop<V>(
  coldSorted: Array<[string, V]>,
  merged: Map<string, V>,
  order: (a: [string, V], b: [string, V]) => number,
  count: number,
): Array<[string, V]> {
  const hotSorted = [...merged].sort(order);
  const result: Array<[string, V]> = [];
  let i = 0;
  let j = 0;
  while (result.length < count) {
    while (i < coldSorted.length && merged.has(coldSorted[i]![0])) i += 1;
    const cold = coldSorted[i];
    const hot = hotSorted[j];
    if (!cold && !hot) break;
    if (!hot || (cold && order(cold, hot) <= 0)) {
      result.push(cold!);
      i += 1;
    } else {
      result.push(hot);
      j += 1;
    }
  }
  return result;
}

/** The rows of a range in the family's order (or `order`): `[value, counters]`, the first `count`. */
export function topRows(
  rows: RangeRows,
  count = Infinity,
  order?: RowOrder,
): Array<[string, Vector]> {
  const by = order ?? orderOf(rows.family);
  const coldRows = rows.cold?.rows(rows.family) ?? new Map<string, Vector>();
  const merged = new Map<string, Vector>();
  for (const [value, vector] of rows.hot) {
    const sum = [...(coldRows.get(value) ?? zero())] as Vector;
    addInto(sum, vector);
    merged.set(value, sum);
  }
  // The cold rows are sorted once per window; only the values the hot days touched move.
  const coldSorted = !rows.cold
    ? []
    : order
      ? [...coldRows].sort(order)
      : rows.cold.sorted(rows.family);
  return mergeTop(coldSorted, merged, by, count);
}

/** Calls `visit` with every row of a range (cold and hot summed), unordered; cold rows are not copied. */
export function eachRow(rows: RangeRows, visit: (value: string, vector: Readonly<Vector>) => void) {
  const coldRows = rows.cold?.rows(rows.family);
  for (const [value, vector] of rows.hot) {
    const cold = coldRows?.get(value);
    if (!cold) visit(value, vector);
    else {
      const sum = [...cold] as Vector;
      addInto(sum, vector);
      visit(value, sum);
    }
  }
  if (coldRows)
    for (const [value, vector] of coldRows) if (!rows.hot.has(value)) visit(value, vector);
}

export function sumRows(list: Rows[]): Rows {
  const sum: Rows = new Map();
  for (const rows of list) addRows(sum, rows);
  return sum;
}

/** Today (start of the current UTC day) for a clock reading. */
export const todayOf = (now: number) => floorDay(now);
/** The hot days a 24-hour window touches (yesterday and today). */
export const daysOfHours = (window: TimeWindow): DayKey[] => [
  ...new Set([dayKeyOf(window.from), dayKeyOf(window.lastBucket + HOUR_MS - 1)]),
];
