/**
 * Redis stops answering for 10 s and comes back with its data: SIGSTOP, then SIGCONT (a hung
 * server or a network partition; connections stay open and nothing answers). The load goes on
 * for 10 s after. Latency during the outage is compared with latency before it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { faultScenario } from '../fault-scenario';
import type { Outcome } from '../load';
import { percentile, round } from '../stats';
import { pipelinesFlowing, redisP50Ratio } from '../targets';
import { KEYED_KINDS } from '../traffic';

const OUTAGE_MS = 10_000;
const LOAD_AFTER_MS = 10_000;

/**
 * Latencies (ms) of the External API calls sent in [from, to) that were answered. The calls are
 * what a Redis outage must not slow down (limits, quotas and the call log sit on their path);
 * page views are left out, since refusing them fast would flatter the figure.
 */
function apiLatencies(outcomes: readonly Outcome[], from: number, to: number): number[] {
  return outcomes
    .filter(
      (o) =>
        KEYED_KINDS.includes(o.kind) &&
        o.ending === 'answered' &&
        o.startedAt >= from &&
        o.startedAt < to,
    )
    .map((o) => o.latencyMs);
}

export const redisDown = faultScenario({
  name: 'redis_down_10s',
  broke: 'Redis paused',
  back: 'resumed',
  loadAfterMs: LOAD_AFTER_MS,
  async fault({ stack: { redis } }) {
    redis.pause();
    await sleep(OUTAGE_MS);
    redis.resume();
  },
  measure: ({ session, outcomes, recorded, faultAt, restoredAt }) => {
    const duringOutage = apiLatencies(outcomes, faultAt, restoredAt);
    const before = round(percentile(apiLatencies(outcomes, session.startedAt, faultAt), 50));
    const during = round(percentile(duringOutage, 50));
    return {
      figures: {
        p50_before_ms: before,
        p50_during_ms: during,
        p50_ratio: before && during !== null ? round(during / before, 2) : null,
        max_during_ms: round(percentile(duringOutage, 100)),
      },
      targets: [pipelinesFlowing(recorded.flowing), redisP50Ratio(before, during)],
    };
  },
});
