import type { AnalyticsModels } from '../models';
import { DAY_MS } from '../ingest/time-buckets';

/** How often the clean-up runs (FerretDB has no TTL indexes, so it is a job). */
export const RETENTION_EVERY_MS = 60 * 60_000;
/** Hour buckets serve only the 24h range; older ones are dropped (day buckets stay). */
export const HOUR_BUCKET_RETENTION_MS = 2 * DAY_MS;

/**
 * Deletes raw events, replay chunks and visitor records older than the retention period, and hour
 * counters older than two days; the subgraph runs it hourly. Day counters, error groups and replay
 * session summaries are kept.
 */
export class RetentionService {
  constructor(
    private readonly models: AnalyticsModels,
    private readonly retentionDays: number,
  ) {}

  async purge(
    now = Date.now(),
  ): Promise<{ events: number; replayChunks: number; visitors: number; hourCounters: number }> {
    const cutoff = new Date(now - this.retentionDays * DAY_MS);
    const hourCutoff = {
      granularity: 'hour' as const,
      bucket: { $lt: new Date(now - HOUR_BUCKET_RETENTION_MS) },
    };
    const [events, replayChunks, visitors, hourTotals, hourStats] = await Promise.all([
      this.models.Event.deleteMany({ ts: { $lt: cutoff } }),
      this.models.ReplayChunk.deleteMany({ ts: { $lt: cutoff } }),
      this.models.Visitor.deleteMany({ lastSeen: { $lt: cutoff } }),
      this.models.StatTotal.deleteMany(hourCutoff),
      this.models.Stat.deleteMany(hourCutoff),
    ]);
    return {
      events: events.deletedCount,
      replayChunks: replayChunks.deletedCount,
      visitors: visitors.deletedCount,
      hourCounters: hourTotals.deletedCount + hourStats.deletedCount,
    };
  }
}
