import DataLoader from 'dataloader';

/**
 * A DataLoader whose batch is everything asked for in one turn of the event loop: under load the
 * requests received together (several per turn) are served by one command instead of one each.
 * The batch runs in a setImmediate, once the turn's I/O callbacks have asked; nothing is cached
 * (every load is a new question, such as a call to count).
 */
export function turnBatch<I, R>(
  run: (items: readonly I[]) => Promise<ReadonlyArray<R | Error>>,
): DataLoader<I, R> {
  return new DataLoader(run, { cache: false, batchScheduleFn: (batch) => setImmediate(batch) });
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
