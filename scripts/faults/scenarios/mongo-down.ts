/**
 * The MongoDB engine crashes (SIGKILL) and is started again 10 s later on the same port and
 * data; the load goes on for 10 s after. While it is away the subgraphs' circuits should answer
 * 503 at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { faultScenario } from '../fault-scenario';
import type { Outcome } from '../load';
import { latencies, percentile, round } from '../stats';
import { CIRCUITS_OPEN_MS, fast503s } from '../targets';

const OUTAGE_MS = 10_000;
const LOAD_AFTER_MS = 10_000;

/** 503 answers to requests sent in [from, to). */
function answers503(outcomes: readonly Outcome[], from: number, to = Infinity): Outcome[] {
  return outcomes.filter(
    (o) => o.ending === 'answered' && o.status === 503 && o.startedAt >= from && o.startedAt < to,
  );
}

/** The slowest answer's route and when it was sent after `since`: `analytics@8.68s`. */
function slowest(outcomes: readonly Outcome[], since: number): string | null {
  const found = outcomes.reduce<Outcome | null>(
    (a, o) => (a && a.latencyMs >= o.latencyMs ? a : o),
    null,
  );
  return found ? `${found.kind}@${round((found.startedAt - since) / 1000, 2)}s` : null;
}

export const mongoDown = faultScenario({
  name: 'mongo_down_10s',
  broke: 'the database killed',
  back: 'answering again',
  loadAfterMs: LOAD_AFTER_MS,
  async fault({ stack: { mongo } }) {
    await mongo.crash();
    await sleep(OUTAGE_MS);
    await mongo.restart();
  },
  measure: ({ outcomes, faultAt, restoredAt }) => {
    const opening = answers503(outcomes, faultAt, faultAt + CIRCUITS_OPEN_MS);
    const afterOpen = answers503(outcomes, faultAt + CIRCUITS_OPEN_MS);
    const p50 = round(percentile(latencies(afterOpen), 50));
    const max = round(percentile(latencies(afterOpen), 100));
    return {
      figures: {
        mongo_away_s: round((restoredAt - faultAt) / 1000, 2),
        unavailable_after_3s: afterOpen.length,
        unavailable_p50_ms: p50,
        unavailable_max_ms: max,
        unavailable_slowest: slowest(afterOpen, faultAt),
        unavailable_first_3s: opening.length,
        unavailable_max_first_3s_ms: round(percentile(latencies(opening), 100)),
        unavailable_slowest_first_3s: slowest(opening, faultAt),
      },
      targets: [fast503s(afterOpen.length, p50, max)],
    };
  },
});
