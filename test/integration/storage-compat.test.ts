/**
 * Proves that the MongoDB-compatible engine the tests run against (FerretDB locally and in CI,
 * MongoDB 7 in production) supports every storage operation the services rely on. If a test here
 * fails, the engine changed or the code started depending on something it does not support.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { Schema, type Connection, type Model } from 'mongoose';

interface Counter {
  projectId: string;
  day: string;
  count: number;
  lastSeenAt: Date;
  createdAt: Date;
}

interface Event {
  projectId: string;
  kind: string;
  value: number;
  at: Date;
}

interface Key {
  prefix: string;
  owner: string;
  uses: number;
}

const counterSchema = new Schema<Counter>(
  {
    projectId: { type: String, required: true },
    day: { type: String, required: true },
    count: { type: Number, default: 0 },
    lastSeenAt: Date,
    createdAt: Date,
  },
  { versionKey: false },
);
counterSchema.index({ projectId: 1, day: 1 }, { unique: true });

const eventSchema = new Schema<Event>(
  {
    projectId: { type: String, required: true },
    kind: { type: String, required: true },
    value: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
eventSchema.index({ projectId: 1, at: -1 });

const keySchema = new Schema<Key>(
  {
    prefix: { type: String, required: true, unique: true },
    owner: { type: String, required: true },
    uses: { type: Number, default: 0 },
  },
  { versionKey: false },
);

let connection: Connection;
let Keys: Model<Key>;
let Counters: Model<Counter>;
let Events: Model<Event>;

beforeAll(async () => {
  const base = process.env.TEST_MONGODB_URI;
  if (!base) throw new Error('TEST_MONGODB_URI is not set: is jest globalSetup configured?');
  connection = mongoose.createConnection(`${base}compat_${randomBytes(6).toString('hex')}`, {
    serverSelectionTimeoutMS: 5_000,
    autoIndex: false, // indexes are created explicitly below, so a failure shows up in a test
  });
  await connection.asPromise();
  Keys = connection.model<Key>('Key', keySchema);
  Counters = connection.model<Counter>('Counter', counterSchema);
  Events = connection.model<Event>('Event', eventSchema);
});

afterAll(async () => {
  if (!connection) return;
  await connection.dropDatabase();
  await connection.close();
});

describe('storage compatibility of the test engine', () => {
  it('when a unique index exists and a duplicate is inserted, then it fails with code 11000', async () => {
    await Keys.createIndexes();

    const indexes = await Keys.collection.indexes();
    expect(indexes).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: { prefix: 1 }, unique: true })]),
    );

    await Keys.create({ prefix: 'wa_abc', owner: 'alice' });
    await expect(Keys.create({ prefix: 'wa_abc', owner: 'bob' })).rejects.toMatchObject({
      code: 11000,
    });
    expect(await Keys.countDocuments({ prefix: 'wa_abc' })).toBe(1);
  });

  it('when updateOne upserts with $inc, $max and $setOnInsert twice, then it inserts once and updates once', async () => {
    await Counters.createIndexes();
    const first = new Date('2026-01-01T10:00:00.000Z');
    const later = new Date('2026-01-01T12:00:00.000Z');
    const filter = { projectId: 'p1', day: '2026-01-01' };

    const inserted = await Counters.updateOne(
      filter,
      { $inc: { count: 2 }, $max: { lastSeenAt: later }, $setOnInsert: { createdAt: first } },
      { upsert: true },
    );
    expect(inserted.upsertedCount).toBe(1);

    const updated = await Counters.updateOne(
      filter,
      // An older timestamp must not win $max; $setOnInsert must not apply on update.
      { $inc: { count: 3 }, $max: { lastSeenAt: first }, $setOnInsert: { createdAt: later } },
      { upsert: true },
    );
    expect(updated.upsertedCount).toBe(0);
    expect(updated.matchedCount).toBe(1);

    const doc = await Counters.findOne(filter).lean();
    expect(doc).toMatchObject({ count: 5, lastSeenAt: later, createdAt: first });
  });

  it('when bulkWrite upserts a batch that inserts some and updates others, then the counts and values add up', async () => {
    await Counters.createIndexes();
    await Counters.create({ projectId: 'bulk', day: 'd1', count: 10 });

    const upsert = (day: string, by: number) => ({
      updateOne: {
        filter: { projectId: 'bulk', day },
        update: { $inc: { count: by }, $setOnInsert: { createdAt: new Date(0) } },
        upsert: true,
      },
    });
    const result = await Counters.bulkWrite([upsert('d1', 1), upsert('d2', 2), upsert('d3', 3)], {
      ordered: false,
    });
    expect(result.upsertedCount).toBe(2);
    expect(result.matchedCount).toBe(1);
    expect(result.modifiedCount).toBe(1);

    const docs = await Counters.find({ projectId: 'bulk' }).sort({ day: 1 }).lean();
    expect(docs.map((d) => [d.day, d.count])).toEqual([
      ['d1', 11],
      ['d2', 2],
      ['d3', 3],
    ]);
  });

  it('when find sorts, skips and limits on a compound index, then it returns the right page', async () => {
    await Events.createIndexes();
    const base = Date.parse('2026-02-01T00:00:00.000Z');
    await Events.insertMany(
      Array.from({ length: 10 }, (_, i) => ({
        projectId: 'paged',
        kind: i % 2 === 0 ? 'view' : 'click',
        value: i,
        at: new Date(base + i * 60_000),
      })),
    );
    await Events.create({ projectId: 'other', kind: 'view', value: 99, at: new Date(base) });

    const page = await Events.find({ projectId: 'paged' })
      .sort({ at: -1, _id: -1 })
      .skip(2)
      .limit(3)
      .lean();
    expect(page.map((e) => e.value)).toEqual([7, 6, 5]);

    const ranged = await Events.find({
      projectId: 'paged',
      at: { $gte: new Date(base + 3 * 60_000), $lt: new Date(base + 6 * 60_000) },
    })
      .sort({ at: 1 })
      .lean();
    expect(ranged.map((e) => e.value)).toEqual([3, 4, 5]);
  });

  it('when an aggregation uses $match, $group with $sum and $sort, then it returns the totals', async () => {
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    await Events.insertMany([
      { projectId: 'agg', kind: 'view', value: 1, at: new Date(base) },
      { projectId: 'agg', kind: 'view', value: 4, at: new Date(base + 1) },
      { projectId: 'agg', kind: 'click', value: 2, at: new Date(base + 2) },
      { projectId: 'agg', kind: 'signup', value: 10, at: new Date(base + 3) },
      { projectId: 'not-agg', kind: 'view', value: 100, at: new Date(base) },
    ]);

    // One accumulator per $group: FerretDB 1.x computes only the first accumulator of a $group
    // and returns 0 for every further one, so counts and sums are separate aggregations.
    const totals = await Events.aggregate<{ _id: string; total: number }>([
      { $match: { projectId: 'agg', at: { $gte: new Date(base) } } },
      { $group: { _id: '$kind', total: { $sum: '$value' } } },
      { $sort: { total: -1, _id: 1 } },
    ]);
    expect(totals).toEqual([
      { _id: 'signup', total: 10 },
      { _id: 'view', total: 5 },
      { _id: 'click', total: 2 },
    ]);

    const counts = await Events.aggregate<{ _id: string; events: number }>([
      { $match: { projectId: 'agg' } },
      { $group: { _id: '$kind', events: { $sum: 1 } } },
      { $sort: { events: -1, _id: 1 } },
    ]);
    expect(counts).toEqual([
      { _id: 'view', events: 2 },
      { _id: 'click', events: 1 },
      { _id: 'signup', events: 1 },
    ]);
  });

  it('when findOneAndUpdate asks for the document after the update, then it returns the new document', async () => {
    await Keys.create({ prefix: 'wa_fou', owner: 'carol', uses: 1 });

    const after = await Keys.findOneAndUpdate(
      { prefix: 'wa_fou' },
      { $inc: { uses: 1 }, $set: { owner: 'dave' } },
      { returnDocument: 'after' },
    ).lean();
    expect(after).toMatchObject({ prefix: 'wa_fou', owner: 'dave', uses: 2 });

    const missing = await Keys.findOneAndUpdate(
      { prefix: 'wa_none' },
      { $inc: { uses: 1 } },
      { returnDocument: 'after' },
    ).lean();
    expect(missing).toBeNull();
  });

  it('when countDocuments filters by a field, then it counts only the matching documents', async () => {
    const at = new Date('2026-04-01T00:00:00.000Z');
    await Events.insertMany([
      { projectId: 'count', kind: 'view', value: 1, at },
      { projectId: 'count', kind: 'view', value: 2, at },
      { projectId: 'count', kind: 'click', value: 3, at },
    ]);

    expect(await Events.countDocuments({ projectId: 'count' })).toBe(3);
    expect(await Events.countDocuments({ projectId: 'count', kind: 'view' })).toBe(2);
    expect(await Events.countDocuments({ projectId: 'nothing-here' })).toBe(0);
  });
});
