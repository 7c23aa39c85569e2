import { Redis } from 'ioredis';

/**
 * Commands fail fast while Redis is away (no offline queue), so callers can fall back at once
 * instead of piling requests up; ioredis keeps reconnecting in the background.
 */
export function createRedis(url: string): Redis {
  return new Redis(url, {
    // Commands issued in the same tick share one write and one round trip: under concurrency the
    // per-request counters and limiter calls cost far fewer syscalls.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
}

export async function waitForRedis(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not reachable within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

export async function pingRedis(redis: Redis): Promise<void> {
  await redis.ping();
}
