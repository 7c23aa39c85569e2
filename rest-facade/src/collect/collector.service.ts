import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../../common/platform/redis';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { isRedisUnavailable } from '../../../common/platform/redis';
import type { CollectedEvent } from '../../../common/contracts/collected-event';
import type { FacadeDeps } from '../deps';
import { fromGraphQLErrors } from '../error-mapper';
import type { GatewayClient } from '../gateway-client';
import { FACADE_SERVICE_IDENTITY } from '../../../common/contracts/identity';
import { COLLECT_RETRY_AFTER_SECONDS, CollectedEventWriter } from './collected-event.writer';
import { collectionUnavailable } from '../errors';
import { LIVE_WINDOW_MS, liveKey, queueAppend } from './event-stream';

const DAY_MS = 86_400_000;
/** How often tomorrow's salt is made sure of ahead of midnight. */
const SALT_REFRESH_MS = 3_600_000;

/**
 * Why an event is answered `202 {"accepted": false, "reason": …}` and counted nowhere:
 * `no_user_agent`, the request has no User-Agent; `bot`, its User-Agent is a known bot, crawler or
 * HTTP client (isbot: Googlebot, curl, python-requests…), not a visitor's browser.
 */
export const NOT_COUNTED_REASONS = ['no_user_agent', 'bot'] as const;
export type NotCountedReason = (typeof NOT_COUNTED_REASONS)[number];

/** Why events from this User-Agent are not counted, or null when they are. */
export function notCountedReason(userAgent: string): NotCountedReason | null {
  if (userAgent === '') return 'no_user_agent';
  return isbot(userAgent) ? 'bot' : null;
}

/**
 * One event's append, in one MULTI round trip, outside the collector (the seed script and tests
 * write through this); the collector's own appends go through CollectedEventWriter.
 */
export async function appendEvent(
  redis: RedisClient,
  prefix: string,
  event: CollectedEvent,
): Promise<void> {
  const tx = redis.multi();
  queueAppend(tx, prefix, event, JSON.stringify(event));
  const results = await tx.exec();
  const failed = results?.find(([error]) => error);
  if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
}

/**
 * What the public endpoints share: tracking code → website (cached), the daily salt, the append
 * to the analytics stream (through CollectedEventWriter, which holds events while Redis is away)
 * and the live-visitor sorted sets.
 */
export class CollectorService {
  /**
   * Tracking code → website, for `cacheMs` (unknown codes for at most 10 s, so a website created
   * a moment ago starts counting soon). While the lookup fails (the keys subgraph or its database
   * is down), a code known before keeps its website, so beacons still reach the stream.
   */
  private readonly sites: LRUCache<string, { websiteId: string | null }>;
  /** Salts by UTC day: today's and tomorrow's are kept ahead, so a Redis outage does not stop collection. */
  private readonly salts = new Map<number, string>();
  private saltTimer: NodeJS.Timeout | null = null;
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly gateway: GatewayClient;
  private readonly cacheMs: number;
  private readonly writer: CollectedEventWriter;

  constructor({ redis, config, gateway, logger }: FacadeDeps) {
    this.redis = redis;
    this.prefix = config.redisKeyPrefix;
    this.gateway = gateway;
    this.cacheMs = config.trackingCodeCacheMs;
    this.writer = new CollectedEventWriter(redis, this.prefix, logger, config.collectBufferEvents);
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

  /** Gets today's and tomorrow's salts now and tomorrow's again every hour. */
  async start(): Promise<void> {
    await this.prepareSalts();
    this.saltTimer = setInterval(() => void this.prepareSalts(), SALT_REFRESH_MS);
    this.saltTimer.unref();
  }

  /** Stopping, once no request comes any more: appends what is held (briefly), see the writer. */
  async close(): Promise<void> {
    if (this.saltTimer) clearInterval(this.saltTimer);
    await this.writer.close();
  }

  /** The website of a tracking code, or null when no website has it. */
  async websiteOf(trackingCode: string): Promise<string | null> {
    return (await this.sites.fetch(trackingCode))?.websiteId ?? null;
  }

  /**
   * The salt of `now`'s UTC day, shared by every facade instance through Redis and gone two days
   * after its day began. Unknown here while Redis cannot be reached: a 503.
   */
  async dailySalt(now: number): Promise<string> {
    const day = Math.floor(now / DAY_MS);
    const known = this.salts.get(day);
    if (known) return known;
    try {
      return await this.fetchSalt(day, now);
    } catch (error) {
      if (!isRedisUnavailable(error)) throw error;
      throw collectionUnavailable(
        `Redis cannot be reached; retry in ${COLLECT_RETRY_AFTER_SECONDS} seconds`,
        COLLECT_RETRY_AFTER_SECONDS,
      );
    }
  }

  /** Resolves once the event is in the stream or held for it; a 503 ApiError when neither. */
  append(event: CollectedEvent): Promise<void> {
    return this.writer.append(event);
  }

  private async fetchSalt(day: number, now: number): Promise<string> {
    const key = `${this.prefix}analytics:salt:${day}`;
    // Made ahead of its day, a salt still expires two days after that day began.
    const ttl = 2 * 86_400 + Math.max(0, Math.ceil((day * DAY_MS - now) / 1000));
    await this.redis.set(key, randomBytes(32).toString('hex'), 'EX', ttl, 'NX');
    const value = await this.redis.get(key);
    if (!value) throw new Error('daily salt unavailable');
    this.salts.set(day, value);
    for (const cached of this.salts.keys()) if (cached < day - 1) this.salts.delete(cached);
    return value;
  }

  /** Failures are left for the next hour (or the first request of the day) to retry. */
  private async prepareSalts(): Promise<void> {
    const now = Date.now();
    const today = Math.floor(now / DAY_MS);
    for (const day of [today, today + 1])
      if (!this.salts.has(day)) await this.fetchSalt(day, now).catch(() => undefined);
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
