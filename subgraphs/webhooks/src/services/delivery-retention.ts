import type { Logger } from '../../../../common/platform/logger';
import type { WebhooksModels } from '../models';

/** How often the clean-up runs (FerretDB has no TTL indexes, so it is a job). */
export const DELIVERY_RETENTION_EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Deletes finished delivery records (succeeded, failed, cancelled) older than the retention
 * period; the subgraph runs it hourly. Pending deliveries are never touched, however old.
 * Several instances may run it at once; deleting is idempotent.
 */
export class DeliveryRetention {
  constructor(
    private readonly models: WebhooksModels,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  /** Returns how many delivery records were deleted. */
  async purge(now = Date.now()): Promise<number> {
    const result = await this.models.WebhookDelivery.deleteMany({
      status: { $in: ['succeeded', 'failed', 'cancelled'] },
      createdAt: { $lt: new Date(now - this.retentionDays * DAY_MS) },
    });
    if (result.deletedCount > 0)
      this.logger.info({ deleted: result.deletedCount }, 'old webhook deliveries deleted');
    return result.deletedCount;
  }
}
