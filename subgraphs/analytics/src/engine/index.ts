import type { Connection } from 'mongoose';
import type { RedisClient } from '../../../../common/platform/redis';
import type { HotKeys } from '../store/hot-keys';
import type { RawLog } from '../store/raw-log';
import { BlockCodec } from './blocks';
import { Duck, type DuckOptions } from './duck';
import { EventTables } from './event-tables';
import { SealedBlocks } from './sealed-blocks';

export interface EngineOptions extends DuckOptions {
  /** Websites whose tables are kept in DuckDB at once (least recently used go). */
  maxWebsites?: number;
}

/**
 * The event-level engine of an analytics instance: DuckDB in process, the codec of blocks, the
 * sealed days' blocks in MongoDB and the websites' tables built from them (docs/analytics.md,
 * "The engine").
 */
export async function openEngine(
  connection: Connection,
  redis: RedisClient,
  keys: HotKeys,
  raw: RawLog,
  options: EngineOptions = {},
) {
  const duck = await Duck.open(options);
  const codec = new BlockCodec(duck);
  const sealed = new SealedBlocks(connection);
  const tables = new EventTables(duck, codec, redis, keys, sealed, raw, options.maxWebsites);
  return {
    duck,
    codec,
    sealed,
    tables,
    close() {
      codec.close();
      duck.close();
    },
  };
}
export type AnalyticsEngine = Awaited<ReturnType<typeof openEngine>>;
