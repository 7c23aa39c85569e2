import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { SealedBlocks } from '../../subgraphs/analytics/src/engine/sealed-blocks';
import { testMongoUri } from '../support/stack';

describe('sealed days’ blocks in MongoDB (engine/sealed-blocks.ts)', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await mongoose
      .createConnection(testMongoUri(`sealed_blocks_${randomBytes(3).toString('hex')}`))
      .asPromise();
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('DATA-2: when a block is larger than a document may be, then it is stored in parts and read back whole', async () => {
    const blocks = new SealedBlocks(connection, 1_000);
    const block = randomBytes(3_500);
    await blocks.write('s1', 'w1', '2026-11-20', block);
    // Written again (a seal repeated after it was cut short): nothing changes.
    await blocks.write('s1', 'w1', '2026-11-20', block);

    const stored = await connection.collection('analytics_blocks_202611').countDocuments();
    expect(stored).toBe(4);
    const read = await blocks.read('w1', [{ id: 's1', day: '2026-11-20' }]);
    expect(read.get('s1')?.equals(block)).toBe(true);
  });

  it('DATA-2: when a part of a block is missing, then the block counts as absent rather than cut short', async () => {
    const blocks = new SealedBlocks(connection, 1_000);
    await blocks.write('s2', 'w1', '2026-11-21', randomBytes(2_500));
    await connection
      .collection<{ _id: string }>('analytics_blocks_202611')
      .deleteOne({ _id: 'w1/s2#1' });

    const read = await blocks.read('w1', [
      { id: 's2', day: '2026-11-21' },
      { id: 's1', day: '2026-11-20' },
    ]);
    expect([...read.keys()]).toEqual(['s1']);
  });
});
