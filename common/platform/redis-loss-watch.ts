import type { Logger } from './logger';
import { isRedisUnavailable, type RedisClient } from './redis';

/**
 * Notices that Redis lost its data (restarted without persistence, flushed, failed over to a
 * replica without it): `key`, which Redis keeps as long as it keeps its data (no expiry; its
 * owner is the caller), is gone. Then `recover` rebuilds from MongoDB what Redis held, and the key
 * is set again; a recovery that fails is tried again at the next check. Checked every `everyMs`
 * (one EXISTS) and as soon as the connection is ready again. The first check after a start finds
 * the key missing when Redis lost its data while the service was down, or when it never ran
 * against this Redis: `recover` must be harmless when nothing was lost.
 */
export class RedisLossWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;
  private readonly onReady = () => this.check();

  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly what: string,
    private readonly recover: () => Promise<void>,
    private readonly logger: Logger,
    private readonly everyMs = 1_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.check(), this.everyMs);
    this.timer.unref();
    this.redis.on('ready', this.onReady);
    this.check();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.redis.off('ready', this.onReady);
    await this.running;
  }

  /** Resolves once the check in hand (or a new one) is done: tests wait for a recovery with it. */
  async settled(): Promise<void> {
    this.check();
    await this.running;
  }

  private check(): void {
    if (this.running) return;
    this.running = this.checkNow().finally(() => (this.running = null));
  }

  private async checkNow(): Promise<void> {
    try {
      if ((await this.redis.exists(this.key)) === 1) return;
      this.logger.warn({ key: this.key }, `redis lost its data: rebuilding ${this.what}`);
      await this.recover();
      await this.redis.set(this.key, new Date().toISOString());
      this.logger.info(`${this.what} rebuilt after the redis data loss`);
      this.failures = 0;
    } catch (error) {
      // An outage is the connection's to report; a recovery that keeps failing is logged.
      if (isRedisUnavailable(error)) return;
      this.failures += 1;
      if ((this.failures & (this.failures - 1)) === 0)
        this.logger.warn(
          { err: (error as Error).message, attempt: this.failures },
          `could not rebuild ${this.what} yet; trying again`,
        );
    }
  }
}
