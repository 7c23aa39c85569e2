import type { RedisClient } from '../../../../common/platform/redis';
import { perMinuteLimit } from '../../../../common/platform/per-minute-limit';
import { tooManyTests } from '../errors';

/** Tests and redeliveries (each sent at once, on request) one user may ask for per minute. */
export const TESTS_PER_MINUTE = 10;

/**
 * Bounds webhook tests per user where they are sent, so no caller gets round it (the REST facade,
 * GraphQL with any number of aliased `testWebhook` fields): each test makes us send a request at
 * once, and must not turn us into a relay. Counted in Redis across instances; while Redis fails,
 * per instance in memory.
 */
export class TestRateLimiter {
  private readonly take: (userId: string) => Promise<number | null>;

  constructor(redis: RedisClient, redisKeyPrefix: string) {
    this.take = perMinuteLimit(redis, `${redisKeyPrefix}rl:webhook-test`, TESTS_PER_MINUTE);
  }

  /**
   * Counts one test or redelivery of `userId`; 429 RATE_LIMIT_EXCEEDED once the minute's are used.
   */
  async consume(userId: string): Promise<void> {
    const wait = await this.take(userId);
    if (wait !== null) throw tooManyTests(TESTS_PER_MINUTE, wait);
  }
}
