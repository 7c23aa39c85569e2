import type { RedisClient } from '../../../common/platform/redis';
import type { Logger } from '../../../common/platform/logger';
import { usageKeys } from '../../../common/contracts/usage-keys';
import type { UsageScripts } from './usage-scripts';

/** At most this many keys are remembered; an outage long enough to exceed it is logged. */
const MAX_KEYS = 100_000;

/**
 * Calls answered while Redis could not count them, per key and UTC day, added to the keys'
 * totals (`X-Usage-Total`, `totalRequests`) and daily counts once Redis answers again. Held in
 * this process only: a facade that dies during the outage loses them (its call log buffer too).
 */
export class UncountedCalls {
  private pending = new Map<string, Map<string, number>>();
  private overflowWarned = false;
  private flushing: Promise<void> | null = null;
  private readonly keys: ReturnType<typeof usageKeys>;

  constructor(
    redis: RedisClient,
    private readonly scripts: UsageScripts,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.keys = usageKeys(prefix);
    // Also when no call comes after the outage to trigger it.
    redis.on('ready', () => void this.flush());
  }

  add(keyId: string, now: Date): void {
    let days = this.pending.get(keyId);
    if (!days) {
      if (this.pending.size >= MAX_KEYS) {
        if (!this.overflowWarned)
          this.logger.warn(
            { keys: MAX_KEYS },
            'too many keys called during the redis outage: totals of the rest are not kept',
          );
        this.overflowWarned = true;
        return;
      }
      this.pending.set(keyId, (days = new Map()));
    }
    const day = now.toISOString().slice(0, 10);
    days.set(day, (days.get(day) ?? 0) + 1);
  }

  /** Takes back a call added and then undone (its key turned out revoked: nothing counts). */
  remove(keyId: string, now: Date): void {
    const days = this.pending.get(keyId);
    const day = now.toISOString().slice(0, 10);
    const count = days?.get(day);
    if (!days || !count) return;
    if (count > 1) days.set(day, count - 1);
    else days.delete(day);
    if (days.size === 0) this.pending.delete(keyId);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Adds what was held to Redis; what fails stays held for the next attempt. Never rejects. */
  flush(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return (this.flushing ??= this.write().finally(() => (this.flushing = null)));
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.overflowWarned = false;
    // One script per key: a key's counters share its hash tag, different keys may be on different
    // Redis Cluster nodes.
    const written = await Promise.allSettled(
      [...batch].map(async ([keyId, days]) => {
        let total = 0;
        const pairs: Array<string | number> = [];
        for (const [day, count] of days) {
          pairs.push(day, count);
          total += count;
        }
        // add-uncounted.lua: added unless the key's total is gone (set again from the ledger).
        await this.scripts.waAddUncountedCalls(
          this.keys.keyTotal(keyId),
          this.keys.keyDaily(keyId),
          total,
          ...pairs,
        );
        return total;
      }),
    );
    let calls = 0;
    let failure: unknown = null;
    [...batch].forEach(([keyId, days], i) => {
      const outcome = written[i]!;
      if (outcome.status === 'fulfilled') {
        calls += outcome.value;
        return;
      }
      // Not applied (a script is all or nothing): kept for the next attempt.
      failure ??= outcome.reason;
      const held = this.pending.get(keyId) ?? new Map<string, number>();
      for (const [day, count] of days) held.set(day, (held.get(day) ?? 0) + count);
      this.pending.set(keyId, held);
    });
    const keys = written.filter((outcome) => outcome.status === 'fulfilled').length;
    if (keys > 0)
      this.logger.info(
        { calls, keys },
        'calls answered during the redis outage added to the key totals',
      );
    if (failure)
      this.logger.warn(
        { err: (failure as Error).message },
        'could not add the outage calls to the key totals yet',
      );
  }
}
