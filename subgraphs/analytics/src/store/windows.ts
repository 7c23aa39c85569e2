import type { RedisClient } from '../../../../common/platform/redis';
import { LRUCache } from 'lru-cache';
import { DAY_MS } from '../ingest/time-buckets';
import {
  addRows,
  FAMILIES,
  orderOf,
  packRows,
  ROW_BYTES,
  unpackRows,
  type Family,
  type PackedRows,
  type RowOrder,
  type Rows,
  type Vector,
} from './counters';
import type { WebsiteIndex } from './day-index';
import { daysBetween, type DayKey, type HotKeys } from './hot-keys';
import type { Cells, DaySnapshot, SnapshotStore } from './snapshots';

/** The window lengths reads ask for: the day ranges 7d, 30d, 90d and 1y. */
export const WINDOW_DAYS = [7, 30, 90, 365] as const;
/** Stored windows outlive a day's rollover and a restart, not much more. */
const STORED_WINDOW_SECONDS = 3 * 86_400;

/**
 * The sealed part of a day range: the sum of the snapshots of the sealed days among the range's
 * days, per counter family (rows pre-sorted on demand) and heatmap page. What the range's hot days
 * hold is added at read time, so a read costs the values of the range, not its days.
 */
export class ColdWindow {
  private readonly sortedRows = new Map<string, Array<[string, Vector]>>();
  private readonly sortedCellsOf = new Map<string, Array<[string, number]>>();

  /** Rough bytes in memory, sorted copies included. */
  readonly bytes: number;

  constructor(
    /** Each sealed day of the range and the snapshot it was summed from. */
    readonly basis: Map<DayKey, string>,
    readonly families: Map<Family, Rows>,
    readonly cells: Map<string, Cells>,
  ) {
    let rows = 0;
    for (const familyRows of families.values()) rows += familyRows.size;
    let cellCount = 0;
    for (const pageCells of cells.values()) cellCount += pageCells.size;
    this.bytes = 2 * (rows * ROW_BYTES + cellCount * CELL_BYTES) + 1;
  }

  rows(family: Family): Rows {
    return this.families.get(family) ?? new Map();
  }

  /** A page's heatmap cells, busiest first (cellOrder), computed once. */
  sortedCells(page: string): Array<[string, number]> {
    let sorted = this.sortedCellsOf.get(page);
    if (!sorted) {
      sorted = [...(this.cells.get(page) ?? [])].sort(cellOrder);
      this.sortedCellsOf.set(page, sorted);
    }
    return sorted;
  }

  /** The family's rows in its order (counters.ts orderOf), computed once. */
  sorted(family: Family): Array<[string, Vector]> {
    return this.sortedBy(family, `family:${family}`, orderOf(family));
  }

  /** The family's rows in another order, computed once per order name. */
  sortedBy(family: Family, order: string, compare: RowOrder): Array<[string, Vector]> {
    const key = `${family}|${order}`;
    let sorted = this.sortedRows.get(key);
    if (!sorted) {
      sorted = [...this.rows(family)].sort(compare);
      this.sortedRows.set(key, sorted);
    }
    return sorted;
  }
}

/** Rough bytes a heatmap cell takes in memory. */
const CELL_BYTES = 80;

/** `x_y` of a heatmap cell as numbers. */
export const cellPosition = (cell: string): [number, number] => {
  const at = cell.indexOf('_');
  return [Number(cell.slice(0, at)), Number(cell.slice(at + 1))];
};

/** Heatmap cells busiest first, then from the top of the page, then from the left. */
export function cellOrder([ca, a]: [string, number], [cb, b]: [string, number]): number {
  if (a !== b) return b - a;
  const [xa, ya] = cellPosition(ca);
  const [xb, yb] = cellPosition(cb);
  return ya - yb || xa - xb;
}

interface StoredWindow {
  basis: Array<[DayKey, string]>;
  families: Array<[Family, PackedRows]>;
  cells: Array<[string, Array<[string, number]>]>;
}

/**
 * Cold windows per website and length, kept in process (and in Redis, shared by every instance
 * and across restarts). A window whose basis no longer matches the index is brought up to date by
 * subtracting the snapshots that left it and adding those that joined — normally one day a day —
 * never by summing the whole range again unless nothing is kept at all.
 */
export class WindowStore {
  private readonly cache: LRUCache<string, ColdWindow>;
  private readonly computing = new Map<string, Promise<ColdWindow>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly snapshots: SnapshotStore,
    cacheBytes: number,
  ) {
    this.cache = new LRUCache({ maxSize: cacheBytes, sizeCalculation: (window) => window.bytes });
  }

  /** The sealed part of the `days`-day range ending with the UTC day starting at `today`. */
  async get(index: WebsiteIndex, days: number, today: number): Promise<ColdWindow> {
    const basis = new Map<DayKey, string>();
    for (const day of daysBetween(today - (days - 1) * DAY_MS, today)) {
      const snapshot = index.days.get(day)?.snapshot;
      if (snapshot) basis.set(day, snapshot);
    }
    const key = `${index.website}|${days}`;
    const cached = this.cache.get(key);
    if (cached && sameBasis(cached.basis, basis)) return cached;
    const flightKey = `${key}|${JSON.stringify([...basis])}`;
    const inFlight = this.computing.get(flightKey);
    if (inFlight) return inFlight;
    const computing = this.build(index.website, days, basis, cached).finally(() =>
      this.computing.delete(flightKey),
    );
    this.computing.set(flightKey, computing);
    return computing;
  }

  private async build(
    website: string,
    days: number,
    basis: Map<DayKey, string>,
    cached: ColdWindow | undefined,
  ): Promise<ColdWindow> {
    const start = cached ?? (await this.stored(website, days));
    // Copies down to the vectors: the window started from may still be read elsewhere.
    const families = new Map<Family, Rows>(
      FAMILIES.map((family) => [
        family,
        new Map([...(start?.rows(family) ?? [])].map(([value, v]) => [value, [...v] as Vector])),
      ]),
    );
    const cells = new Map<string, Cells>(
      [...(start?.cells ?? [])].map(([page, pageCells]) => [page, new Map(pageCells)]),
    );
    const from = start?.basis ?? new Map<DayKey, string>();
    const leaving = [...from].filter(([day, snapshot]) => basis.get(day) !== snapshot);
    const joining = [...basis].filter(([day, snapshot]) => from.get(day) !== snapshot);
    const apply = (snapshot: DaySnapshot, sign: 1 | -1) => {
      for (const [family, rows] of snapshot.counters) {
        let target = families.get(family);
        if (!target) {
          target = new Map();
          families.set(family, target);
        }
        addRows(target, rows, sign);
      }
      for (const [page, pageCells] of snapshot.cells) {
        const target = cells.get(page) ?? new Map<string, number>();
        for (const [cell, clicks] of pageCells) {
          const next = (target.get(cell) ?? 0) + sign * clicks;
          if (next === 0) target.delete(cell);
          else target.set(cell, next);
        }
        if (target.size === 0) cells.delete(page);
        else cells.set(page, target);
      }
    };
    for (const [, snapshot] of leaving) apply(await this.snapshots.read(snapshot), -1);
    for (const [, snapshot] of joining) apply(await this.snapshots.read(snapshot), 1);
    const window = new ColdWindow(new Map(basis), families, cells);
    this.cache.set(`${website}|${days}`, window);
    if (leaving.length > 0 || joining.length > 0) this.store(website, days, window);
    return window;
  }

  private async stored(website: string, days: number): Promise<ColdWindow | null> {
    const json = await this.redis.get(this.keys.window(website, days)).catch(() => null);
    if (!json) return null;
    const stored = JSON.parse(json) as StoredWindow;
    return new ColdWindow(
      new Map(stored.basis),
      new Map(stored.families.map(([family, rows]) => [family, unpackRows(rows)])),
      new Map(stored.cells.map(([page, pageCells]) => [page, new Map(pageCells)])),
    );
  }

  /** Keeps the window for other instances and restarts; a failure only costs them a recompute. */
  private store(website: string, days: number, window: ColdWindow): void {
    const stored: StoredWindow = {
      basis: [...window.basis],
      families: [...window.families].map(([family, rows]) => [family, packRows(rows)]),
      cells: [...window.cells].map(([page, pageCells]) => [page, [...pageCells]]),
    };
    void this.redis
      .set(this.keys.window(website, days), JSON.stringify(stored), 'EX', STORED_WINDOW_SECONDS)
      .catch(() => undefined);
  }
}

function sameBasis(a: Map<DayKey, string>, b: Map<DayKey, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [day, snapshot] of a) if (b.get(day) !== snapshot) return false;
  return true;
}
