import type { Logger } from '../../../../common/logger';
import type { WebhooksModels } from '../models';

const EVERY_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Deletes finished delivery records (succeeded, failed, cancelled) older than the retention
 * period, hourly: FerretDB has no TTL indexes. Pending deliveries are never touched, however
 * old. Several instances may run it at once; deleting is idempotent.
 */
export class DeliveryRetention {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly models: WebhooksModels,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const run = () =>
      void this.purge().catch((error: unknown) =>
        this.logger.error({ err: error }, 'webhook delivery clean-up failed'),
      );
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    run();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

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
