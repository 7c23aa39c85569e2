import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from './redis';
import { beingChanged, serviceUnavailable } from './errors';

/** Deletes the lock only while it still holds this holder's token (it may have expired meanwhile). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Extends the lock only while it still holds this holder's token: 1 when extended, else 0. */
const EXTEND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Redis could not be asked for the lock: nothing ran, and the caller may retry shortly. */
export class LockUnavailableError extends Error {
  constructor(
    readonly lockKey: string,
    override readonly cause: unknown,
  ) {
    super(`${lockKey} could not be taken: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'LockUnavailableError';
  }
}

export class LockBusyError extends Error {
  constructor(readonly lockKey: string) {
    super(`${lockKey} is held by someone else`);
    this.name = 'LockBusyError';
  }
}

export interface LockOptions {
  /**
   * How long the lock lives if its holder dies without releasing it. A live holder renews it
   * every third of this while its work runs, however long that takes.
   */
  ttlMs: number;
  /** How long to wait for a busy lock before giving up with LockBusyError. */
  waitMs: number;
}

/**
 * Runs `work` while holding a single-Redis lock (SET NX PX, renewed while the work runs, released
 * by token). For changes that the database cannot make atomic by itself: FerretDB 1.x applies a
 * conditional update as a read-modify-write of the whole document, so two concurrent updates of
 * one document can lose one of them. The renewal matters when the database stalls: a change
 * outliving a fixed lifetime would otherwise overlap the next one (a deleted webhook came back
 * to life that way).
 */
export async function withRedisLock<T>(
  redis: RedisClient,
  lockKey: string,
  options: LockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  const take = () =>
    redis.set(lockKey, token, 'PX', options.ttlMs, 'NX').catch((error: unknown) => {
      throw new LockUnavailableError(lockKey, error);
    });
  while ((await take()) === null) {
    if (Date.now() >= deadline) throw new LockBusyError(lockKey);
    await sleep(20 + Math.random() * 30);
  }
  const renewal = setInterval(
    () => {
      redis.eval(EXTEND, 1, lockKey, token, options.ttlMs).then(
        (held) => {
          if (held === 0) clearInterval(renewal);
        },
        () => undefined, // Redis away: the next renewal tries again, within the lock's lifetime
      );
    },
    Math.max(1, Math.floor(options.ttlMs / 3)),
  );
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    // The work is done (and may have returned something only its caller may see, a new secret):
    // a failed release must not turn it into an error. The lock expires after ttlMs by itself.
    await redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
  }
}

/** A change is one or two database writes; waiting 2 s for another change of it is plenty. */
const CHANGE_LOCK: LockOptions = { ttlMs: 10_000, waitMs: 2_000 };

/**
 * Runs changes of one thing (an API key, an organization's plan, a webhook) one at a time
 * across instances: FerretDB 1.x applies a conditional update as a read-modify-write of the
 * whole document, so two overlapping changes of one document could lose one. A change that
 * waits too long for another gets 409 `conflict`, and one that cannot reach Redis for the lock
 * 503 `service_unavailable`, having changed nothing.
 */
export function oneAtATime(
  redis: RedisClient,
  lockPrefix: string,
  what: string,
  options: LockOptions = CHANGE_LOCK,
) {
  return async <T>(id: string, change: () => Promise<T>): Promise<T> => {
    try {
      return await withRedisLock(redis, `${lockPrefix}${id}`, options, change);
    } catch (error) {
      if (error instanceof LockBusyError) throw beingChanged(what);
      if (error instanceof LockUnavailableError) throw serviceUnavailable('Redis', error);
      throw error;
    }
  };
}

export type OneAtATime = ReturnType<typeof oneAtATime>;
