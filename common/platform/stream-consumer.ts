import { hostname } from 'node:os';
import type { ChainableCommander } from 'ioredis';
import type { ReadinessCheck } from './health';
import type { Logger } from './logger';
import type { StreamBacklog } from './metrics';
import { duplicateRedis, logRedisErrors, type RedisClient } from './redis';

/** How long entries stay pending on a consumer that died before a live one claims them. */
export const CLAIM_IDLE_MS = 30_000;

export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

export interface StreamConsumerOptions {
  redis: RedisClient;
  /**
   * With `retry`, its name carries a hash tag (`<prefix>{calls}`): its dead-letter stream must
   * share its Redis Cluster slot (deadLetterStream).
   */
  stream: string;
  group: string;
  logger: Logger;
  /**
   * Applies a batch; must be idempotent (entries are redelivered after a crash). With `exclusive`,
   * `stillLeased` throws LeaseLostError once another instance holds the lease: call it before
   * each step that writes, so a holder that stalled past its lease stops instead of writing
   * beside the new one.
   */
  handle(entries: StreamEntry[], stillLeased: () => Promise<void>): Promise<void>;
  /**
   * Runs after every read (whether it brought entries or not) while this consumer holds the lease:
   * background work that must not run beside `handle`, such as compaction. It should bound its
   * own duration; a failure is logged and retried like a failed read.
   */
  between?(stillLeased: () => Promise<void>): Promise<void>;
  batchSize?: number;
  blockMs?: number;
  /** Entries pending this long on a dead consumer are claimed by a live one (CLAIM_IDLE_MS). */
  claimIdleMs?: number;
  /**
   * For handlers that must not run concurrently (read-modify-write of shared state): only the
   * instance holding this Redis lease consumes; the others wait as hot standbys and take over
   * when the holder stops renewing it.
   */
  exclusive?: { leaseKey: string; leaseMs: number };
  /**
   * For handlers that must see batches in stream order and exactly as first delivered, or that
   * should apply a failed batch as soon as they can rather than a claim timeout later: a failed
   * batch is retried in place before anything new is read, and (with `exclusive`) entries left
   * pending by a previous lease holder are taken over before new ones. A batch that failed
   * `maxAttempts` times in a row, not counting failures `isTransient` excuses (an outage must
   * block, not discard), is dead-lettered: copied to `{stream}:dead` with its original id and the
   * error, logged with its ids, and acknowledged.
   */
  retry?: { maxAttempts: number; isTransient?: (error: unknown) => boolean };
  /**
   * When this group is the stream's only reader: acknowledged entries are deleted too (XACK and
   * XDEL in one MULTI), so the stream holds only the backlog and its MAXLEN cap bounds a backlog
   * rather than trimming history; without it, acknowledged entries stay until the cap trims them.
   */
  deleteAcknowledged?: boolean;
  /**
   * How long the consumer may go without progress while its group has a backlog before its
   * readiness check fails (see `readinessCheck`). Default 60 s.
   */
  stallAfterMs?: number;
}

/** Another consumer holds the lease now: the batch in hand is left to it. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/**
 * Where `retry` moves entries that keep failing: in the stream's hash tag when its name has one
 * (`<prefix>{calls}` → `<prefix>{calls}:dead`), so on a Redis Cluster the MULTI that copies and
 * acknowledges them stays in one slot.
 */
export const deadLetterStream = (stream: string) => `${stream}:dead`;

const DEFAULT_STALL_AFTER_MS = 60_000;
/** Readiness probes within this long of one another share one XINFO GROUPS. */
const BACKLOG_CACHE_MS = 2_000;

/** What XINFO GROUPS says of this consumer's group. */
interface Backlog {
  /** Delivered to a consumer and not yet acknowledged. */
  pending: number;
  /** Not yet delivered; null when entries were deleted in a way Redis cannot count past. */
  lag: number | null;
  /** Whether anything is left to handle: pending, or entries after the last delivered one. */
  waiting: boolean;
}

/** Take the lease if free, or extend it if it is ours: 1 when held afterwards, else 0. */
const HOLD_LEASE = `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if owner then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;
const RELEASE_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Reads a Redis stream through a consumer group: at-least-once, acknowledged only after
 * `handle` succeeded, with entries of crashed consumers reclaimed. Several instances share the
 * work (or, with `exclusive`, one works and the others stand by). `stop()` lets the batch in hand
 * finish.
 */
export class StreamConsumer {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly consumer = `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private reader: RedisClient | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** When the loop last completed a pass (see `readinessCheck`). */
  private lastProgressAt = Date.now();
  private backlogCache: { at: number; backlog: Promise<Backlog> } | null = null;

  constructor(private readonly options: StreamConsumerOptions) {}

  async start(): Promise<void> {
    const { redis, stream } = this.options;
    await this.createGroup();
    // Blocking reads get their own connection so they never delay other commands.
    this.reader = duplicateRedis(redis, { enableOfflineQueue: true });
    logRedisErrors(this.reader, this.options.logger, `${stream} reader`);
    this.running = true;
    this.lastProgressAt = Date.now();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    const lease = this.options.exclusive;
    if (lease)
      await this.options.redis
        .eval(RELEASE_LEASE, 1, lease.leaseKey, this.consumer)
        .catch(() => undefined);
    this.reader?.disconnect();
  }

  /**
   * Processes whatever is available now, and waits for batches the background loop is still
   * applying (used by tests and shutdown).
   */
  async drain(): Promise<void> {
    if (!(await this.holdLease())) return;
    while ((await this.readOnce(0)) > 0) {
      /* keep going until the stream is empty */
    }
    await Promise.all(this.inFlight);
  }

  /**
   * For `/readyz`: fails while the group is missing (until the loop has recreated it), or while
   * the consumer is stalled. Stalled means both:
   * - the group has a backlog: entries pending (delivered, not acknowledged) or not yet delivered
   *   (XINFO GROUPS `lag`, or an entry after `last-delivered-id` when Redis cannot tell the lag);
   * - this consumer has not made progress for `stallAfterMs` (default 60 s), progress being a
   *   pass of its loop that completed: a read answered and what it brought was handled and
   *   acknowledged (or dead-lettered), or, as the standby of an `exclusive` consumer, the lease
   *   was found held elsewhere. A handler that hangs or keeps failing, a loop that keeps erring,
   *   and a stopped consumer all stop progress; an idle one (empty reads every `blockMs`) does not.
   * An instance idle beside a busy one is therefore ready; the stuck one is not. Costs one
   * XINFO GROUPS per probe at most, shared by probes within 2 s.
   */
  readinessCheck(name: string): ReadinessCheck {
    return { name, check: () => this.assertProgressing() };
  }

  /**
   * For metrics (ServiceMetrics.watchStream): what XINFO GROUPS says of this consumer's group,
   * read at most once per 2 s together with the readiness probes. Rejects while the group is
   * missing.
   */
  async backlog(): Promise<StreamBacklog> {
    const { stream, group } = this.options;
    const { pending, lag } = await this.cachedBacklog();
    return { stream, group, pending, lag };
  }

  private async holdLease(): Promise<boolean> {
    const lease = this.options.exclusive;
    if (!lease) return true;
    return (
      (await this.options.redis.eval(
        HOLD_LEASE,
        1,
        lease.leaseKey,
        this.consumer,
        lease.leaseMs,
      )) === 1
    );
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (!(await this.holdLease())) {
          this.lastProgressAt = Date.now();
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(this.options.exclusive!.leaseMs / 3, 1_000)),
          );
          continue;
        }
        await this.readOnce(this.options.blockMs ?? 1_000);
        await this.options.between?.(() => this.assertLeased());
        this.lastProgressAt = Date.now();
        if (failures > 0)
          this.options.logger.info(
            { stream: this.options.stream, failures },
            'stream consumer recovered',
          );
        failures = 0;
      } catch (error) {
        failures += 1;
        if (worthLogging(failures))
          this.options.logger.warn(
            { err: (error as Error).message, stream: this.options.stream, failures },
            'stream consumer error; retrying',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(failures * 200, 2_000)));
      }
    }
  }

  /**
   * Creates the group (and the stream), unless it exists; true when this call created it.
   *
   * At `0`, not `$`: when the group is missing because Redis lost its data, the stream holds only
   * what producers appended since (their XADD recreated it), which nobody has read; `$` would skip
   * exactly those entries. After a failover to a replica that kept the stream but not the group,
   * `0` re-reads entries that may have been handled already: handlers are idempotent, and with
   * `deleteAcknowledged` the handled ones are gone anyway.
   */
  private async createGroup(): Promise<boolean> {
    const { redis, stream, group } = this.options;
    try {
      await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
      return true;
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
      return false;
    }
  }

  /**
   * After a read found the group or stream gone (Redis restarted without persistence, FLUSHALL,
   * a failover to a replica without the group, the key deleted): recreates them and says so once.
   * Entries that were pending vanished with the group; nothing here still refers to them, and an
   * acknowledgement of one that is in hand answers 0 rather than an error.
   */
  private async recreateGroup(cause: unknown): Promise<void> {
    const { stream, group, logger } = this.options;
    if (await this.createGroup())
      logger.warn(
        { stream, group, err: (cause as Error).message },
        'stream consumer group was missing (Redis lost its data?); recreated it from the start of the stream',
      );
  }

  private async readOnce(blockMs: number): Promise<number> {
    let entries: StreamEntry[];
    try {
      entries = await this.read(blockMs);
    } catch (error) {
      if (!isGroupLost(error)) throw error;
      await this.recreateGroup(error);
      // At once: producers may have appended since the loss (a failure here is retried by `run`).
      entries = await this.read(blockMs);
    }
    if (entries.length === 0) return 0;
    return this.process(entries);
  }

  /** The next batch: orphans of a previous lease holder, idle entries of dead consumers, or new. */
  private async read(blockMs: number): Promise<StreamEntry[]> {
    const { stream, group, batchSize = 500, claimIdleMs = CLAIM_IDLE_MS } = this.options;
    const reader = this.reader ?? this.options.redis;
    const orphaned = await this.claimOrphans();
    if (orphaned.length > 0) return orphaned;
    const claimed = (await reader.xautoclaim(
      stream,
      group,
      this.consumer,
      claimIdleMs,
      '0',
      'COUNT',
      batchSize,
    )) as [string, Array<[string, string[]] | null>];
    let entries = toEntries(claimed[1]);
    if (entries.length === 0) {
      const args: Array<string | number> = ['GROUP', group, this.consumer, 'COUNT', batchSize];
      if (blockMs > 0) args.push('BLOCK', blockMs);
      const result = (await (
        reader.xreadgroup as (...a: Array<string | number>) => Promise<unknown>
      )(...args, 'STREAMS', stream, '>')) as Array<[string, Array<[string, string[]]>]> | null;
      entries = toEntries(result?.[0]?.[1] ?? []);
    }
    return entries;
  }

  private async process(entries: StreamEntry[]): Promise<number> {
    const applying = this.whileHoldingLease(() => this.handleWithRetry(entries));
    this.inFlight.add(applying);
    try {
      if ((await applying) === 'dead-lettered') return entries.length;
    } finally {
      this.inFlight.delete(applying);
    }
    await this.acknowledgeInPlace(entries);
    return entries.length;
  }

  /**
   * Acknowledges an applied batch before anything newer is read, retrying while Redis fails:
   * read on, a later batch would be applied before this one came back (30 s later) and this one
   * would then be applied a second time over newer states. When stopping, the entries stay
   * pending and the next holder takes them over (their apply is then a no-op).
   */
  private async acknowledgeInPlace(entries: StreamEntry[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.acknowledge(this.options.redis.multi(), entries);
        return;
      } catch (error) {
        if (!this.running) throw error;
        if (worthLogging(attempt))
          this.options.logger.warn(
            { err: (error as Error).message, stream: this.options.stream, attempt },
            'could not acknowledge an applied batch; retrying before reading on',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 200, 2_000)));
      }
    }
  }

  /**
   * With `retry` and `exclusive`: entries another consumer of the group left pending (a holder
   * that stopped or died mid-batch) are claimed at once, so they are applied before anything newer.
   * Our own pending entries are the batch in hand and are left alone.
   */
  private async claimOrphans(): Promise<StreamEntry[]> {
    const { redis, stream, group, batchSize = 500, retry, exclusive } = this.options;
    if (!retry || !exclusive) return [];
    const pending = (await redis.xpending(stream, group, '-', '+', batchSize)) as Array<
      [string, string, number, number]
    >;
    const ids = pending.filter(([, owner]) => owner !== this.consumer).map(([id]) => id);
    if (ids.length === 0) return [];
    const claimed = (await redis.xclaim(stream, group, this.consumer, 0, ...ids)) as Array<
      [string, string[]] | null
    >;
    return toEntries(claimed);
  }

  private async handleWithRetry(entries: StreamEntry[]): Promise<'handled' | 'dead-lettered'> {
    const { retry, logger, stream } = this.options;
    let failures = 0;
    let attempt = 0;
    for (;;) {
      try {
        await this.options.handle(entries, () => this.assertLeased());
        if (attempt > 0)
          logger.info({ stream, first: entries[0]?.id, attempt }, 'stream batch applied on retry');
        return 'handled';
      } catch (error) {
        // Without `retry`, or when stopping, the entries stay pending and are claimed again; a
        // lost lease leaves them to the new holder.
        if (!retry || !this.running || error instanceof LeaseLostError) throw error;
        attempt += 1;
        if (!retry.isTransient?.(error)) failures += 1;
        if (failures >= retry.maxAttempts) {
          await this.deadLetter(entries, error);
          return 'dead-lettered';
        }
        if (worthLogging(attempt))
          logger.warn(
            { err: (error as Error).message, stream, first: entries[0]?.id, attempt },
            'stream batch failed; retrying it in place',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 200, 2_000)));
        if (!(await this.leaseStillOurs())) {
          // Another instance holds the lease now and takes these entries over: retrying here
          // would apply the batch beside it.
          logger.warn({ stream, first: entries[0]?.id }, 'lease lost; batch left to its holder');
          throw error;
        }
      }
    }
  }

  private async deadLetter(entries: StreamEntry[], error: unknown): Promise<void> {
    const { redis, stream, logger } = this.options;
    const reason = String((error as Error)?.message ?? error).slice(0, 1_000);
    const multi = redis.multi();
    for (const entry of entries)
      multi.xadd(
        deadLetterStream(stream),
        '*',
        'original_id',
        entry.id,
        'error',
        reason,
        ...Object.entries(entry.fields).flat(),
      );
    await this.acknowledge(multi, entries);
    logger.error(
      { stream, ids: entries.map((e) => e.id), err: reason },
      'stream entries kept failing; moved to the dead-letter stream and acknowledged',
    );
  }

  /** Acknowledges (and with `deleteAcknowledged` deletes) the entries, after whatever `multi` holds. */
  private async acknowledge(multi: ChainableCommander, entries: StreamEntry[]): Promise<void> {
    const { stream, group, deleteAcknowledged } = this.options;
    const ids = entries.map((e) => e.id);
    multi.xack(stream, group, ...ids);
    if (deleteAcknowledged) multi.xdel(stream, ...ids);
    const results = await multi.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error(`acknowledging ${stream} was aborted`);
  }

  /** With `exclusive`: throws LeaseLostError unless this consumer still holds the lease. */
  private async assertLeased(): Promise<void> {
    if (!(await this.leaseStillOurs())) throw new LeaseLostError('the lease is held elsewhere');
  }

  /**
   * With `exclusive`: whether this consumer still holds the lease (renewing it), false as soon as
   * another one does. While Redis cannot be asked, it waits: the lease may well still be ours.
   */
  private async leaseStillOurs(): Promise<boolean> {
    if (!this.options.exclusive) return true;
    for (;;) {
      try {
        return await this.holdLease();
      } catch {
        if (!this.running) return false;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Keeps renewing the lease while a (possibly long) batch is applied. */
  private async whileHoldingLease<T>(work: () => Promise<T>): Promise<T> {
    const lease = this.options.exclusive;
    if (!lease) return work();
    const renew = setInterval(
      () => void this.holdLease().catch(() => undefined),
      lease.leaseMs / 3,
    );
    try {
      return await work();
    } finally {
      clearInterval(renew);
    }
  }

  private async assertProgressing(): Promise<void> {
    const { stream, group, stallAfterMs = DEFAULT_STALL_AFTER_MS } = this.options;
    const backlog = await this.cachedBacklog();
    const quietMs = Date.now() - this.lastProgressAt;
    if (backlog.waiting && quietMs > stallAfterMs)
      throw new Error(
        `${stream} ${group}: no progress for ${Math.round(quietMs / 1_000)} s with entries waiting (pending ${backlog.pending}, lag ${backlog.lag ?? 'unknown'})`,
      );
  }

  private cachedBacklog(): Promise<Backlog> {
    const now = Date.now();
    if (!this.backlogCache || now - this.backlogCache.at > BACKLOG_CACHE_MS)
      this.backlogCache = { at: now, backlog: this.readBacklog() };
    return this.backlogCache.backlog;
  }

  private async readBacklog(): Promise<Backlog> {
    const { redis, stream, group } = this.options;
    const missing = () => new Error(`${stream}: consumer group ${group} is missing`);
    const groups = (await redis.xinfo('GROUPS', stream).catch((error: unknown) => {
      if (/no such key/i.test((error as Error).message)) throw missing();
      throw error;
    })) as unknown[][];
    const info = groups.find((fields) => fieldOf(fields, 'name') === group);
    if (!info) throw missing();
    const pending = Number(fieldOf(info, 'pending'));
    const rawLag = fieldOf(info, 'lag');
    const lag = rawLag === null || rawLag === undefined ? null : Number(rawLag);
    let undelivered = (lag ?? 0) > 0;
    if (lag === null) {
      const next = await redis.xrange(
        stream,
        `(${String(fieldOf(info, 'last-delivered-id'))}`,
        '+',
        'COUNT',
        1,
      );
      undelivered = next.length > 0;
    }
    return { pending, lag, waiting: pending > 0 || undelivered };
  }
}

/**
 * The group or its stream is gone: NOGROUP from a read or claim, or a blocked read released
 * because the key was deleted (FLUSHALL, DEL).
 */
function isGroupLost(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return (
    message.startsWith('NOGROUP') || message.startsWith('UNBLOCKED the stream key no longer exists')
  );
}

function fieldOf(flat: unknown[], name: string): unknown {
  const index = flat.indexOf(name);
  return index === -1 ? undefined : flat[index + 1];
}

function toEntries(raw: Array<[string, string[]] | null>): StreamEntry[] {
  return raw
    .filter((item): item is [string, string[]] => item !== null)
    .map(([id, list]) => {
      const fields: Record<string, string> = {};
      for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]!] = list[i + 1]!;
      return { id, fields };
    });
}

/**
 * Retries during an outage are logged at attempts 1, 2, 4, 8, …: a minute-long MongoDB or Redis
 * outage gives a handful of lines, not one every two seconds.
 */
function worthLogging(attempt: number): boolean {
  return (attempt & (attempt - 1)) === 0;
}
