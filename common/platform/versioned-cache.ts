import { LRUCache } from 'lru-cache';
import type { RedisClient } from './redis';
import type { Logger } from './logger';

export interface VersionedCacheOptions {
  /** Redis key of the generation counter that writers increment. */
  generationKey: string;
  ttlMs: number;
  /** How long a "not found" is remembered. */
  negativeTtlMs: number;
  max?: number;
}

type Entry<T> = { value: T | null };

/** How a lookup went (see `reportLookups`). */
export type CacheLookup = 'hit' | 'miss' | 'outage';

/**
 * A per-process cache that every instance drops together: writers increment one Redis counter
 * (`bumpGeneration`), and each lookup reads it first and clears the cache when it moved. So a
 * change is seen at once on every instance, for the price of one Redis GET instead of a database
 * query (lookups that overlap share one GET, so "at once" means within one Redis round trip).
 *
 * When Redis cannot be read, changes cannot be announced: entries are still served, and what is
 * loaded is still kept, but only for their own time to live (`ttlMs`), which bounds how long a
 * change made during the outage can go unseen. When Redis answers again the whole cache is
 * dropped, since any number of changes may have happened meanwhile.
 */
export class VersionedCache<T extends object> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private generation: string | null = null;
  private outage = false;
  /** The generation read in flight; concurrent lookups share it instead of each asking Redis. */
  private reading: Promise<string> | null = null;
  private onLookup: ((result: CacheLookup) => void) | null = null;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: VersionedCacheOptions,
    private readonly logger: Logger,
  ) {
    this.entries = new LRUCache<string, Entry<T>>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs,
    });
  }

  /**
   * Tells `onLookup` how each lookup went, for metrics: `hit` (cached and current), `miss`
   * (loaded), `outage` (Redis away: served or loaded without knowing whether it is current). A
   * lookup is a `get`, or an `isCurrent` that confirms what `peek` returned (a hit); one it does
   * not confirm is followed by the caller's `get`.
   */
  reportLookups(onLookup: (result: CacheLookup) => void): this {
    this.onLookup = onLookup;
    return this;
  }

  async get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const current = await this.observeGeneration();
    const cached = this.entries.get(key);
    this.onLookup?.(current === null ? 'outage' : cached ? 'hit' : 'miss');
    if (cached) return cached.value;
    const value = await load();
    // Kept only if no other lookup saw a newer generation while this one loaded: otherwise a value
    // read before a revocation would be stored as current and outlive it. (A change nobody has
    // seen yet is caught by the next lookup, which clears the cache.)
    // During an outage (current null) there is nothing newer to have seen.
    if (this.generation === current)
      this.entries.set(
        key,
        { value },
        { ttl: value ? this.options.ttlMs : this.options.negativeTtlMs },
      );
    return value;
  }

  /**
   * What is cached under `key` (null for a remembered "not found"; undefined when nothing is),
   * without asking Redis whether it is still current: trust it only once `isCurrent()` says so.
   * Lets a caller start work that can be undone in the same round trip as the check.
   */
  peek(key: string): T | null | undefined {
    if (this.generation === null) return undefined; // nothing read yet, or Redis away
    return this.entries.get(key)?.value;
  }

  /** True when nothing changed since the cached values were read; otherwise they are dropped. */
  async isCurrent(): Promise<boolean> {
    const seen = this.generation;
    const current = await this.observeGeneration();
    const confirmed = current !== null && current === seen;
    if (confirmed) this.onLookup?.('hit');
    return confirmed;
  }

  /**
   * Reads the generation (lookups that overlap share one read) and drops the cache when it moved.
   * Null when Redis cannot be read: entries then live out their time to live, no longer.
   */
  private async observeGeneration(): Promise<string | null> {
    let current: string;
    try {
      current = await (this.reading ??= this.readGeneration());
    } catch (error) {
      if (!this.outage)
        this.logger.warn(
          { err: (error as Error).message, cache: this.options.generationKey },
          'redis unavailable: cached entries are served until their time to live ends',
        );
      this.outage = true;
      this.generation = null;
      return null;
    }
    if (this.outage) {
      // Changes made meanwhile could not be announced: forget everything.
      this.logger.info({ cache: this.options.generationKey }, 'redis back: cache cleared');
      this.entries.clear();
    }
    this.outage = false;
    if (current !== this.generation) {
      this.entries.clear();
      this.generation = current;
    }
    return current;
  }

  private async readGeneration(): Promise<string> {
    try {
      return (await this.redis.get(this.options.generationKey)) ?? '0';
    } finally {
      this.reading = null;
    }
  }
}

/** Tells every instance's caches under `generationKey` to forget what they hold. */
export async function bumpGeneration(redis: RedisClient, generationKey: string): Promise<void> {
  await redis.incr(generationKey);
}
