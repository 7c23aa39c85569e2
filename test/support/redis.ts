import { randomBytes } from 'node:crypto';
import {
  createRedis,
  keyHolders,
  waitForRedis,
  type RedisClient,
} from '../../common/platform/redis';

/**
 * The start of every key this test run writes: `test:<run id>:`, the id made by global-setup.ts
 * (outside jest, as in the analytics benchmark, one of this process's own), so that the run's own
 * keys can be checked and deleted at its end (key-walk.ts).
 */
export function testRunPrefix(): string {
  process.env.TEST_RUN_ID ??= randomBytes(4).toString('hex');
  return `test:${process.env.TEST_RUN_ID}:`;
}

/** A key prefix of this run's for `name` (letters, digits, `_` and `-`; unique to its user). */
export const testKeyPrefix = (name: string): string => `${testRunPrefix()}${name}:`;

/** The Redis the tests run on: a server or a Redis Cluster (global-setup.ts). */
export const testRedisUrl = (): string => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A test's own connection to the test Redis (server or cluster), ready. Unlike the services'
 * connections it queues commands while it connects, as a test's setup expects.
 */
export async function openTestRedis(url = testRedisUrl()): Promise<RedisClient> {
  const redis = createRedis(url, { enableOfflineQueue: true });
  await waitForRedis(redis, 10_000);
  return redis;
}

/** Every key matching `pattern`, on every master of a cluster. */
export async function keysMatching(redis: RedisClient, pattern: string): Promise<string[]> {
  const perServer = await Promise.all(keyHolders(redis).map((server) => server.keys(pattern)));
  return perServer.flat();
}

/**
 * Deletes every key matching `pattern` (a test's prefix and `*`). One DEL per key: on a cluster
 * a DEL of several keys must keep to one slot.
 */
export async function deleteKeysMatching(redis: RedisClient, pattern: string): Promise<void> {
  const keys = await keysMatching(redis, pattern);
  await Promise.all(keys.map((key) => redis.del(key)));
}
