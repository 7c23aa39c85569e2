import { Redis, ReplyError } from 'ioredis';
import type { Logger } from './logger';

/**
 * Commands fail fast while Redis is away (no offline queue) or after 2 s when it hangs, so callers
 * can fall back instead of piling requests up; ioredis keeps reconnecting in the background.
 */
export function createRedis(url: string): Redis {
  return new Redis(url, {
    // Commands issued in the same tick share one write and one round trip: under concurrency the
    // per-request counters and limiter calls cost far fewer syscalls.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // A Redis that hangs without closing the connection (overloaded, paused) fails a command
    // after 2 s like one that is down, instead of holding the request; blocking stream reads
    // wait at most 1 s.
    commandTimeout: 2_000,
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

const REDIS_WARNING_INTERVAL_MS = 30_000;

/**
 * Logs a connection's errors: the first of an outage at once, then at most one warning every
 * 30 s (with how many were left out) while ioredis keeps reconnecting, and one line when it is
 * ready again. Also keeps ioredis from printing unhandled error events to stderr.
 */
export function logRedisErrors(redis: Redis, logger: Logger, connection = 'redis'): void {
  let failing = false;
  let lastWarning = 0;
  let unlogged = 0;
  redis.on('error', (error: Error) => {
    const now = Date.now();
    if (failing && now - lastWarning < REDIS_WARNING_INTERVAL_MS) {
      unlogged += 1;
      return;
    }
    logger.warn({ err: error.message, connection, unlogged }, 'redis error');
    failing = true;
    lastWarning = now;
    unlogged = 0;
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info({ connection, unlogged }, 'redis reachable again');
    unlogged = 0;
  });
}

const UNREACHABLE =
  /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/;

/**
 * Whether a command failed because Redis could not be reached (down, restarting, the connection
 * dropped): worth waiting for, unlike an answer refusing the command (a ReplyError).
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof ReplyError) return false;
  const code = (error as { code?: string }).code ?? '';
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    UNREACHABLE.test(error.message) ||
    UNREACHABLE.test(code)
  );
}
