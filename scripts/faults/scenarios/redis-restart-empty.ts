/**
 * Redis crashes and comes back empty: SIGKILL, then a fresh redis-server (no persistence) on the
 * same port at once, and the load goes on for 15 s. Everything Redis held is gone: counters,
 * streams with their consumer groups, the analytics hot tier, queues.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  clock,
  LoadSession,
  recordedFigures,
  recoveryFigures,
  tallyFigures,
  type Scenario,
} from '../session';
import { round, tally } from '../stats';
import {
  everyCallLogged,
  everyEventCounted,
  no5xxButServiceUnavailable,
  noResets,
  pipelinesFlowing,
} from '../targets';

const LOAD_AFTER_MS = 15_000;

export const redisRestartEmpty: Scenario = {
  name: 'redis_restart_empty',
  async run(context) {
    const session = await LoadSession.begin(context, 'redis_restart_empty');
    const { redis } = context.stack;
    const faultAt = Date.now();
    await redis.crash();
    await redis.restart();
    const restoredAt = Date.now();
    context.say(
      `Redis killed at ${clock(faultAt)}, answering again (empty) at ${clock(restoredAt)}`,
    );
    session.watchPipelines(restoredAt);
    await sleep(LOAD_AFTER_MS);
    const outcomes = await session.end();
    const recorded = await session.recorded(outcomes, faultAt);
    const t = tally(outcomes);
    return {
      figures: {
        ...tallyFigures(t),
        ...recordedFigures(recorded),
        // Accepted before the crash, so applied (or in the stream) when Redis lost everything.
        events_accepted_before_crash: outcomes.filter(
          (o) => o.kind === 'collect' && o.accepted === true && o.endedAt < faultAt,
        ).length,
        redis_away_s: round((restoredAt - faultAt) / 1000, 2),
        ...recoveryFigures(outcomes, faultAt, restoredAt),
      },
      targets: [
        noResets(t),
        no5xxButServiceUnavailable(t),
        everyCallLogged(recorded.calls),
        everyEventCounted(recorded.events),
        pipelinesFlowing(recorded.flowing),
      ],
    };
  },
};
