import type { RedisClient } from '../../../../common/platform/redis';
import type { Connection } from 'mongoose';
import { DayIndexStore } from './day-index';
import { HotKeys } from './hot-keys';
import { RawLog } from './raw-log';
import { SnapshotStore } from './snapshots';
import { WindowStore } from './windows';

/**
 * The analytics store: a hot tier in Redis (the days still changing), immutable snapshots of
 * sealed days in MongoDB, the day index that says which is where, the raw events, and the cold
 * windows summed from snapshots. docs/analytics.md explains the layout and why. `cacheBytes` is
 * shared by what is kept in process: snapshots (40 %), cold windows (40 %) and the reads of the
 * hot tier (20 %, services/read-model.ts).
 */
export function createAnalyticsStore(
  connection: Connection,
  redis: RedisClient,
  redisKeyPrefix: string,
  cacheBytes: number,
) {
  const keys = new HotKeys(redisKeyPrefix);
  const snapshots = new SnapshotStore(connection, Math.floor(cacheBytes * 0.4));
  return {
    redis,
    keys,
    index: new DayIndexStore(connection, redis, keys),
    snapshots,
    raw: new RawLog(connection),
    windows: new WindowStore(redis, keys, snapshots, Math.floor(cacheBytes * 0.4)),
    hotCacheBytes: Math.floor(cacheBytes * 0.2),
  };
}
export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>;
