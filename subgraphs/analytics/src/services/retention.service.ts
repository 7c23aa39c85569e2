import type { Logger } from '../../../../common/logger';
import type { AnalyticsModels } from '../models';
import { DAY_MS } from '../ingest/time-buckets';

const EVERY_MS = 60 * 60_000;
/** Hour buckets serve only the 24h range; older ones are dropped (day buckets stay). */
export const HOUR_BUCKET_RETENTION_MS = 2 * DAY_MS;

/**
 * Deletes raw events, replay chunks and visitor records older than the retention period, hourly
 * (FerretDB has no TTL indexes), and hour counters older than two days. Day counters, error groups
 * and replay session summaries are kept.
 */
export class RetentionService {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly models: AnalyticsModels,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const run = () =>
      void this.purge().catch((error: unknown) =>
        this.logger.error({ err: error }, 'retention clean-up failed'),
      );
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    run();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

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
