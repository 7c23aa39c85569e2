import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyTests } from '../errors';

/** Synthetic deliveries one user may trigger per minute. */
export const TESTS_PER_MINUTE = 10;

/**
 * Bounds webhook tests per user where they are sent, so no caller gets round it (the REST facade,
 * GraphQL with any number of aliased `testWebhook` fields): each test makes us send a request at
 * once, and must not turn us into a relay. Counted in Redis across instances; while Redis fails,
 * per instance in memory.
 */
export class TestRateLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, redisKeyPrefix: string) {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${redisKeyPrefix}rl:webhook-test`,
      points: TESTS_PER_MINUTE,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ points: TESTS_PER_MINUTE, duration: 60 }),
    });
  }

  /** Counts one test of `userId`; 429 RATE_LIMIT_EXCEEDED once the minute's tests are used. */
  async consume(userId: string): Promise<void> {
    try {
      await this.limiter.consume(userId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw tooManyTests(TESTS_PER_MINUTE, seconds);
    }
  }
}
