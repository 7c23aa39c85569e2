import { hash } from 'node:crypto';
import type { RedisClient } from '../../../common/platform/redis';
import { LRUCache } from 'lru-cache';
import {
  readGeneration,
  startGeneration,
  type ReadTag,
} from '../../../common/contracts/read-cache';
import type { Logger } from '../../../common/platform/logger';

export interface ReadCacheOptions {
  prefix: string;
  /** Answers kept in this process. */
  localEntries: number;
  /**
   * How long an answer is served, in this process and from Redis: bounds what a lost
   * invalidation (a writer that could not reach Redis after its change) could leave unseen.
   */
  maxAgeMs: number;
}

/** How a read went, for the X-Cache header and the metric. */
export type ReadCacheResult = 'hit-local' | 'hit-shared' | 'miss' | 'bypass';

export type ReadLookup =
  | { result: 'hit-local' | 'hit-shared'; body: string }
  | { result: 'miss'; store(body: string): void }
  | { result: 'bypass' };

/**
 * The tag's generation when a call started: NO_GENERATION when the tag had none yet, null when
 * Redis could not tell.
 */
export type Generation = string | null;

/** Stamps no answer: a call that read it can only compute its answer, and perhaps keep it. */
export const NO_GENERATION = '';

const BYPASS: ReadLookup = { result: 'bypass' };

/**
 * Answers of read operations, in this process and in Redis, stamped with the generation of the
 * data they depend on (common/contracts/read-cache.ts). Each call reads the current generation
 * (in the same round trip as its limits: a connection sends a turn's commands together) and
 * is served only an answer with the same stamp, so a change is seen by the very next call.
 * Reading never creates a generation, since the caller may turn out not to be allowed to read
 * what it asked about: a tag without one has nothing to serve, and the first answer kept for it
 * starts it (storeFirst). Whenever Redis cannot be read, the call goes to the operation and
 * nothing is stored: an outage costs speed, never correctness.
 */
export class ReadCache {
  private readonly local: LRUCache<string, { body: string; stamp: string }>;
  /** Generation reads asked for in this turn of the event loop, not sent yet (see generation). */
  private readonly unsent = new Map<ReadTag, Promise<Generation>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly options: ReadCacheOptions,
    private readonly logger: Logger,
    /** Told how every lookup went (the read_cache_lookups_total metric). */
    private readonly report: (result: ReadCacheResult) => void = () => undefined,
  ) {
    this.local = new LRUCache({ max: options.localEntries, ttl: options.maxAgeMs });
  }

  /** Whether this process holds an answer for `request`, current or not. */
  holds(request: string): boolean {
    return this.local.has(request);
  }

  /**
   * Start it with the call, beside the key check, so it shares their round trip to Redis. Calls
   * that ask for the same tag before the read is sent share it: the connection sends what was
   * asked in a turn of the event loop together, at the turn's end (common/platform/turn-end.ts: a
   * corked socket on one server; auto-pipelining on a Cluster), and the share ends in a
   * setImmediate queued after it. Every call sharing a read was received before the read is sent,
   * so it still sees every change announced before its request arrived.
   */
  generation(tag: ReadTag): Promise<Generation> {
    let reading = this.unsent.get(tag);
    if (!reading) {
      reading = readGeneration(this.redis, this.options.prefix, tag).then(
        (generation) => generation ?? NO_GENERATION,
        () => null,
      );
      this.unsent.set(tag, reading);
      setImmediate(() => this.unsent.delete(tag));
    }
    return reading;
  }

  /**
   * The cached answer of `request`, or how to store it once computed. `request` must name
   * everything that changes the answer besides the tag's data: route, variables and the
   * caller's access scope.
   */
  async lookup(tag: ReadTag, generation: Generation, request: string): Promise<ReadLookup> {
    const lookup = await this.find(tag, generation, request);
    this.report(lookup.result);
    return lookup;
  }

  private async find(tag: ReadTag, stamp: Generation, request: string): Promise<ReadLookup> {
    if (stamp === null) return BYPASS;
    if (stamp === NO_GENERATION)
      return { result: 'miss', store: (body) => this.storeFirst(tag, request, body) };
    const local = this.local.get(request);
    if (local?.stamp === stamp) return { result: 'hit-local', body: local.body };
    let shared: string | null;
    try {
      shared = await this.redis.get(sharedKey(this.options.prefix, tag, stamp, request));
    } catch {
      return BYPASS;
    }
    if (shared !== null) {
      this.local.set(request, { body: shared, stamp });
      return { result: 'hit-shared', body: shared };
    }
    return { result: 'miss', store: (body) => this.keep(tag, stamp, request, body) };
  }

  /**
   * The first answer of a tag without a generation, computed for a caller who may read it: kept
   * only if this call starts the generation (common/contracts/read-cache.ts, startGeneration).
   */
  private storeFirst(tag: ReadTag, request: string, body: string): void {
    startGeneration(this.redis, this.options.prefix, tag).then(
      (stamp) => {
        if (stamp !== null) this.keep(tag, stamp, request, body);
      },
      (error: unknown) =>
        this.logger.warn({ err: (error as Error).message }, 'read cache: cannot store'),
    );
  }

  private keep(tag: ReadTag, stamp: string, request: string, body: string): void {
    this.local.set(request, { body, stamp });
    this.redis
      .set(sharedKey(this.options.prefix, tag, stamp, request), body, 'PX', this.options.maxAgeMs)
      .catch((error: unknown) =>
        this.logger.warn({ err: (error as Error).message }, 'read cache: cannot store'),
      );
  }
}

/** An answer in Redis: in the slot of its tag (a Redis Cluster hash tag), like the generation. */
const sharedKey = (prefix: string, tag: ReadTag, stamp: string, request: string) =>
  `${prefix}read-cache:{${tag}}:${stamp}:${hash('sha256', request, 'base64url')}`;
