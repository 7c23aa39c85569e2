import { createHash } from 'node:crypto';
import type { RedisClient } from '../../../common/platform/redis';

/** How long an idempotency key is remembered: an event sent again within it counts once. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

/**
 * The id of an event sent with an idempotency key: the same for every sending of it, so the
 * analytics store, which keeps an event id once (docs/analytics.md, "Durability"), counts it once
 * even when it reaches the stream twice.
 */
export function idempotentEventId(websiteId: string, key: string): string {
  return createHash('sha256')
    .update(`${websiteId}\n${key}`)
    .digest()
    .subarray(0, 12)
    .toString('base64url');
}

/** A key seen before: the time its event was first accepted, which every sending of it keeps. */
export type Sighting = { first: true } | { first: false; at: number };

/**
 * The idempotency keys of the server-side Events API, each kept IDEMPOTENCY_WINDOW_SECONDS in
 * Redis with the time its event was first accepted. A key seen again is answered `duplicate`,
 * and its event is appended again with that first time and its fixed id: the analytics store
 * stores it once and counts it once, whether or not the first sending reached it (a sender that
 * crashed between marking the key and appending the event loses nothing).
 */
export class IdempotencyLedger {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /**
   * Marks each event id as seen at `now` unless it was seen before, in one round trip; in the
   * order given, so the second of two equal keys in one batch is the duplicate.
   */
  async sight(websiteId: string, eventIds: readonly string[], now: number): Promise<Sighting[]> {
    if (eventIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    // SET … NX GET (NX with GET needs Redis 7) marks the key and answers the time it already
    // held, or null when it was set now.
    for (const id of eventIds) {
      const key = this.keyOf(websiteId, id);
      pipeline.set(key, String(now), 'EX', IDEMPOTENCY_WINDOW_SECONDS, 'NX', 'GET');
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed || results.length !== eventIds.length)
      throw failed?.[0] ?? new Error('redis pipeline aborted');
    return results.map(([, previous]) => {
      if (previous === null) return { first: true };
      const at = Number(previous);
      return { first: false, at: Number.isSafeInteger(at) ? at : now };
    });
  }

  /** One website's keys share a slot, so a batch's marks go in one round trip on a cluster. */
  private keyOf(websiteId: string, eventId: string): string {
    return `${this.prefix}events:seen:{${websiteId}}:${eventId}`;
  }
}
