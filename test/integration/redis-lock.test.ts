import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { LockBusyError, oneAtATime, withRedisLock } from '../../common/platform/redis-lock';
import { testKeyPrefix } from '../support/redis';

describe('withRedisLock (one change at a time, across instances)', () => {
  const redis = createRedis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const lockKey = `${testKeyPrefix(`redis-lock_${randomBytes(4).toString('hex')}`)}lock`;

  beforeAll(() => waitForRedis(redis));
  afterAll(async () => {
    await redis.del(lockKey);
    redis.disconnect();
  });

  it('when several holders want the lock at once, then their work never overlaps and all of it runs', async () => {
    let inside = 0;
    let most = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        withRedisLock(redis, lockKey, { ttlMs: 5_000, waitMs: 5_000 }, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(10);
          inside -= 1;
          done.push(n);
        }),
      ),
    );
    expect(most).toBe(1);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await redis.exists(lockKey)).toBe(0);
  });

  it('when the lock stays busy longer than the wait, then LockBusyError and the work does not run', async () => {
    await redis.set(lockKey, 'someone-else', 'PX', 5_000);
    let ran = false;
    await expect(
      withRedisLock(redis, lockKey, { ttlMs: 5_000, waitMs: 100 }, async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(LockBusyError);
    expect(ran).toBe(false);
    await redis.del(lockKey);
  });

  it('when a holder outlives its lock and another takes it, then the first one’s release leaves the new lock alone', async () => {
    await withRedisLock(redis, lockKey, { ttlMs: 50, waitMs: 1_000 }, async () => {
      // A stall longer than the lock's lifetime (no renewal ran): it expired, and another took it.
      await redis.del(lockKey);
      await redis.set(lockKey, 'next-holder', 'PX', 5_000);
    });
    expect(await redis.get(lockKey)).toBe('next-holder');
    await redis.del(lockKey);
  });

  it('when Redis fails after the work is done, then the work’s result is still returned (the lock expires by itself)', async () => {
    const fragile = createRedis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    await waitForRedis(fragile);
    const result = await withRedisLock(fragile, lockKey, { ttlMs: 500, waitMs: 100 }, async () => {
      fragile.disconnect(); // the release below cannot reach Redis
      return 'new secret';
    });
    expect(result).toBe('new secret');
    expect(await redis.pttl(lockKey)).toBeLessThanOrEqual(500);
    await redis.del(lockKey);
  });

  it('when the work runs longer than the lock would live, then the lock is kept and a waiter never overlaps it', async () => {
    const order: string[] = [];
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    // Renewed every 200 ms: a busy machine (the cluster run, CI) does not delay a renewal past
    // the lock's life, as it could with 150 ms.
    const slow = withRedisLock(redis, lockKey, { ttlMs: 600, waitMs: 100 }, async () => {
      order.push('slow starts');
      started();
      await sleep(1_200); // a stalled database: twice the lifetime of the lock
      order.push('slow ends');
    });
    await slowStarted;
    const waiter = withRedisLock(redis, lockKey, { ttlMs: 600, waitMs: 2_500 }, async () => {
      order.push('waiter runs');
    });
    await Promise.all([slow, waiter]);
    expect(order).toEqual(['slow starts', 'slow ends', 'waiter runs']);
  });

  it('when Redis cannot be reached for the lock, then the change is refused as 503 service_unavailable and does not run', async () => {
    const unreachable = createRedis('redis://127.0.0.1:1');
    unreachable.on('error', () => undefined);
    let ran = false;
    try {
      await expect(
        oneAtATime(
          unreachable,
          'test:lock:',
          'The webhook',
        )('id', async () => {
          ran = true;
        }),
      ).rejects.toMatchObject({
        extensions: { code: 'service_unavailable', httpStatus: 503 },
      });
      expect(ran).toBe(false);
    } finally {
      unreachable.disconnect();
    }
  });

  it('when the work fails, then the lock is released and the failure passes through', async () => {
    await expect(
      withRedisLock(redis, lockKey, { ttlMs: 5_000, waitMs: 100 }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await redis.exists(lockKey)).toBe(0);
  });
});
