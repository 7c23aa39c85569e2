import { randomBytes } from 'node:crypto';
import { createLogger } from '../../common/platform/logger';
import {
  buildEvent,
  platformEventStream,
  publishPlatformEvent,
} from '../../common/contracts/platform-events';
import {
  deadLetterStream,
  StreamConsumer,
  type StreamEntry,
} from '../../common/platform/stream-consumer';
import { createPlatformEventConsumer } from '../../subgraphs/webhooks/src/delivery/platform-event-consumer';
import type { RedisClient } from '../../common/platform/redis';
import { captureLogs } from '../support/log-capture';
import { openTestRedis, testKeyPrefix } from '../support/redis';
import { waitFor } from '../support/wait';

const logger = createLogger('stream-consumer-test', 'silent');

describe('StreamConsumer', () => {
  let redis: RedisClient;
  let stream: string;
  beforeEach(async () => {
    redis = await openTestRedis();
    // Tagged as the services' streams are: its lease and dead letters share its cluster slot.
    stream = `${testKeyPrefix(`stream_${randomBytes(4).toString('hex')}`)}{stream}`;
  });
  afterEach(async () => {
    await redis.del(stream, `${stream}:lease`);
    redis.disconnect();
  });

  /** What every consumer here shares: this test's stream, one group, short blocking reads. */
  const common = () => ({ redis, stream, group: 'g', logger, blockMs: 50 });
  const lease = () => ({ leaseKey: `${stream}:lease`, leaseMs: 600 });

  const consumer = (seen: string[], name: string, exclusive: boolean) =>
    new StreamConsumer({
      ...common(),
      ...(exclusive ? { exclusive: lease() } : {}),
      handle: async (entries: StreamEntry[]) => {
        for (const entry of entries) seen.push(`${name}:${entry.fields.n}`);
      },
    });

  it('when two instances share a group, then every entry is handled once', async () => {
    const seen: string[] = [];
    const a = consumer(seen, 'a', false);
    const b = consumer(seen, 'b', false);
    await Promise.all([a.start(), b.start()]);
    for (let n = 0; n < 40; n += 1) await redis.xadd(stream, '*', 'n', String(n));
    await waitFor(() => seen.length === 40);
    await Promise.all([a.stop(), b.stop()]);
    expect(new Set(seen.map((s) => s.split(':')[1])).size).toBe(40);
  });

  it.each([
    [true, 0],
    [false, 12],
  ])(
    'when deleteAcknowledged is %s and every entry is handled, then %i entries stay in the stream',
    async (deleteAcknowledged, left) => {
      const seen: string[] = [];
      const c = new StreamConsumer({
        ...common(),
        deleteAcknowledged,
        handle: async (entries: StreamEntry[]) => {
          for (const entry of entries) seen.push(entry.fields.n!);
        },
      });
      await c.start();
      for (let n = 0; n < 12; n += 1) await redis.xadd(stream, '*', 'n', String(n));
      await waitFor(() => seen.length === 12);
      await c.stop();
      expect(await redis.xlen(stream)).toBe(left);
      expect(await redis.xpending(stream, 'g')).toEqual([0, null, null, null]);
    },
  );

  it('when a batch failed and another instance took the lease meanwhile, then the batch is not retried here but left pending for it', async () => {
    const logs = captureLogs();
    let calls = 0;
    const c = new StreamConsumer({
      ...common(),
      logger: createLogger('stream-consumer-test', 'warn', logs.sink),
      exclusive: lease(),
      retry: { maxAttempts: 10 },
      handle: async () => {
        calls += 1;
        await redis.set(`${stream}:lease`, 'another-instance', 'PX', 60_000);
        throw new Error('MongoDB went away');
      },
    });
    await c.start();
    for (let n = 0; n < 3; n += 1) await redis.xadd(stream, '*', 'n', String(n));
    // Where it would retry, it checks the lease first and gives the batch up.
    await waitFor(() =>
      logs.records().some((m) => m.msg === 'lease lost; batch left to its holder'),
    );
    await c.stop();
    expect(calls).toBe(1);
    expect((await redis.xpending(stream, 'g'))[0]).toBe(3);
  });

  it('when a batch keeps failing during an outage, then retries are logged at attempts 1, 2, 4, … and the recovery once', async () => {
    const logs = captureLogs();
    let calls = 0;
    const c = new StreamConsumer({
      ...common(),
      logger: createLogger('stream-consumer-test', 'info', logs.sink),
      retry: { maxAttempts: 3, isTransient: () => true },
      handle: async () => {
        calls += 1;
        if (calls <= 5) throw new Error('MongoDB went away');
      },
    });
    await c.start();
    await redis.xadd(stream, '*', 'n', '1');
    await waitFor(() => calls === 6, 10_000);
    await c.stop();
    const messages = logs.records();
    expect(
      messages
        .filter((m) => m.msg === 'stream batch failed; retrying it in place')
        .map((m) => m.attempt),
    ).toEqual([1, 2, 4]);
    expect(messages.filter((m) => m.msg === 'stream batch applied on retry')).toHaveLength(1);
    expect((await redis.xpending(stream, 'g'))[0]).toBe(0);
  });

  it('when acknowledging an applied batch fails, then it is retried before anything newer is read, so no batch is applied twice out of order', async () => {
    const batches: string[] = [];
    const c = new StreamConsumer({
      ...common(),
      batchSize: 2,
      claimIdleMs: 100,
      exclusive: lease(),
      retry: { maxAttempts: 10 },
      handle: async (entries: StreamEntry[]) => {
        batches.push(entries.map((e) => e.fields.n).join(','));
      },
    });
    for (let n = 1; n <= 3; n += 1) await redis.xadd(stream, '*', 'n', String(n));
    // The first acknowledgement fails (a Redis blip); MULTI is how the consumer acknowledges.
    const multi = redis.multi.bind(redis);
    const failing = jest.spyOn(redis, 'multi').mockImplementationOnce(() => {
      const transaction = multi();
      transaction.exec = async () => {
        throw new Error('injected: connection reset');
      };
      return transaction;
    });
    await c.start();
    // Nothing left pending: no batch can be claimed again (after claimIdleMs) and applied twice.
    await waitFor(async () => batches.length >= 2 && (await redis.xpending(stream, 'g'))[0] === 0);
    await c.stop();
    failing.mockRestore();
    expect(batches).toEqual(['1,2', '3']);
    expect((await redis.xpending(stream, 'g'))[0]).toBe(0);
  });

  it('when the lease moves to another instance while a batch is applied, then the next write step refuses and nothing is retried here', async () => {
    const logs = captureLogs();
    const steps: string[] = [];
    const c = new StreamConsumer({
      ...common(),
      logger: createLogger('stream-consumer-test', 'warn', logs.sink),
      exclusive: lease(),
      retry: { maxAttempts: 10 },
      handle: async (_entries: StreamEntry[], stillLeased) => {
        steps.push('first write');
        await redis.set(`${stream}:lease`, 'another-instance', 'PX', 60_000); // a stall, say
        await stillLeased();
        steps.push('second write');
      },
    });
    await c.start();
    await redis.xadd(stream, '*', 'n', '1');
    // The batch is given up (LeaseLostError reaches the loop) and the consumer stands by.
    await waitFor(() =>
      logs
        .records()
        .some(
          (m) =>
            m.msg === 'stream consumer error; retrying' && m.err === 'the lease is held elsewhere',
        ),
    );
    await c.stop();
    expect(steps).toEqual(['first write']);
    expect((await redis.xpending(stream, 'g'))[0]).toBe(1);
  });

  it('when consumption is exclusive, then only the lease holder works and a standby takes over when it stops', async () => {
    const seen: string[] = [];
    const a = consumer(seen, 'a', true);
    const b = consumer(seen, 'b', true);
    await a.start();
    await b.start();
    for (let n = 0; n < 10; n += 1) await redis.xadd(stream, '*', 'n', String(n));
    await waitFor(() => seen.length === 10);
    expect(seen.every((s) => s.startsWith('a:'))).toBe(true);

    await a.stop();
    for (let n = 10; n < 20; n += 1) await redis.xadd(stream, '*', 'n', String(n));
    await waitFor(() => seen.length === 20);
    expect(seen.slice(10).every((s) => s.startsWith('b:'))).toBe(true);
    await b.stop();
  });
});

describe('platform-event consumer', () => {
  it('when handing events over fails while MongoDB is away, then they are retried in place and handed over as soon as it is back, none dead-lettered', async () => {
    const redis = await openTestRedis();
    const prefix = testKeyPrefix(`platform-events_${randomBytes(4).toString('hex')}`);
    const handed: string[] = [];
    let failures = 0;
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), {
      name: 'MongoNetworkError',
    });
    const consumer = createPlatformEventConsumer(
      redis,
      prefix,
      async (event) => {
        // More failures than a batch may have before it is dead-lettered: an outage must not be.
        if (failures < 11) {
          failures += 1;
          throw outage;
        }
        handed.push(event.id);
      },
      logger,
    );
    try {
      await consumer.start();
      const event = buildEvent('api_key.created', 'user-1', 'org-1', {});
      await publishPlatformEvent(redis, prefix, event);
      // The claim timeout for entries of dead consumers is 60 s: this is the retry in place.
      await waitFor(() => handed.length > 0, 30_000);
      expect(handed).toEqual([event.id]);
      expect(await redis.xlen(deadLetterStream(platformEventStream(prefix)))).toBe(0);
    } finally {
      await consumer.stop();
      await redis.del(platformEventStream(prefix), deadLetterStream(platformEventStream(prefix)));
      redis.disconnect();
    }
  }, 40_000);
});
