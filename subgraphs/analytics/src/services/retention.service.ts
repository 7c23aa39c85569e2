import { DAY_MS } from '../ingest/time-buckets';
import type { RawLog } from '../store/raw-log';
import type { SnapshotStore } from '../store/snapshots';

/** How often the clean-up runs (FerretDB has no TTL indexes, so it is a job). */
export const RETENTION_EVERY_MS = 60 * 60_000;

/**
 * Drops the partitions of raw events (daily), replay chunks and visitor records (monthly) that
 * lie wholly before the retention period; the subgraph runs it hourly. Sealed day snapshots
 * (counters, heatmaps, error groups, replay session summaries), the engine's blocks and the day
 * index are kept. Hour
 * counters never leave the hot tier: they go when their day is sealed.
 */
export class RetentionService {
  constructor(
    private readonly raw: RawLog,
    private readonly snapshots: SnapshotStore,
    private readonly retentionDays: number,
  ) {}

  async purge(now = Date.now()): Promise<{ dropped: string[] }> {
    const cutoff = now - this.retentionDays * DAY_MS;
    const { events, replayChunks } = await this.raw.dropBefore(cutoff);
    const visitors = await this.snapshots.dropVisitorsBefore(cutoff);
    return { dropped: [...events, ...replayChunks, ...visitors] };
  }
}
