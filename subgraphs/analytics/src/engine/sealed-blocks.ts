import { mongo, type Connection } from 'mongoose';
import { onlyDuplicateKeys } from '../../../../common/platform/duplicate-keys';
import { dayStartOf, type DayKey } from '../store/hot-keys';
import { Partitions } from '../store/partitions';

type StoredBlock = {
  _id: string;
  website: string;
  day: string;
  data: mongo.Binary;
  /** On the first part: how many parts the block has (the others are `<id>#1`, `<id>#2`, …). */
  parts?: number;
};

/** Bytes per document: well under MongoDB's 16 MiB limit, whatever a day's traffic. */
export const BLOCK_PART_BYTES = 8 * 1024 * 1024;

/**
 * A part's `_id`: the website, the snapshot id and the part's number. Led by the website, so a
 * collection sharded on `{ _id: 1 }` keeps a website's blocks together and reads them on one shard.
 */
const partId = (website: string, id: string, part: number) =>
  part === 0 ? `${website}/${id}` : `${website}/${id}#${part}`;

/**
 * The block of each sealed day, in MongoDB (`analytics_blocks_YYYYMM`, by the day's month), under
 * the id of the day's snapshot (store/snapshots.ts): written once when the day is sealed (or made
 * from the day's raw events for a day sealed before blocks existed), read by `_id`, kept as long
 * as the snapshots. A block larger than BLOCK_PART_BYTES is stored in parts, the first written
 * last, so a block whose first part exists is whole.
 */
export class SealedBlocks {
  private readonly partitions: Partitions;

  constructor(
    connection: Connection,
    private readonly partBytes = BLOCK_PART_BYTES,
  ) {
    this.partitions = new Partitions(connection, 'analytics_blocks_', 'month');
  }

  async write(id: string, website: string, day: DayKey, block: Buffer): Promise<void> {
    const parts = Math.max(1, Math.ceil(block.length / this.partBytes));
    const doc = (part: number): StoredBlock => ({
      _id: partId(website, id, part),
      website,
      day,
      data: new mongo.Binary(block.subarray(part * this.partBytes, (part + 1) * this.partBytes)),
      ...(part === 0 ? { parts } : {}),
    });
    const collection = this.collection(day);
    try {
      if (parts > 1)
        await collection.insertMany(
          Array.from({ length: parts - 1 }, (_, i) => doc(i + 1)),
          { ordered: false },
        );
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
    }
    try {
      await collection.insertOne(doc(0));
    } catch (error) {
      // Written already (a seal done again after it was cut short): the same events.
      if (!onlyDuplicateKeys(error)) throw error;
    }
  }

  /**
   * The website's blocks of these snapshot ids (a sealed day each) that exist, by id. Each part is
   * read by `_id` alone: FerretDB answers that from its index, while any other condition (a `$in`,
   * another field) makes it parse every document of the month.
   */
  async read(
    website: string,
    ids: ReadonlyArray<{ id: string; day: DayKey }>,
  ): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    await Promise.all(
      ids.map(async ({ id, day }) => {
        const block = await this.readOne(website, id, day);
        if (block) found.set(id, block);
      }),
    );
    return found;
  }

  private async readOne(website: string, id: string, day: DayKey): Promise<Buffer | null> {
    const collection = this.collection(day);
    const head = await collection.findOne({ _id: partId(website, id, 0) });
    if (!head) return null;
    const tail = await Promise.all(
      Array.from({ length: (head.parts ?? 1) - 1 }, (_, i) =>
        collection.findOne({ _id: partId(website, id, i + 1) }),
      ),
    );
    if (tail.some((part) => part === null)) return null;
    return Buffer.concat([head, ...tail].map((part) => Buffer.from(part!.data.buffer)));
  }

  private collection(day: DayKey): mongo.Collection<StoredBlock> {
    return this.partitions.at(dayStartOf(day)) as unknown as mongo.Collection<StoredBlock>;
  }
}
