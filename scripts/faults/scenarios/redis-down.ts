/**
 * Redis stops answering for 10 s and comes back with its data: SIGSTOP, then SIGCONT (a hung
 * server or a network partition; connections stay open and nothing answers). The load goes on
 * for 10 s after. Latency during the outage is compared with latency before it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Outcome } from '../load';
import {
  clock,
  LoadSession,
  recordedFigures,
  recoveryFigures,
  tallyFigures,
  type Scenario,
} from '../session';
import { percentile, round, tally } from '../stats';
import {
  everyCallLogged,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
  pipelinesFlowing,
  redisP50Ratio,
} from '../targets';
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

export const redisDown: Scenario = {
  name: 'redis_down_10s',
  async run(context) {
    const session = await LoadSession.begin(context, 'redis_down_10s');
    const { redis } = context.stack;
    const faultAt = Date.now();
    redis.pause();
    await sleep(OUTAGE_MS);
    redis.resume();
    const restoredAt = Date.now();
    context.say(`Redis paused at ${clock(faultAt)}, resumed at ${clock(restoredAt)}`);
    session.watchPipelines(restoredAt);
    await sleep(LOAD_AFTER_MS);
    const outcomes = await session.end();
    const recorded = await session.recorded(outcomes, faultAt);
    const t = tally(outcomes);
    const duringOutage = apiLatencies(outcomes, faultAt, restoredAt);
    const before = round(percentile(apiLatencies(outcomes, session.startedAt, faultAt), 50));
    const during = round(percentile(duringOutage, 50));
    return {
      figures: {
        ...tallyFigures(t),
        ...recordedFigures(recorded),
        p50_before_ms: before,
        p50_during_ms: during,
        p50_ratio: before && during !== null ? round(during / before, 2) : null,
        max_during_ms: round(percentile(duringOutage, 100)),
        ...recoveryFigures(outcomes, faultAt, restoredAt),
      },
      targets: [
        noResets(t),
        no5xxButServiceUnavailable(t),
        everyCallLogged(recorded.calls),
        everyEventCounted(recorded.events),
        pipelinesFlowing(recorded.flowing),
        redisP50Ratio(before, during),
      ],
    };
  },
};
