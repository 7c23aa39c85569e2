import { Counter } from 'prom-client';
import { announceReadChange, siteTag } from '../../../../common/contracts/read-cache';
import type { ReadinessCheck } from '../../../../common/platform/health';
import type { Logger } from '../../../../common/platform/logger';
import type { ServiceMetrics } from '../../../../common/platform/metrics';
import { isMongoUnavailable } from '../../../../common/platform/mongo-outage';
import {
  duplicateRedis,
  isRedisUnavailable,
  logRedisErrors,
  type RedisClient,
} from '../../../../common/platform/redis';
import { StreamConsumer, type StreamEntry } from '../../../../common/platform/stream-consumer';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsEventStream,
  type CollectedEvent,
} from '../../../../common/contracts/collected-event';
import type { DayIndexStore } from '../store/day-index';
import { HotApplier } from '../store/hot-applier';
import { dayKeyOf, type DayKey, type HotKeys } from '../store/hot-keys';
import { replaySessionDays, websiteDay } from '../store/hot-writes';
import type { LoggedEvent, RawLog } from '../store/raw-log';
import type { SnapshotStore } from '../store/snapshots';
import { orderedStreamId } from '../store/stream-ids';
import { DayLifecycle } from './day-lifecycle';
import type { BlockCodec } from '../engine/blocks';
import type { SealedBlocks } from '../engine/sealed-blocks';
import { HotBlockMerger } from '../engine/hot-blocks';

const BLOCK_MS = 250;

/** The lease whose holder applies the collected events (the others stand by). */
export const ingestLeaseKey = (redisKeyPrefix: string) => `${redisKeyPrefix}analytics:ingest-lease`;

/** A batch's hot-tier transaction lost to another writer that had not applied the batch. */
class ConcurrentApplyError extends Error {
  override readonly name = 'ConcurrentApplyError';
}

export interface IngestStores {
  redis: RedisClient;
  keys: HotKeys;
  index: DayIndexStore;
  snapshots: SnapshotStore;
  raw: RawLog;
  /** Makes the engine's blocks of each batch (engine/blocks.ts). */
  codec: BlockCodec;
  /** Where a sealed day's block goes (engine/sealed-blocks.ts). */
  sealed: SealedBlocks;
}

export interface IngestOptions {
  redisKeyPrefix: string;
  batchSize: number;
  /** How long a hot day must go without events before it is sealed (days are sealed from two days old). */
  sealQuietMs: number;
  now?: () => number;
  /** Registers `analytics_events_applied_total` and the stream's backlog gauges. */
  metrics?: ServiceMetrics;
}

/**
 * Applies collected events from the Redis stream. Each batch, in stream order, one at a time:
 *  1. every UTC day it touches is made hot (services/day-lifecycle.ts);
 *  2. its raw events are stored in MongoDB (`_id` = the event's id: stored once however often
 *     applied, or appended again after Redis lost the stream; an event stored before under another
 *     stream entry is not counted again);
 *  3. its effect is planned from the hot tier's visitor states, replay sessions and error groups;
 *  4. its effect lands in Redis in one MULTI with the applied marker (the ordered id of its last
 *     entry), watched so that a batch is applied exactly once: a batch whose first entry is not
 *     past the marker was applied already and changes nothing;
 *  5. the generation of each website it touched moves on, so no cached answer computed before
 *     is served again (common/contracts/read-cache.ts);
 *  6. XACK (common/stream-consumer.ts).
 * Between batches, the lease holder seals the days that are due. Nothing on this path reads or
 * updates a document whose cost grows with the stored history: MongoDB only takes inserts.
 */
export class IngestService {
  private readonly stream: string;
  private readonly consumer: StreamConsumer;
  private readonly applier: HotApplier;
  private readonly blockMerger: HotBlockMerger;
  readonly days: DayLifecycle;
  private writerConnection: RedisClient | null = null;
  private readonly now: () => number;
  private queue: Promise<void> = Promise.resolve();
  private readonly metrics: ServiceMetrics | undefined;
  private readonly eventsApplied: Counter | null;
  private readonly redisKeyPrefix: string;

  constructor(
    private readonly stores: IngestStores,
    private readonly logger: Logger,
    options: IngestOptions,
  ) {
    const { redis, keys } = stores;
    this.now = options.now ?? Date.now;
    this.redisKeyPrefix = options.redisKeyPrefix;
    this.stream = analyticsEventStream(options.redisKeyPrefix);
    this.applier = new HotApplier(redis, keys, stores.codec);
    this.blockMerger = new HotBlockMerger(keys, stores.codec);
    this.days = new DayLifecycle(
      redis,
      keys,
      stores.index,
      stores.snapshots,
      stores.raw,
      { codec: stores.codec, sealed: stores.sealed },
      this.applier,
      logger,
      options.sealQuietMs,
      this.now,
    );
    this.consumer = new StreamConsumer({
      redis,
      stream: this.stream,
      group: ANALYTICS_CONSUMER_GROUP,
      logger,
      batchSize: options.batchSize,
      blockMs: BLOCK_MS,
      // Batches read-modify-write the hot tier: one instance applies them at a time.
      exclusive: {
        leaseKey: ingestLeaseKey(options.redisKeyPrefix),
        leaseMs: 15_000,
      },
      handle: (entries, stillLeased) =>
        this.serialized(() => this.applyEntries(entries, stillLeased)),
      between: (stillLeased) => this.serialized(() => this.days.maintain(stillLeased)),
      // A failed batch is retried as it was; an outage blocks rather than dead-letters.
      retry: { maxAttempts: 10, isTransient: isOutage },
      deleteAcknowledged: true,
    });
    this.metrics = options.metrics;
    this.metrics?.watchStream(this.consumer);
    this.eventsApplied = this.metrics
      ? new Counter({
          name: 'analytics_events_applied_total',
          help: 'Collected events applied to the analytics store (each once, however often its batch is read)',
          registers: [this.metrics.registry],
        })
      : null;
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  /** Fails while the stream's group is missing or ingestion is stalled (StreamConsumer). */
  readinessCheck(): ReadinessCheck {
    return this.consumer.readinessCheck('analytics ingest');
  }

  async stop(): Promise<void> {
    await this.consumer.stop();
    this.writerConnection?.disconnect();
    this.writerConnection = null;
  }

  /** WATCH belongs to a connection: the batch's transaction gets one no other command shares. */
  private get writer(): RedisClient {
    if (!this.writerConnection) {
      this.writerConnection = duplicateRedis(this.stores.redis, {
        enableAutoPipelining: false,
      });
      logRedisErrors(
        this.writerConnection,
        this.logger,
        'analytics writer',
        this.metrics?.countRedisError,
      );
    }
    return this.writerConnection;
  }

  /** Whether every entry appended to the stream so far has been read and acknowledged. */
  async caughtUp(): Promise<boolean> {
    const [lastId, groups] = await Promise.all([
      this.stores.redis
        .xinfo('STREAM', this.stream)
        .then((info) => fieldOf(info as unknown[], 'last-generated-id')),
      this.stores.redis.xinfo('GROUPS', this.stream) as Promise<unknown[][]>,
    ]);
    const group = groups.find((g) => fieldOf(g, 'name') === ANALYTICS_CONSUMER_GROUP);
    return (
      group !== undefined &&
      fieldOf(group, 'last-delivered-id') === lastId &&
      Number(fieldOf(group, 'pending')) === 0
    );
  }

  private serialized(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyEntries(
    entries: StreamEntry[],
    stillLeased: () => Promise<void>,
  ): Promise<void> {
    const parsed: LoggedEvent[] = [];
    for (const { id, fields } of entries) {
      try {
        parsed.push({ id, event: JSON.parse(fields.event ?? '') as CollectedEvent });
      } catch {
        this.logger.warn({ id }, 'dropping an unreadable analytics stream entry');
      }
    }
    await this.apply(parsed, stillLeased);
  }

  /**
   * Applies an ordered batch exactly once (see the class comment). A retry or redelivery must
   * present the same entries: the consumer retries a failed batch in place, and takes over a dead
   * holder's pending entries before new ones.
   */
  async apply(
    batch: LoggedEvent[],
    /** Throws when another instance took the lease over (StreamConsumer): checked per step. */
    stillLeased: () => Promise<void> = async () => undefined,
  ): Promise<void> {
    if (batch.length === 0) return;
    const first = orderedStreamId(batch[0]!.id);
    const last = orderedStreamId(batch.at(-1)!.id);
    const { redis, keys, raw } = this.stores;
    const events = batch.map(({ event }) => event);
    // Applied already (a redelivery, perhaps after a crash before the announcement): announced
    // again, which costs a cache miss at most.
    if (((await redis.get(keys.applied)) ?? '') >= first) return this.announce(events);
    const sessionDays = await replaySessionDays(redis, keys, events);
    const pairs = new Set(events.map((e) => websiteDay(e.websiteId, dayKeyOf(e.ts))));
    for (const { website, day } of sessionDays.values()) pairs.add(websiteDay(website, day));
    await stillLeased();
    await this.days.ensureHot(pairs, batch[0]!.id);
    // An event stored before under another entry was appended again after Redis lost the stream:
    // the hot tier has it already (its day was rebuilt from the raw events), so it counts once.
    const storedBefore = await raw.append(batch);
    const counted =
      storedBefore.size === 0 ? batch : batch.filter(({ id }) => !storedBefore.has(id));
    const plan = await this.applier.plan(counted, sessionDays);
    await stillLeased();
    await this.writer.watch(keys.applied);
    if (((await this.writer.get(keys.applied)) ?? '') >= first) {
      await this.writer.unwatch();
      return;
    }
    const multi = this.writer.multi();
    this.applier.queue(multi, plan, this.now(), last);
    multi.set(keys.applied, last);
    const results = await multi.exec();
    if (results === null) {
      if (((await redis.get(keys.applied)) ?? '') >= first) return this.announce(events);
      throw new ConcurrentApplyError('another writer moved the applied marker; retrying the batch');
    }
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    this.eventsApplied?.inc(counted.length);
    await this.mergeHotBlocks(plan.blocks, last);
    await this.announce(events);
  }

  /** The batch is applied whatever happens here: a day's blocks not merged now are merged later. */
  private async mergeHotBlocks(
    days: ReadonlyArray<{ website: string; day: DayKey }>,
    stamp: string,
  ): Promise<void> {
    try {
      await this.blockMerger.merge(this.writer, days, stamp);
    } catch (error) {
      await this.writer.unwatch().catch(() => undefined);
      this.logger.warn({ err: (error as Error).message }, 'could not merge a hot day’s blocks');
    }
  }

  /**
   * Moves on the read generation of every website of an applied batch. The batch stays applied if
   * Redis refuses: cached answers of those websites then live out their maximum age.
   */
  private async announce(events: readonly CollectedEvent[]): Promise<void> {
    const websites = new Set(events.map((event) => event.websiteId));
    try {
      await Promise.all(
        [...websites].map((id) =>
          announceReadChange(this.stores.redis, this.redisKeyPrefix, siteTag(id)),
        ),
      );
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message, websites: websites.size },
        'could not announce applied events to the read cache',
      );
    }
  }
}

/**
 * Errors that say MongoDB or Redis could not be reached (or another writer got in first), rather
 * than that this batch was refused: the batch is retried for as long as that lasts, never
 * dead-lettered.
 */
export function isOutage(error: unknown): boolean {
  return (
    error instanceof ConcurrentApplyError || isMongoUnavailable(error) || isRedisUnavailable(error)
  );
}

function fieldOf(flat: unknown[], name: string): unknown {
  const index = flat.indexOf(name);
  return index === -1 ? undefined : flat[index + 1];
}
