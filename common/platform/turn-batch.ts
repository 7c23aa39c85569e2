import DataLoader from 'dataloader';
import { batchAtTurnEnd } from './turn-end';

/**
 * A DataLoader whose batch is everything asked for in one turn of the event loop: under load the
 * requests received together (several per turn) are served by one command instead of one each.
 * The batch runs at the turn's end (turn-end.ts), once the turn's I/O callbacks have asked, and
 * before the turn's Redis commands are flushed; nothing is cached (every load is a new question,
 * such as a call to count).
 */
export function turnBatch<I, R>(
  run: (items: readonly I[]) => Promise<ReadonlyArray<R | Error>>,
): DataLoader<I, R> {
  return new DataLoader(run, { cache: false, batchScheduleFn: batchAtTurnEnd });
}

/** The indexes of `items`, grouped by `keyOf`, each group in the items' order. */
export function groupIndexes<I>(items: readonly I[], keyOf: (item: I) => string): number[][] {
  const groups = new Map<string, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  return [...groups.values()];
}
