import type { RedisClient } from '../../../../common/platform/redis';
import type { DayKey, HotKeys } from '../store/hot-keys';
import type { BlockCodec } from './blocks';

/** A hot day's blocks are merged into one once it has this many. */
export const MERGE_HOT_BLOCKS_AT = 32;

/**
 * Keeps a hot day's blocks few: every applied batch adds one per website and day it touched, so a
 * busy day would otherwise be read from thousands of small files. Once a day has `mergeAt`, they
 * become one block under a new change stamp; an engine table holding the old ones loads the day
 * again (engine/event-tables.ts), at most once per `mergeAt` batches.
 */
export class HotBlockMerger {
  constructor(
    private readonly keys: HotKeys,
    private readonly codec: BlockCodec,
    private readonly mergeAt = MERGE_HOT_BLOCKS_AT,
  ) {}

  /**
   * Merges the blocks of each day that has enough, on a connection of its own (WATCH): a day whose
   * blocks change meanwhile (a batch, its sealing) is left as it is and merged after a later batch.
   * `stamp` is unique to the batch just applied.
   */
  async merge(
    connection: RedisClient,
    days: Iterable<{ website: string; day: DayKey }>,
    stamp: string,
  ): Promise<void> {
    for (const { website, day } of days) {
      const key = this.keys.blocks(website, day);
      if ((await connection.hlen(key)) < this.mergeAt) continue;
      await connection.watch(key);
      const blocks = await connection.hgetallBuffer(key);
      const changes = Object.keys(blocks);
      if (changes.length < this.mergeAt) {
        await connection.unwatch();
        continue;
      }
      const merged = await this.codec.merge(Object.values(blocks));
      await connection
        .multi()
        .hdel(key, ...changes)
        .hset(key, `${stamp}+merged`, merged)
        .exec();
    }
  }
}
