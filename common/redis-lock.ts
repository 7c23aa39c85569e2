import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** Deletes the lock only while it still holds this holder's token (it may have expired meanwhile). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class LockBusyError extends Error {
  constructor(readonly lockKey: string) {
    super(`${lockKey} is held by someone else`);
    this.name = 'LockBusyError';
  }
}

export interface LockOptions {
  /** How long the lock lives if its holder dies without releasing it. */
  ttlMs: number;
  /** How long to wait for a busy lock before giving up with LockBusyError. */
  waitMs: number;
}

/**
 * Runs `work` while holding a single-Redis lock (SET NX PX, released by token). For changes that
 * the database cannot make atomic by itself: FerretDB 1.x applies a conditional update as a
 * read-modify-write of the whole document, so two concurrent updates of one document can lose
 * one of them. `work` must finish well within `ttlMs`.
 */
export async function withRedisLock<T>(
  redis: Redis,
  lockKey: string,
  options: LockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  while ((await redis.set(lockKey, token, 'PX', options.ttlMs, 'NX')) === null) {
    if (Date.now() >= deadline) throw new LockBusyError(lockKey);
    await sleep(20 + Math.random() * 30);
  }
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, 1, lockKey, token);
  }
}
