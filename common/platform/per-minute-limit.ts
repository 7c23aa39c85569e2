import type { RedisClient } from './redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * A fixed window's counter of admitted calls, as a Lua function: opens the window (with its
 * lifetime) for its first call and returns its count and the milliseconds it has left. Shared by
 * rate-limiter-flexible's script below and the External API's admission script
 * (rest-facade/lua/admit-calls.lua, defined by rest-facade/src/limits/usage-scripts.ts), so that
 * both count a window alike.
 */
export const OPEN_WINDOW_LUA = `
local function openWindow(key, seconds)
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local used = tonumber(redis.call('get', key))
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  return used, ttl
end`;

/**
 * rate-limiter-flexible's increment script (its `customIncrTtlLuaScript` option), changed in two
 * ways. A call the limit refuses is not counted, so the window holds admitted calls only and no
 * refused point has to be given back afterwards: given back after its window ended, such a point
 * opened the next window at -1, one extra call for every refusal in flight at the boundary. And
 * a point given back (a negative amount) goes only to a window that still exists.
 * ARGV: amount, window seconds, the limit. rate-limiter-flexible defines the script as a command
 * of the Redis client, one for all its limiters on that client: every limiter must pass this
 * same script (windowLimiterOnRedis), or the last one made would decide how all of them count.
 */
const COUNT_ADMITTED_ONLY = `${OPEN_WINDOW_LUA}
local amount = tonumber(ARGV[1])
if amount < 0 and redis.call('exists', KEYS[1]) == 0 then return {0, 0} end
local consumed, ttl = openWindow(KEYS[1], ARGV[2])
if amount > 0 and consumed + amount > tonumber(ARGV[3]) then return {consumed + amount, ttl} end
return {redis.call('incrby', KEYS[1], amount), ttl}`;

/** A fixed 60-second window of `points` per key on Redis. */
export function minuteLimiterOnRedis(
  redis: RedisClient,
  keyPrefix: string,
  points: number,
  insuranceLimiter?: RateLimiterMemory,
): RateLimiterRedis {
  return windowLimiterOnRedis(redis, keyPrefix, points, 60, insuranceLimiter);
}

/**
 * A fixed window of `seconds` with `points` per key on Redis, each key expiring with its window:
 * the one way limiters are made here, so that all pass the same script.
 */
export function windowLimiterOnRedis(
  redis: RedisClient,
  keyPrefix: string,
  points: number,
  seconds: number,
  insuranceLimiter?: RateLimiterMemory,
): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: seconds,
    customIncrTtlLuaScript: COUNT_ADMITTED_ONLY,
    ...(insuranceLimiter ? { insuranceLimiter } : {}),
  });
}

/**
 * A per-minute allowance per key, counted in Redis across instances (rate-limiter-flexible);
 * while Redis is away each instance counts on its own (insurance limiter) rather than not at all.
 * The returned function takes one point for `key`: null when allowed, else the whole seconds to
 * wait (at least 1), for a 429 with Retry-After.
 */
export function perMinuteLimit(
  redis: RedisClient,
  keyPrefix: string,
  points: number,
): (key: string) => Promise<number | null> {
  return windowLimit(redis, keyPrefix, points, 60);
}

/** perMinuteLimit for a window of `seconds`. */
export function windowLimit(
  redis: RedisClient,
  keyPrefix: string,
  points: number,
  seconds: number,
): (key: string) => Promise<number | null> {
  const limiter = windowLimiterOnRedis(
    redis,
    keyPrefix,
    points,
    seconds,
    new RateLimiterMemory({ points, duration: seconds }),
  );
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
