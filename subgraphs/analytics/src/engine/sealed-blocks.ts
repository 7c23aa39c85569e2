import { mongo, type Connection } from 'mongoose';
import { onlyDuplicateKeys } from '../../../../common/platform/duplicate-keys';
import { dayStartOf, type DayKey } from '../store/hot-keys';
import { Partitions } from '../store/partitions';

type StoredBlock = { _id: string; website: string; day: string; data: mongo.Binary };

/**
 * The block of each sealed day, in MongoDB (`analytics_blocks_YYYYMM`, by the day's month), under
 * the id of the day's snapshot (store/snapshots.ts): written once when the day is sealed (or made
 * from the day's raw events for a day sealed before blocks existed), read by `_id`, dropped with
 * the raw events after the retention period.
 */
export class SealedBlocks {
  private readonly partitions: Partitions;

  constructor(connection: Connection) {
    this.partitions = new Partitions(connection, 'analytics_blocks_', 'month');
  }

  async write(id: string, website: string, day: DayKey, block: Buffer): Promise<void> {
    try {
      await this.collection(day).insertOne({
        _id: id,
        website,
        day,
        data: new mongo.Binary(block),
      });
    } catch (error) {
      // Written already (a seal done again after it was cut short): the same events.
      if (!onlyDuplicateKeys(error)) throw error;
    }
  }

  /** The blocks of these snapshot ids (a sealed day each) that exist, by id. */
  async read(ids: ReadonlyArray<{ id: string; day: DayKey }>): Promise<Map<string, Buffer>> {
    const byPartition = new Map<string, { day: DayKey; ids: string[] }>();
    for (const { id, day } of ids) {
      const name = this.partitions.nameAt(dayStartOf(day));
      const entry = byPartition.get(name) ?? { day, ids: [] };
      entry.ids.push(id);
      byPartition.set(name, entry);
    }
    const found = new Map<string, Buffer>();
    await Promise.all(
      [...byPartition.values()].map(async ({ day, ids: wanted }) => {
        const docs = await this.collection(day)
          .find({ _id: { $in: wanted } })
          .toArray();
        for (const doc of docs) found.set(doc._id, Buffer.from(doc.data.buffer));
      }),
    );
    return found;
  }

  dropBefore(cutoff: number): Promise<string[]> {
    return this.partitions.dropEndingBefore(cutoff);
  }

  private collection(day: DayKey): mongo.Collection<StoredBlock> {
    return this.partitions.at(dayStartOf(day)) as unknown as mongo.Collection<StoredBlock>;
  }
}
