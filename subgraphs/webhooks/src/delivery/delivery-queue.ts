import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Gauge } from 'prom-client';
import type { Logger } from '../../../../common/platform/logger';
import { createQueueRedis, type RedisClient } from '../../../../common/platform/redis';
import { withScrapeTimeout, type ServiceMetrics } from '../../../../common/platform/metrics';
import type { AttemptScheduler, ScheduledAttempt } from '../services/delivery.service';

export const DELIVERY_QUEUE_NAME = 'webhook-deliveries';

/**
 * BullMQ keys live under `<REDIS_KEY_PREFIX>{bull}:webhook-deliveries:…`, next to the rest of ours;
 * the hash tag keeps the queue in one Redis Cluster slot, as BullMQ's scripts need.
 */
export const bullPrefix = (redisKeyPrefix: string) => `${redisKeyPrefix}{bull}`;

/** How long an attempt waits when its webhook already has its share of slots in use. */
const PARK_MS = 500;

/** Job states in which an attempt will still run without help. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'prioritized', 'active', 'waiting-children']);

const jobIdOf = (attempt: ScheduledAttempt) => `${attempt.deliveryId}-${attempt.attempt}`;

/** BullMQ needs connections that retry forever; the shared one fails fast on purpose. */
function bullConnection(
  url: string,
  logger: Logger,
  role: string,
  metrics: ServiceMetrics | undefined,
): RedisClient {
  const connection = createQueueRedis(url);
  connection.on('error', (error) => {
    metrics?.countRedisError(role);
    logger.warn({ err: error.message }, `${role} redis error`);
  });
  return connection;
}

/**
 * The durable part of delivery: each attempt is a BullMQ job (delayed for retries) in Redis, so
 * queued attempts survive restarts. The job id names delivery and attempt, so the same attempt
 * is never queued twice. A job that throws (our failure, not the receiver's: database down…)
 * is retried by BullMQ itself.
 */
export class DeliveryQueue implements AttemptScheduler {
  private readonly connection: RedisClient;
  private readonly queue: Queue<ScheduledAttempt>;

  constructor(
    redisUrl: string,
    redisKeyPrefix: string,
    logger: Logger,
    /** Registers `webhook_queue_jobs{state}`, read with getJobCounts() on every scrape. */
    metrics?: ServiceMetrics,
  ) {
    this.connection = bullConnection(redisUrl, logger, 'delivery queue', metrics);
    this.queue = new Queue<ScheduledAttempt>(DELIVERY_QUEUE_NAME, {
      connection: this.connection,
      prefix: bullPrefix(redisKeyPrefix),
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 5_000 },
        removeOnComplete: { age: 3_600, count: 10_000 },
        removeOnFail: { age: 7 * 86_400 },
      },
    });
    if (metrics) this.reportDepth(metrics);
  }

  private reportDepth(metrics: ServiceMetrics): void {
    const queue = this.queue;
    new Gauge({
      name: 'webhook_queue_jobs',
      help: 'Delivery attempts in the BullMQ queue by state (absent while Redis does not answer)',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      async collect() {
        // This connection waits for Redis rather than failing: the scrape does not.
        const counts = await withScrapeTimeout(queue.getJobCounts()).catch(() => null);
        this.reset();
        for (const [state, jobs] of Object.entries(counts ?? {})) this.set({ state }, jobs);
      },
    });
  }

  async schedule(attempt: ScheduledAttempt, delayMs: number): Promise<void> {
    await this.queue.add('attempt', attempt, {
      jobId: jobIdOf(attempt),
      delay: Math.max(0, Math.round(delayMs)),
    });
  }

  /**
   * BullMQ ignores adding a job id it still holds, failed jobs included (kept for days by
   * removeOnFail): a finished job of this attempt is removed first, so the attempt keeps one id
   * and is never queued twice at once. A job that became active meanwhile is locked and stays.
   * `stillDue` is asked once the job is known not to be live: a job completes only after its
   * attempt was recorded, so what it reads then is not older than the job's end.
   */
  async requeue(attempt: ScheduledAttempt, stillDue: () => Promise<boolean>): Promise<boolean> {
    const jobId = jobIdOf(attempt);
    const state = await this.queue.getJobState(jobId);
    if (LIVE_STATES.has(state) || !(await stillDue())) return false;
    if (state !== 'unknown' && (await this.queue.remove(jobId)) === 0) return false;
    await this.queue.add('attempt', attempt, { jobId });
    return true;
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

export interface WorkerSettings {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Of those, at most this many for any one webhook, so a hanging receiver cannot take them all. */
  perWebhook: number;
}

/**
 * Runs queued attempts. One slow or failing receiver holds at most `perWebhook` of the
 * `concurrency` slots (each for at most the time-out); its further attempts are parked briefly
 * and the slots go to other webhooks.
 */
export class DeliveryWorker {
  private readonly connection: RedisClient;
  private readonly worker: Worker<ScheduledAttempt>;
  private readonly inFlight = new Map<string, number>();

  constructor(
    redisUrl: string,
    redisKeyPrefix: string,
    private readonly settings: WorkerSettings,
    private readonly handle: (deliveryId: string, attempt: number) => Promise<void>,
    logger: Logger,
    metrics?: ServiceMetrics,
  ) {
    this.connection = bullConnection(redisUrl, logger, 'delivery worker', metrics);
    this.worker = new Worker<ScheduledAttempt>(
      DELIVERY_QUEUE_NAME,
      (job, token) => this.process(job, token),
      {
        connection: this.connection,
        prefix: bullPrefix(redisKeyPrefix),
        concurrency: settings.concurrency,
      },
    );
    this.worker.on('failed', (job, error) =>
      logger.error({ err: error, jobId: job?.id }, 'delivery job failed'),
    );
    this.worker.on('error', (error) =>
      logger.warn({ err: error.message }, 'delivery worker error'),
    );
  }

  private async process(job: Job<ScheduledAttempt>, token: string | undefined): Promise<void> {
    const { deliveryId, webhookId, attempt } = job.data;
    const busy = this.inFlight.get(webhookId) ?? 0;
    if (busy >= this.settings.perWebhook) {
      await job.moveToDelayed(Date.now() + PARK_MS + Math.round(Math.random() * PARK_MS), token);
      throw new DelayedError();
    }
    this.inFlight.set(webhookId, busy + 1);
    try {
      await this.handle(deliveryId, attempt);
    } finally {
      const left = (this.inFlight.get(webhookId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(webhookId, left);
      else this.inFlight.delete(webhookId);
    }
  }

  async close(): Promise<void> {
    await this.worker.close();
    this.connection.disconnect();
  }
}
