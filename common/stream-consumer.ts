import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from './logger';

export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

export interface StreamConsumerOptions {
  redis: Redis;
  stream: string;
  group: string;
  logger: Logger;
  /** Applies a batch; must be idempotent (entries are redelivered after a crash). */
  handle(entries: StreamEntry[]): Promise<void>;
  batchSize?: number;
  blockMs?: number;
  /** Entries pending this long on a dead consumer are claimed by a live one. */
  claimIdleMs?: number;
  /**
   * For handlers that must not run concurrently (read-modify-write of shared state): only the
   * instance holding this Redis lease consumes; the others wait as hot standbys and take over
   * when the holder stops renewing it.
   */
  exclusive?: { leaseKey: string; leaseMs: number };
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
  private reader: Redis | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: StreamConsumerOptions) {}

  async start(): Promise<void> {
    const { redis, stream, group } = this.options;
    try {
      await redis.xgroup('CREATE', stream, group, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
    }
    // Blocking reads get their own connection so they never delay other commands.
    this.reader = redis.duplicate({ enableOfflineQueue: true });
    this.running = true;
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
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(this.options.exclusive!.leaseMs / 3, 1_000)),
          );
          continue;
        }
        await this.readOnce(this.options.blockMs ?? 1_000);
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.logger.warn(
          { err: (error as Error).message, stream: this.options.stream },
          'stream consumer error; retrying',
        );
        await new Promise((resolve) => setTimeout(resolve, Math.min(failures * 200, 2_000)));
      }
    }
  }

  private async readOnce(blockMs: number): Promise<number> {
    const { stream, group, batchSize = 500, claimIdleMs = 30_000 } = this.options;
    const reader = this.reader ?? this.options.redis;
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
    if (entries.length === 0) return 0;
    const applying = this.whileHoldingLease(() => this.options.handle(entries));
    this.inFlight.add(applying);
    try {
      await applying;
    } finally {
      this.inFlight.delete(applying);
    }
    await this.options.redis.xack(stream, group, ...entries.map((e) => e.id));
    return entries.length;
  }

  /** Keeps renewing the lease while a (possibly long) batch is applied. */
  private async whileHoldingLease(work: () => Promise<void>): Promise<void> {
    const lease = this.options.exclusive;
    if (!lease) return work();
    const renew = setInterval(
      () => void this.holdLease().catch(() => undefined),
      lease.leaseMs / 3,
    );
    try {
      await work();
    } finally {
      clearInterval(renew);
    }
  }
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
