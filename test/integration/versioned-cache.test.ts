import { randomBytes } from 'node:crypto';
import { createLogger } from '../../common/platform/logger';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { bumpGeneration, VersionedCache } from '../../common/platform/versioned-cache';
import { testKeyPrefix } from '../support/redis';
import { startTcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

describe('VersionedCache (per-process cache dropped on every instance through Redis)', () => {
  const redis = createRedis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const generationKey = `${testKeyPrefix(`versioned-cache_${randomBytes(4).toString('hex')}`)}generation`;
  const newCache = () =>
    new VersionedCache<{ version: number }>(
      redis,
      { generationKey, ttlMs: 60_000, negativeTtlMs: 60_000 },
      createLogger('test', 'silent'),
    );

  beforeAll(() => waitForRedis(redis));
  afterAll(async () => {
    await redis.del(generationKey);
    redis.disconnect();
  });

  it('KEY-9: when a revocation lands while a value is being loaded and another lookup has seen it, then the value loaded before is not kept', async () => {
    const cache = newCache();
    let loading!: () => void;
    const loadStarted = new Promise<void>((resolve) => (loading = resolve));
    let release!: () => void;
    const slowLoad = cache.get('key', async () => {
      loading();
      await new Promise<void>((resolve) => (release = resolve));
      return { version: 1 }; // read before the revocation
    });
    await loadStarted;
    await bumpGeneration(redis, generationKey);
    // Another lookup on this instance sees the new generation while the first still loads.
    expect(await cache.get('other', async () => ({ version: 0 }))).toEqual({ version: 0 });
    release();
    expect(await slowLoad).toEqual({ version: 1 });
    expect(await cache.get('key', async () => ({ version: 2 }))).toEqual({ version: 2 });
  });

  it('KEY-9: when something changed since a value was cached, then peek shows it only until isCurrent says otherwise', async () => {
    const cache = newCache();
    await cache.get('key', async () => ({ version: 1 }));
    expect(cache.peek('key')).toEqual({ version: 1 });
    expect(await cache.isCurrent()).toBe(true);
    await bumpGeneration(redis, generationKey);
    expect(cache.peek('key')).toEqual({ version: 1 }); // unconfirmed until asked
    expect(await cache.isCurrent()).toBe(false);
    expect(cache.peek('key')).toBeUndefined();
    expect(await cache.get('key', async () => ({ version: 2 }))).toEqual({ version: 2 });
    expect(await cache.isCurrent()).toBe(true);
  });

  it('when Redis goes away, then cached values are still served and new ones kept for their time to live; when it is back, everything cached is dropped (changes made meanwhile could not be announced)', async () => {
    const target = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const proxy = await startTcpProxy(Number(target.port || 6379), target.hostname);
    const viaProxy = createRedis(`redis://127.0.0.1:${proxy.port}`);
    viaProxy.on('error', () => undefined);
    const cache = new VersionedCache<{ version: number }>(
      viaProxy,
      { generationKey, ttlMs: 60_000, negativeTtlMs: 60_000 },
      createLogger('test', 'silent'),
    );
    try {
      await waitForRedis(viaProxy);
      await cache.get('known', async () => ({ version: 1 }));
      await proxy.cut();
      await waitFor(async () => viaProxy.status !== 'ready');
      const loads: string[] = [];
      const load = (key: string, version: number) => async () => {
        loads.push(key);
        return { version };
      };
      expect(await cache.get('known', load('known', 99))).toEqual({ version: 1 });
      expect(await cache.get('new', load('new', 2))).toEqual({ version: 2 });
      expect(await cache.get('new', load('new', 98))).toEqual({ version: 2 });
      expect(loads).toEqual(['new']);

      await proxy.restore();
      await waitForRedis(viaProxy, 10_000);
      expect(await cache.get('known', load('known', 3))).toEqual({ version: 3 });
      expect(await cache.get('new', load('new', 4))).toEqual({ version: 4 });
    } finally {
      viaProxy.disconnect();
      await proxy.cut();
    }
  });
});
