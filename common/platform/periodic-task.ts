import type { Logger } from './logger';

/**
 * Runs `task` at once and then every `everyMs` in the background (the timer does not keep the
 * process alive). A run still going when the next one is due is not doubled; failures are logged
 * and the next run tries again. `stop()` waits for the run in hand.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly everyMs: number,
    private readonly task: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
    this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.task()
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error }, `${this.name} failed`),
      )
      .finally(() => (this.running = null));
  }
}
