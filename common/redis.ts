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
 * ready again. Also keeps ioredis from printing unhandled error events to stderr. `countError`
 * is told of every error, logged or not (`redis_errors_total`, common/metrics.ts).
 */
export function logRedisErrors(
  redis: Redis,
  logger: Logger,
  connection = 'redis',
  countError?: (connection: string) => void,
): void {
  let failing = false;
  let lastWarning = 0;
  let unlogged = 0;
  redis.on('error', (error: Error) => {
    countError?.(connection);
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
  /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/;

/**
 * Whether a command failed because Redis could not be reached (down, restarting, hung, the
 * connection dropped): worth waiting for, unlike an answer refusing the command (a ReplyError).
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

const WATCH_EVERY_MS = 500;
const HUNG_AFTER_MS = 1_000;

/**
 * Notices a Redis that stopped answering without closing the connection (paused, overloaded,
 * a network that drops packets): a PING unanswered for a second drops the connection, so every
 * command from then on fails at once (no offline queue) instead of each waiting out its own 2 s
 * time-out, until ioredis reconnects to a Redis that answers. Returns a stop function.
 */
function watchForHungRedis(redis: Redis, logger: Logger, connection = 'redis'): () => void {
  let waiting = false;
  const timer = setInterval(() => {
    if (waiting || redis.status !== 'ready') return;
    waiting = true;
    const hung = setTimeout(() => {
      logger.warn(
        { connection },
        `redis did not answer a ping within ${HUNG_AFTER_MS} ms: reconnecting`,
      );
      redis.disconnect(true);
    }, HUNG_AFTER_MS);
    redis
      .ping()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(hung);
        waiting = false;
      });
  }, WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A service's main Redis connection, once it is ready: its errors logged (and told to
 * `countError`, see logRedisErrors) and a hung Redis dropped (watchForHungRedis). `close` stops
 * the watch and disconnects; a connection that never becomes ready is closed before the rejection.
 */
export async function connectRedis(
  url: string,
  logger: Logger,
  countError?: (connection: string) => void,
): Promise<{ redis: Redis; close(): void }> {
  const redis = createRedis(url);
  logRedisErrors(redis, logger, 'redis', countError);
  const stopWatching = watchForHungRedis(redis, logger);
  const close = () => {
    stopWatching();
    redis.disconnect();
  };
  try {
    await waitForRedis(redis);
  } catch (error) {
    close();
    throw error;
  }
  return { redis, close };
}
