import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * A per-minute allowance per key, counted in Redis across instances (rate-limiter-flexible);
 * while Redis is away each instance counts on its own (insurance limiter) rather than not at all.
 * The returned function takes one point for `key`: null when allowed, else the whole seconds to
 * wait (at least 1), for a 429 with Retry-After.
 */
export function perMinuteLimit(
  redis: Redis,
  keyPrefix: string,
  points: number,
): (key: string) => Promise<number | null> {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: 60,
    insuranceLimiter: new RateLimiterMemory({ points, duration: 60 }),
  });
  return async (key) => {
    try {
      await limiter.consume(key);
      return null;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  };
}
