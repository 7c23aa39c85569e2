/**
 * The end of a turn of the event loop, in two steps that run once the turn's I/O callbacks have:
 * first the batches the turn gathered (turn-batch.ts), then the flushes of what the turn wrote (a
 * Redis socket corked at its first command, redis.ts). So the commands a batch sends leave in the
 * same write as the ones the turn's callbacks sent before it: a cached External API read sends its
 * key and cache checks and its admission (the limits) in one round trip, where a flush that ran
 * before the batch made that two. Each step is a setImmediate of its own, queued together, so the promise
 * jobs a batch starts (and the commands they send) also run before the flush.
 */
interface TurnEnd {
  readonly batches: Array<() => void>;
  readonly flushes: Array<() => void>;
}

/** The turn end whose batches have not run yet: batches and flushes asked for now join it. */
let open: TurnEnd | null = null;
/** The turn end whose batches ran and whose flushes have not: a flush asked for now joins it. */
let closing: TurnEnd | null = null;

function newTurnEnd(): TurnEnd {
  const end: TurnEnd = { batches: [], flushes: [] };
  open = end;
  setImmediate(() => {
    if (open === end) open = null;
    closing = end;
    for (const run of end.batches) run();
  });
  setImmediate(() => {
    if (closing === end) closing = null;
    for (const flush of end.flushes) flush();
  });
  return end;
}

/** Runs `batch` at the end of this turn, before its flushes (a batch asked for later: the next). */
export function batchAtTurnEnd(batch: () => void): void {
  (open ?? newTurnEnd()).batches.push(batch);
}

/** Runs `flush` at the end of this turn, after its batches. */
export function flushAtTurnEnd(flush: () => void): void {
  (closing ?? open ?? newTurnEnd()).flushes.push(flush);
}
