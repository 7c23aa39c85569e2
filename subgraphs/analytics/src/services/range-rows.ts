import {
  addInto,
  orderOf,
  zero,
  type Family,
  type RowOrder,
  type Rows,
  type Vector,
} from '../store/counters';
import type { ColdWindow } from '../store/windows';

/** An order of rows and the name it is remembered by. */
export interface NamedOrder {
  key: string;
  compare: RowOrder;
}

/**
 * The rows of one family over a time window: the sealed part (a cold window, sorted once per
 * order) and the hot days' sum. Kept while neither changes (services/read-model.ts), with the
 * hot values merged and sorted once per order, so a read between two batches costs the rows it
 * returns.
 */
export class RangeRows {
  private mergedRows: Map<string, Vector> | null = null;
  private readonly hotSorted = new Map<string, Array<[string, Vector]>>();

  constructor(
    readonly family: Family,
    readonly cold: ColdWindow | null,
    readonly hot: Rows,
  ) {}

  /** Every value the hot days touched, with its cold row added. */
  get merged(): Map<string, Vector> {
    if (!this.mergedRows) {
      const coldRows = this.cold?.rows(this.family);
      this.mergedRows = new Map();
      for (const [value, vector] of this.hot) {
        const sum = [...(coldRows?.get(value) ?? zero())] as Vector;
        addInto(sum, vector);
        this.mergedRows.set(value, sum);
      }
    }
    return this.mergedRows;
  }

  /**
   * The first `count` rows in `order` (the family's by default) that `keep` accepts. The cold rows
   * come sorted; only the values the hot days touched are placed among them.
   */
  top(
    count: number,
    order?: NamedOrder,
    keep?: (value: string) => boolean,
  ): Array<[string, Vector]> {
    const named = order ?? { key: `family:${this.family}`, compare: orderOf(this.family) };
    let hot = this.hotSorted.get(named.key);
    if (!hot) {
      hot = [...this.merged].sort(named.compare);
      this.hotSorted.set(named.key, hot);
    }
    const cold = !this.cold
      ? []
      : order
        ? this.cold.sortedBy(this.family, named.key, named.compare)
        : this.cold.sorted(this.family);
    return mergeTop(cold, hot, this.merged, named.compare, count, keep);
  }

  /** Calls `visit` with every row (cold and hot summed), unordered. */
  each(visit: (value: string, vector: Readonly<Vector>) => void): void {
    for (const [value, vector] of this.merged) visit(value, vector);
    for (const [value, vector] of this.cold?.rows(this.family) ?? [])
      if (!this.hot.has(value)) visit(value, vector);
  }
}

/**
 * The first `count` entries of a cold part and a hot part in `order`: `coldSorted` is the cold
 * part in order, `hotSorted` the entries the hot part touched (with both parts summed) in order;
 * the cold entries of values in `touched` are skipped. Entries `keep` refuses are left out.
 */
export function mergeTop<V>(
  coldSorted: ReadonlyArray<[string, V]>,
  hotSorted: ReadonlyArray<[string, V]>,
  touched: ReadonlyMap<string, V>,
  order: (a: [string, V], b: [string, V]) => number,
  count: number,
  keep: (value: string) => boolean = () => true,
): Array<[string, V]> {
  const result: Array<[string, V]> = [];
  let i = 0;
  let j = 0;
  while (result.length < count) {
    while (i < coldSorted.length && (touched.has(coldSorted[i]![0]) || !keep(coldSorted[i]![0])))
      i += 1;
    while (j < hotSorted.length && !keep(hotSorted[j]![0])) j += 1;
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
