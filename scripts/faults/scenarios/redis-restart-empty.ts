/**
 * Redis crashes and comes back empty: SIGKILL, then a fresh redis-server (no persistence) on the
 * same port at once, and the load goes on for 15 s. Everything Redis held is gone: counters,
 * streams with their consumer groups, the analytics hot tier, queues.
 */
import { faultScenario } from '../fault-scenario';
import { round } from '../stats';
import { pipelinesFlowing } from '../targets';

export const redisRestartEmpty = faultScenario({
  name: 'redis_restart_empty',
  broke: 'Redis killed',
  back: 'answering again (empty)',
  loadAfterMs: 15_000,
  async fault({ stack: { redis } }) {
    await redis.crash();
    await redis.restart();
  },
  measure: ({ outcomes, recorded, faultAt, restoredAt }) => ({
    figures: {
      // Accepted before the crash, so applied (or in the stream) when Redis lost everything.
      events_accepted_before_crash: outcomes.filter(
        (o) => o.kind === 'collect' && o.accepted === true && o.endedAt < faultAt,
      ).length,
      redis_away_s: round((restoredAt - faultAt) / 1000, 2),
    },
    targets: [pipelinesFlowing(recorded.flowing)],
  }),
});
