import { Cluster, Redis } from 'ioredis';
import { createRedis, parseRedisClusterUrl } from '../../common/platform/redis';
import { loadKeysConfig } from '../../subgraphs/keys/src/config';

const secret = 'a'.repeat(64);

describe('REDIS_URL: one server or a Redis Cluster', () => {
  it('when the URL is redis+cluster://, then its hosts are the seed nodes and its credentials go to every node', () => {
    expect(parseRedisClusterUrl('redis+cluster://app:p%40ss@10.0.0.1:7000,10.0.0.2:7001')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      options: { username: 'app', password: 'p@ss' },
    });
    expect(parseRedisClusterUrl('rediss+cluster://cache-1:6380/')).toEqual({
      nodes: [{ host: 'cache-1', port: 6380 }],
      options: { tls: {} },
    });
  });

  it('when the URL is redis:// or rediss://, then it is one server', () => {
    expect(parseRedisClusterUrl('redis://127.0.0.1:6379')).toBeNull();
    expect(parseRedisClusterUrl('rediss://:pw@cache:6380/2')).toBeNull();
  });

  it('when a connection is made, then the scheme alone picks the client', () => {
    const single = createRedis('redis://127.0.0.1:1', { enableOfflineQueue: false });
    const cluster = createRedis('redis+cluster://127.0.0.1:1,127.0.0.1:2');
    for (const client of [single, cluster]) client.on('error', () => undefined);
    try {
      expect(single).toBeInstanceOf(Redis);
      expect(cluster).toBeInstanceOf(Cluster);
    } finally {
      single.disconnect();
      cluster.disconnect();
    }
  });

  it('when a service is configured with a cluster URL, then it is accepted; another scheme is refused', () => {
    const url = 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000';
    expect(loadKeysConfig({ INTERNAL_SECRET: secret, REDIS_URL: url }).redisUrl).toBe(url);
    expect(() => loadKeysConfig({ INTERNAL_SECRET: secret, REDIS_URL: 'cluster://a:1' })).toThrow(
      /REDIS_URL: must be a redis:\/\/, rediss:\/\/, redis\+cluster:\/\/ or rediss\+cluster:\/\/ URL/,
    );
  });
});
