import { randomBytes } from 'node:crypto';
import {
  announceReadChange,
  readGenerationKey,
  SITE_GENERATION_TTL_MS,
  siteTag,
  type ReadTag,
} from '../../common/contracts/read-cache';
import { createLogger } from '../../common/platform/logger';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { NO_GENERATION, ReadCache } from '../../rest-facade/src/cache/read-cache';
import { startTcpProxy } from '../support/tcp-proxy';
import { deleteKeysMatching, keysMatching, testKeyPrefix } from '../support/redis';
import { waitFor, waitUntil } from '../support/wait';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('ReadCache (answers stamped with the generation of their data, in process and in Redis)', () => {
  const redis = createRedis(REDIS_URL);
  const prefix = testKeyPrefix(`read-cache_${randomBytes(4).toString('hex')}`);
  const clients: ReturnType<typeof createRedis>[] = [];
  const site = siteTag('w1');

  /** One facade's cache, on its own connection. */
  async function facadeCache(url = REDIS_URL) {
    const connection = createRedis(url);
    connection.on('error', () => undefined);
    clients.push(connection);
    await waitForRedis(connection);
    const cache = new ReadCache(
      connection,
      { prefix, localEntries: 100, maxAgeMs: 60_000 },
      createLogger('test', 'silent'),
    );
    return { cache, connection };
  }

  /** A call's read: generation, lookup, and the answer stored when it missed. */
  async function read(cache: ReadCache, request: string, answer = '{}', tag: ReadTag = site) {
    const lookup = await cache.lookup(tag, await cache.generation(tag), request);
    if (lookup.result === 'miss') lookup.store(answer);
    return lookup;
  }

  beforeAll(() => waitForRedis(redis));
  afterAll(async () => {
    await deleteKeysMatching(redis, `${prefix}*`);
    for (const client of [redis, ...clients]) client.disconnect();
  });

  it('when an answer was stored, then the next read of the same request hits this process, and another facade finds it in Redis', async () => {
    const a = await facadeCache();
    const b = await facadeCache();
    expect((await read(a.cache, 'GET /analytics/w1?range=7d', '{"n":1}')).result).toBe('miss');
    expect(await read(a.cache, 'GET /analytics/w1?range=7d')).toEqual({
      result: 'hit-local',
      body: '{"n":1}',
    });
    // Stored in Redis without holding the call up.
    await waitFor(
      async () => (await keysMatching(redis, `${prefix}read-cache:{${site}}:*`)).length > 0,
    );
    expect(await read(b.cache, 'GET /analytics/w1?range=7d')).toEqual({
      result: 'hit-shared',
      body: '{"n":1}',
    });
  });

  it('when a website has no generation, then reading creates none, and the first answer kept starts it, to expire a day after', async () => {
    const { cache } = await facadeCache();
    const fresh = siteTag('never-written');
    const key = readGenerationKey(prefix, fresh);
    expect(await cache.generation(fresh)).toBe(NO_GENERATION);
    const lookup = await cache.lookup(fresh, NO_GENERATION, 'GET /pages/never-written');
    expect(await redis.exists(key)).toBe(0);
    if (lookup.result !== 'miss') throw new Error(`expected a miss, got ${lookup.result}`);
    lookup.store('{"first":true}');
    await waitFor(async () => (await redis.exists(key)) === 1);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(SITE_GENERATION_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(SITE_GENERATION_TTL_MS);
    expect(await read(cache, 'GET /pages/never-written', '{}', fresh)).toEqual({
      result: 'hit-local',
      body: '{"first":true}',
    });
  });

  it('when a change is announced between a call’s read of a missing generation and its answer, then that answer is not kept', async () => {
    const a = await facadeCache();
    const b = await facadeCache();
    const fresh = siteTag('written-meanwhile');
    const lookup = await a.cache.lookup(
      fresh,
      await a.cache.generation(fresh),
      'GET /visitors/written-meanwhile',
    );
    await announceReadChange(redis, prefix, fresh);
    if (lookup.result !== 'miss') throw new Error(`expected a miss, got ${lookup.result}`);
    lookup.store('{"before":true}');
    const generation = await redis.get(readGenerationKey(prefix, fresh));
    // The write that would keep it goes out before the next read: neither tier holds it.
    for (const { cache } of [a, b]) {
      const again = await cache.lookup(
        fresh,
        await cache.generation(fresh),
        'GET /visitors/written-meanwhile',
      );
      expect(again.result).toBe('miss');
    }
    expect(await redis.get(readGenerationKey(prefix, fresh))).toBe(generation);
  });

  it('when a writer announces a change of a website, then its generation expires a day after; the accounts’ is kept', async () => {
    const tag = siteTag('announced');
    await announceReadChange(redis, prefix, tag);
    expect(await redis.pttl(readGenerationKey(prefix, tag))).toBeGreaterThan(
      SITE_GENERATION_TTL_MS - 60_000,
    );
    await announceReadChange(redis, prefix, 'accounts');
    expect(await redis.pttl(readGenerationKey(prefix, 'accounts'))).toBe(-1);
  });

  it('when two requests differ in anything (variables, scope), then neither is answered with the other', async () => {
    const { cache } = await facadeCache();
    await read(cache, 'GET /analytics/w1 scope=org1:w1', '{"org":1}');
    expect((await read(cache, 'GET /analytics/w1 scope=org2:w1')).result).toBe('miss');
  });

  it('when a change of the website was announced, then the very next read misses on every facade, from either tier', async () => {
    const a = await facadeCache();
    const b = await facadeCache();
    await read(a.cache, 'GET /visitors/w1', '{"before":true}');
    await waitFor(async () => (await read(b.cache, 'GET /visitors/w1')).result === 'hit-shared');
    await announceReadChange(redis, prefix, site);
    expect((await read(b.cache, 'GET /visitors/w1', '{"after":true}')).result).toBe('miss');
    // a holds the old answer in process; it may only find the one b just stored.
    const onA = await read(a.cache, 'GET /visitors/w1', '{"after":true}');
    expect(onA).not.toEqual(expect.objectContaining({ body: '{"before":true}' }));
    // A change of another website dates nothing here.
    await announceReadChange(redis, prefix, siteTag('w2'));
    expect(await read(a.cache, 'GET /visitors/w1')).toEqual({
      result: 'hit-local',
      body: '{"after":true}',
    });
  });

  it('when an accounts change was announced, then the answers dated by the accounts are out of date', async () => {
    const { cache } = await facadeCache();
    await read(cache, 'GET /websites/w1', '{"name":"old"}', 'accounts');
    await announceReadChange(redis, prefix, 'accounts');
    expect((await read(cache, 'GET /websites/w1', '{}', 'accounts')).result).toBe('miss');
  });

  it('when calls ask for a generation in the same turn, then they share one read, and a call after it was sent reads afresh and sees a change announced meanwhile', async () => {
    const { cache, connection } = await facadeCache();
    await cache.generation(site);
    const sent = jest.spyOn(connection, 'get');
    const first = cache.generation(site);
    const second = cache.generation(site);
    expect(second).toBe(first);
    expect(sent).toHaveBeenCalledTimes(1);
    const before = await first;
    await announceReadChange(redis, prefix, site);
    const after = await cache.generation(site);
    expect(sent).toHaveBeenCalledTimes(2);
    expect(after).not.toBe(before);
    sent.mockRestore();
  });
  it('when Redis lost its data (restarted empty), then an answer this process stored before is not served', async () => {
    const { cache } = await facadeCache();
    await read(cache, 'GET /errors/w1', '{"before":true}');
    expect((await read(cache, 'GET /errors/w1')).result).toBe('hit-local');
    // A generation restarts from the clock, so it cannot come back to a value stamped before.
    await waitUntil(Date.now() + 1);
    await deleteKeysMatching(redis, `${prefix}*`);
    expect((await read(cache, 'GET /errors/w1')).result).toBe('miss');
  });

  it('when Redis does not answer, then reads bypass the cache (nothing served, nothing stored), and the cache works again once Redis is back', async () => {
    const target = new URL(REDIS_URL);
    const proxy = await startTcpProxy(Number(target.port || 6379), target.hostname);
    const a = await facadeCache(`redis://127.0.0.1:${proxy.port}`);
    try {
      await read(a.cache, 'GET /replays/w1', '{"n":1}');
      await proxy.cut();
      await waitFor(() => a.connection.status !== 'ready');
      // Even the answer this process holds is not served: whether it is current is unknown.
      expect(await read(a.cache, 'GET /replays/w1')).toEqual({ result: 'bypass' });
      await proxy.restore();
      await waitFor(() => a.connection.status === 'ready');
      expect(await read(a.cache, 'GET /replays/w1')).toEqual({
        result: 'hit-local',
        body: '{"n":1}',
      });
    } finally {
      a.connection.disconnect();
      await proxy.close();
    }
  });
});
