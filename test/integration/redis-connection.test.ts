/**
 * The connection every service opens to one Redis server (common/platform/redis.ts): the commands
 * of a turn of the event loop leave in one write and in order, with those the turn's batches send;
 * the commands sent to a server that stops answering with its connections open fail after the
 * command time-out, and the connection works again once the server answers; the commands waiting
 * when the connection drops fail with it and are not sent again; an event loop held up past a
 * time-out takes neither a command nor the connection for hung when the reply came in time.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { connectRedis, createRedis, waitForRedis } from '../../common/platform/redis';
import { createLogger } from '../../common/platform/logger';
import { turnBatch } from '../../common/platform/turn-batch';
import { onPath, startEngine } from '../../scripts/lib/engines';
import { testKeyPrefix, testRedisUrl } from '../support/redis';
import { startTcpProxy } from '../support/tcp-proxy';

/**
 * Runs `check` on a new connection, with a key of its own and the count of the writes to its
 * socket so far; deletes the key and disconnects after.
 */
async function withWriteCount(
  check: (redis: Redis, key: string, writes: () => number) => Promise<void>,
): Promise<void> {
  const redis = createRedis(testRedisUrl()) as Redis;
  const key = `${testKeyPrefix(`redis-connection_${process.pid}`)}${Date.now()}`;
  try {
    await waitForRedis(redis);
    // Each call of either is one write to the socket (writev: several buffers at once).
    const writev = jest.spyOn(redis.stream, '_writev');
    const write = jest.spyOn(redis.stream, '_write');
    await check(redis, key, () => writev.mock.calls.length + write.mock.calls.length);
    await redis.del(key);
  } finally {
    redis.disconnect();
  }
}

type Engine = Awaited<ReturnType<typeof startEngine>>;

/** Runs `use` against a redis-server of its own (one the test may pause), stopped after. */
async function withOwnRedisServer(use: (engine: Engine) => Promise<void>): Promise<void> {
  const server = onPath('redis-server');
  if (!server) throw new Error('this test needs redis-server on PATH');
  const dataDir = await mkdtemp(join(tmpdir(), 'wa-test-redis-'));
  const engine = await startEngine({ kind: 'redis-server', path: server }, dataDir);
  try {
    await use(engine);
  } finally {
    await engine.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('a connection to one Redis server', () => {
  it('sends the commands of one turn of the event loop in one write, in the order asked', async () => {
    await withWriteCount(async (redis, key, writes) => {
      const replies = await Promise.all(Array.from({ length: 10 }, () => redis.incr(key)));

      expect(replies).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(writes()).toBe(1);

      // A later turn's command is a write of its own.
      await expect(redis.del(key)).resolves.toBe(1);
      expect(writes()).toBe(2);
    });
  });

  it('when a turn batch sends a command after the turn’s first one, then both leave in the same write', async () => {
    await withWriteCount(async (redis, key, writes) => {
      // As a cached External API read does: a check sent at once, the admission in a batch.
      const increments = turnBatch(async (amounts: readonly number[]) => {
        const total = await redis.incrby(
          key,
          amounts.reduce((sum, amount) => sum + amount, 0),
        );
        return amounts.map(() => total);
      });

      const [checked, incremented] = await Promise.all([redis.exists(key), increments.load(2)]);

      expect([checked, incremented]).toEqual([0, 2]);
      expect(writes()).toBe(1);
    });
  });

  it('fails the commands a paused server does not answer, and works again once it answers', async () => {
    await withOwnRedisServer(async (engine) => {
      const redis = createRedis(`redis://127.0.0.1:${engine.port}`);
      redis.on('error', () => undefined);
      try {
        await waitForRedis(redis);
        await redis.set('kept', 'yes');

        engine.child.kill('SIGSTOP');
        // The connection stays open and nothing answers: the command fails instead of waiting.
        await expect(redis.get('kept')).rejects.toThrow(/Command timed out/);

        engine.child.kill('SIGCONT');
        await waitForRedis(redis, 10_000);
        await expect(redis.get('kept')).resolves.toBe('yes');
      } finally {
        engine.child.kill('SIGCONT');
        redis.disconnect();
      }
    });
  }, 30_000);

  it('fails the commands a dropped connection was waiting on, and does not send them again', async () => {
    await withOwnRedisServer(async (engine) => {
      const proxy = await startTcpProxy(engine.port);
      const redis = createRedis(`redis://127.0.0.1:${proxy.port}`);
      redis.on('error', () => undefined);
      try {
        await waitForRedis(redis);
        await redis.set('counter', '0');

        // The INCR reaches the proxy and its connection drops before Redis has it.
        const back = once(redis, 'ready');
        await expect(proxy.dropUnder(() => redis.incr('counter'))).rejects.toThrow(
          /Connection is closed/,
        );

        await back;
        // ioredis would have sent it again on the new connection.
        await expect(redis.get('counter')).resolves.toBe('0');
      } finally {
        redis.disconnect();
        await proxy.close();
      }
    });
  }, 30_000);

  it('when the event loop is held up past the command time-out while a reply is on its way, then the command still gets its reply', async () => {
    await withOwnRedisServer(async (engine) => {
      const redis = createRedis(`redis://127.0.0.1:${engine.port}`);
      try {
        await waitForRedis(redis);
        // A script that keeps the server busy for 1 s: the connection's check sees it waiting.
        const busy = redis.eval(
          "local t = redis.call('TIME'); local stop = t[1] * 1e6 + t[2] + 1e6; repeat t = redis.call('TIME') until t[1] * 1e6 + t[2] >= stop; return 'done'",
          0,
        );
        await new Promise((resolve) => setTimeout(resolve, 700));
        // Held up outside the timers' phase (as by a long task answering a request): the reply comes
        // meanwhile, and the loop's next turn fires the time-out's check before it reads the reply.
        setImmediate(() => holdUpEventLoop(2_500));

        await expect(busy).resolves.toBe('done');
      } finally {
        redis.disconnect();
      }
    });
  }, 30_000);

  it('when the event loop is held up while a health ping is on its way, then the connection is kept', async () => {
    const warnings: string[] = [];
    const logger = createLogger('redis-connection-test', 'warn');
    jest.spyOn(logger, 'warn').mockImplementation((_: unknown, message?: string) => {
      warnings.push(message ?? '');
    });
    const { redis, close } = await connectRedis(testRedisUrl(), logger);
    const ping = redis.ping.bind(redis) as () => Promise<string>;
    const pinged = new Promise<void>((resolve) => {
      jest.spyOn(redis, 'ping').mockImplementationOnce(() => {
        const reply = ping();
        // Once the ping is written (the turn's write), the loop is held up past the 1 s allowance.
        setImmediate(() => {
          holdUpEventLoop(1_500);
          resolve();
        });
        return reply;
      });
    });
    const closed = jest.fn();
    redis.on('close', closed);
    try {
      await pinged;
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      expect(closed).not.toHaveBeenCalled();
      expect(warnings).toEqual([]);
      await expect(redis.ping()).resolves.toBe('PONG');
    } finally {
      close();
    }
  }, 30_000);
});

/** Keeps the event loop busy, as a long task or a machine short of CPU does. */
function holdUpEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}
