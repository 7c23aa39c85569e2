import type { RedisClient } from '../../../../common/platform/redis';
import type { VisitorState } from '../ingest/aggregate';
import { DAY_MS, floorDay } from '../ingest/time-buckets';
import {
  addInto,
  addRows,
  DAY_ONLY_FAMILIES,
  ROW_BYTES,
  zero,
  type Family,
  type Rows,
  type Vector,
} from '../store/counters';
import type { DayIndexStore, WebsiteIndex } from '../store/day-index';
import { HotQuery, HotReadCache } from '../store/hot-query';
import { LRUCache } from 'lru-cache';
import { dayStartOf, daysBetween, hourKeyOf, type HotKeys } from '../store/hot-keys';
import type { Cells, SnapshotStore } from '../store/snapshots';
import {
  cellOrder,
  cellPosition,
  WINDOW_DAYS,
  type ColdWindow,
  type WindowStore,
} from '../store/windows';
import type { ReplayState } from '../store/visitor-codec';
import { asDays, bucketStarts, daysOfHours, type TimeWindow } from './range';
import {
  planReplayRecords,
  planVisitorRecords,
  type RecordStores,
  type Slice,
} from './record-reads';
import { mergeTop, RangeRows } from './range-rows';

/** How often a read starts again because the index moved under it before giving up. */
const CONSISTENT_ATTEMPTS = 3;

/**
 * What every analytics read is built from: the day index, the hot tier (read in one MULTI with
 * the website's epoch, so both are of one moment), sealed snapshots and cold windows. A read never
 * touches raw events, and its cost depends on the range and the values in it, not on the stored
 * history.
 */
export class ReadModel {
  private readonly hotReads: HotReadCache;
  private readonly ranges: LRUCache<string, RangeRows>;
  private readonly cells = new LRUCache<string, RangeCells>({ max: 64 });
  /** Identities of cold windows and hot reads, which are kept (and so the same) while unchanged. */
  private readonly ids = new WeakMap<object, number>();
  private lastId = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly index: DayIndexStore,
    private readonly snapshots: SnapshotStore,
    private readonly windows: WindowStore,
    /** Memory for the hot tier's answers and the rows merged from them, kept between changes. */
    cacheBytes = 32 * 1024 * 1024,
  ) {
    this.hotReads = new HotReadCache(Math.floor(cacheBytes * 0.75));
    this.ranges = new LRUCache({ maxSize: Math.floor(cacheBytes * 0.25) });
  }

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
      const q = new HotQuery(this.redis, this.keys, website, this.hotReads);
      const finish = plan(index, q);
      const epoch = await q.run();
      if (String(index.rev) === (epoch ?? '0') || attempt === CONSISTENT_ATTEMPTS) return finish();
      index = await this.index.current(website, epoch);
    }
  }

  private get recordStores(): RecordStores {
    return { redis: this.redis, keys: this.keys, snapshots: this.snapshots };
  }

  /** Visitor records of a window in the order first seen, items `slice.start`..`slice.end`. */
  visitorRecords(
    website: string,
    window: TimeWindow,
    keptSince: number,
    slice: Slice,
  ): Promise<VisitorState[]> {
    return this.consistent(website, (index, q) =>
      planVisitorRecords(this.recordStores, website, { index, q, window, keptSince, slice }),
    );
  }

  /** Replay sessions of a window, newest first, items `slice.start`..`slice.end`. */
  replayRecords(website: string, window: TimeWindow, slice: Slice): Promise<ReplayState[]> {
    return this.consistent(website, (index, q) =>
      planReplayRecords(this.recordStores, { index, q, window, slice }),
    );
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
   * from a cold window; any other day window sums its sealed days' snapshots (cost per day). The
   * result is kept while the data behind it is the same (the same cold window and hot reads).
   */
  rangeRows(
    index: WebsiteIndex,
    q: HotQuery,
    family: Family,
    window: TimeWindow,
    today: number,
  ): () => Promise<RangeRows> {
    const effective = DAY_ONLY_FAMILIES.has(family) ? asDays(window) : window;
    const shape = `${index.website}|${family}|${effective.granularity}|${effective.from}|${effective.lastBucket}`;
    if (effective.granularity === 'hour') {
      const hours = bucketStarts(effective).map((start) => q.hourRows(hourKeyOf(start), family));
      return async () =>
        this.remembered(
          shape,
          null,
          hours.map((read) => read()),
          [],
        );
    }
    const days = daysBetween(effective.from, effective.lastBucket);
    const hot = days.filter((day) => index.days.get(day)?.hot).map((day) => q.dayRows(day, family));
    const cold = this.coldWindow(index, effective, today);
    return async () => {
      const hotRows = hot.map((read) => read());
      if (cold) return this.remembered(shape, await cold, hotRows, []);
      const snapshots = days.flatMap((day) => index.days.get(day)?.snapshot ?? []);
      return this.remembered(shape, null, hotRows, snapshots);
    };
  }

  /** The RangeRows of the same data as last time, or new ones. */
  private async remembered(
    shape: string,
    cold: ColdWindow | null,
    hot: Rows[],
    snapshots: string[],
  ): Promise<RangeRows> {
    const key = [
      shape,
      cold ? this.idOf(cold) : '-',
      ...hot.map((r) => this.idOf(r)),
      ...snapshots,
    ].join('|');
    const kept = this.ranges.get(key);
    if (kept) return kept;
    const family = shape.split('|')[1] as Family;
    const sum = sumRows(hot);
    for (const id of snapshots)
      addRows(sum, (await this.snapshots.read(id)).counters.get(family) ?? new Map());
    const rows = new RangeRows(family, cold, sum);
    // The merged rows and their sorted copies: a few times the hot rows.
    this.ranges.set(key, rows, { size: (sum.size + 1) * ROW_BYTES * 3 });
    return rows;
  }

  private idOf(value: object): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.lastId += 1;
      this.ids.set(value, id);
    }
    return id;
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
   * The heatmap cells of a window of days (hot days queued on `q`), kept while the data behind
   * them is the same: a cold window keeps each page's cells sorted, so only what the hot days
   * touched is placed among them, once per page.
   */
  rangeCells(
    index: WebsiteIndex,
    q: HotQuery,
    window: TimeWindow,
    today: number,
  ): () => Promise<RangeCells> {
    const days = asDays(window);
    const dayList = daysBetween(days.from, days.lastBucket);
    const hot = dayList.filter((day) => index.days.get(day)?.hot).map((day) => q.cells(day));
    const cold = this.coldWindow(index, days, today);
    return async () => {
      const hotCells = hot.map((read) => read());
      const coldWindow = cold ? await cold : null;
      const sealed = coldWindow
        ? []
        : dayList.flatMap((day) => index.days.get(day)?.snapshot ?? []);
      const key = [
        index.website,
        'cells',
        days.from,
        days.lastBucket,
        coldWindow ? this.idOf(coldWindow) : '-',
        ...hotCells.map((c) => this.idOf(c)),
        ...sealed,
      ].join('|');
      const kept = this.cells.get(key);
      if (kept) return kept;
      const sealedCells = await Promise.all(
        sealed.map(async (id) => (await this.snapshots.read(id)).cells),
      );
      const cells = new RangeCells(coldWindow, [...hotCells, ...sealedCells]);
      this.cells.set(key, cells);
      return cells;
    };
  }
}

/**
 * The heatmap cells of a range: a cold window's (sorted once per page) and other days' (the hot
 * days', or sealed days' outside a cold window), with each page's busiest cells computed once.
 */
export class RangeCells {
  private readonly tops = new Map<string, Array<[number, number, number]>>();

  constructor(
    private readonly cold: ColdWindow | null,
    private readonly others: Array<Map<string, Cells>>,
  ) {}

  /** The page's busiest MAX_CELLS cells, `[x, y, clicks]`. */
  top(page: string): Array<[number, number, number]> {
    let top = this.tops.get(page);
    if (!top) {
      const coldCells = this.cold?.cells.get(page);
      const touched = new Map<string, number>();
      for (const source of this.others)
        for (const [cell, clicks] of source.get(page) ?? [])
          touched.set(cell, (touched.get(cell) ?? coldCells?.get(cell) ?? 0) + clicks);
      top = mergeTop(
        this.cold?.sortedCells(page) ?? [],
        [...touched].sort(cellOrder),
        touched,
        cellOrder,
        MAX_CELLS,
      ).map(([cell, clicks]): [number, number, number] => [...cellPosition(cell), clicks]);
      this.tops.set(page, top);
    }
    return top;
  }
}

/** Cells listed per heatmap page. */
export const MAX_CELLS = 100;

export function sumRows(list: Rows[]): Rows {
  const sum: Rows = new Map();
  for (const rows of list) addRows(sum, rows);
  return sum;
}

/** Today (start of the current UTC day) for a clock reading. */
export const todayOf = (now: number) => floorDay(now);
