import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import { DayIndexStore } from './day-index';
import { HotKeys } from './hot-keys';
import { RawLog } from './raw-log';
import { SnapshotStore } from './snapshots';
import { WindowStore } from './windows';

/**
 * The analytics store: a hot tier in Redis (the days still changing), immutable snapshots of
 * sealed days in MongoDB, the day index that says which is where, the raw events, and the cold
 * windows summed from snapshots. docs/analytics.md explains the layout and why.
 */
export function createAnalyticsStore(
  connection: Connection,
  redis: Redis,
  redisKeyPrefix: string,
  cacheBytes: number,
) {
  const keys = new HotKeys(redisKeyPrefix);
  const snapshots = new SnapshotStore(connection, cacheBytes);
  return {
    redis,
    keys,
    index: new DayIndexStore(connection, redis, keys),
    snapshots,
    raw: new RawLog(connection),
    windows: new WindowStore(redis, keys, snapshots),
  };
}
export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>;
