import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import {
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsEventStream,
  type CollectedEvent,
} from '../../../subgraphs/analytics/src/ingest/collected-event';
import { fromGraphQLErrors } from '../error-mapper';
import type { GatewayClient } from '../gateway-client';
import { FACADE_SERVICE_IDENTITY } from '../../../common/identity';

export const LIVE_WINDOW_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
export const liveKey = (prefix: string, websiteId: string) => `${prefix}live:${websiteId}`;

/**
 * The collector's write: append the event for the analytics consumer and mark the visitor live,
 * in one MULTI round trip. The seed script writes through this too.
 */
export async function appendEvent(
  redis: Redis,
  prefix: string,
  event: CollectedEvent,
): Promise<void> {
  const live = liveKey(prefix, event.websiteId);
  const results = await redis
    .multi()
    .xadd(
      analyticsEventStream(prefix),
      'MAXLEN',
      '~',
      String(ANALYTICS_STREAM_MAX_LENGTH),
      '*',
      'event',
      JSON.stringify(event),
    )
    .zadd(live, event.ts, event.visitorId)
    .pexpire(live, LIVE_WINDOW_MS * 2)
    .exec();
  const failed = results?.find(([error]) => error);
  if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
}

/**
 * What the public endpoints share: tracking code → website (cached), the daily salt, the append
 * to the analytics stream and the live-visitor sorted sets.
 */
export class CollectorService {
  /**
   * Tracking code → website, for `cacheMs` (unknown codes for at most 10 s, so a website created
   * a moment ago starts counting soon). While the lookup fails (the keys subgraph or its database
   * is down), a code known before keeps its website, so beacons still reach the stream.
   */
  private readonly sites: LRUCache<string, { websiteId: string | null }>;
  private salt: { day: number; value: string } | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly gateway: GatewayClient,
    private readonly cacheMs: number,
  ) {
    this.sites = new LRUCache<string, { websiteId: string | null }>({
      max: 50_000,
      ttl: this.cacheMs,
      fetchMethod: async (trackingCode, stale, { options }) => {
        let result;
        try {
          result = await this.gateway.execute<{
            websiteByTrackingCode: { id: string } | null;
          }>('WebsiteByTrackingCode', { trackingCode }, { identity: FACADE_SERVICE_IDENTITY });
          if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
        } catch (error) {
          if (!stale) throw error;
          // Asked again in a few seconds; until then the code keeps the website it had.
          options.ttl = Math.min(5_000, this.cacheMs);
          return stale;
        }
        const websiteId = result.data.websiteByTrackingCode?.id ?? null;
        if (!websiteId) options.ttl = Math.min(10_000, this.cacheMs);
        return { websiteId };
      },
    });
  }

  /** The website of a tracking code, or null when no website has it. */
  async websiteOf(trackingCode: string): Promise<string | null> {
    return (await this.sites.fetch(trackingCode))?.websiteId ?? null;
  }

  /** Today's salt, shared by every facade instance through Redis and gone two days later. */
  async dailySalt(now: number): Promise<string> {
    const day = Math.floor(now / DAY_MS);
    if (this.salt?.day === day) return this.salt.value;
    const key = `${this.prefix}analytics:salt:${day}`;
    await this.redis.set(key, randomBytes(32).toString('hex'), 'EX', 2 * 86_400, 'NX');
    const value = await this.redis.get(key);
    if (!value) throw new Error('daily salt unavailable');
    this.salt = { day, value };
    return value;
  }

  append(event: CollectedEvent): Promise<void> {
    return appendEvent(this.redis, this.prefix, event);
  }

  /** Visitors seen in the last five minutes: trim what is older, then count (O(log n)). */
  async liveVisitors(websiteId: string, now: number): Promise<number> {
    const key = liveKey(this.prefix, websiteId);
    const since = now - LIVE_WINDOW_MS;
    const results = await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', `(${since}`)
      .zcount(key, since, '+inf')
      .exec();
    const count = results?.[1];
    if (!count || count[0]) throw count?.[0] ?? new Error('redis transaction aborted');
    return Number(count[1]);
  }
}
