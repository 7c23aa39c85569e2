import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { createLogger } from '../../common/logger';
import { deadLetterStream, StreamConsumer } from '../../common/stream-consumer';
import type { CollectedEvent } from '../../subgraphs/analytics/src/ingest/collected-event';
import { analyticsEventStream } from '../../subgraphs/analytics/src/ingest/collected-event';
import { OTHER_VALUE } from '../../subgraphs/analytics/src/ingest/aggregate';
import {
  createAnalyticsModels,
  syncAnalyticsIndexes,
  type AnalyticsModels,
} from '../../subgraphs/analytics/src/models';
import { IngestService, isOutage } from '../../subgraphs/analytics/src/services/ingest.service';
import { QueryService } from '../../subgraphs/analytics/src/services/query.service';
import { StatsService } from '../../subgraphs/analytics/src/services/stats.service';
import { testMongoUri } from '../support/stack';

const logger = createLogger('analytics-ingest-test', 'silent');
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const newPrefix = () => `test:ingest-${randomBytes(3).toString('hex')}:`;

/** Deletes every key under `prefix` (admitted value sets, streams, leases). */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

type Batch = Array<{ id: string; event: CollectedEvent }>;

/** A collected event of `visitorId` at T0 + `seconds`; `overrides` pick the type. */
function buildEvent(
  visitorId: string,
  seconds: number,
  overrides: Record<string, unknown> = {},
): CollectedEvent {
  return {
    websiteId: 'w1',
    visitorId,
    ts: T0 + seconds * 1000,
    path: '/',
    country: 'US',
    device: 'desktop',
    browser: 'Chrome',
    os: 'Windows',
    screenWidth: 1440,
    screenHeight: 900,
    type: 'pageview',
    referrer: null,
    source: 'direct',
    ...overrides,
  } as CollectedEvent;
}

const replay = (sequence: number, data: string) => ({
  type: 'replay',
  sessionId: 'session-0001',
  sequence,
  data,
});

/** A click of `visitorId` at T0 + `seconds` in a 1000 × 800 viewport. */
const buildClick = (visitorId: string, seconds: number, overrides: Record<string, unknown> = {}) =>
  buildEvent(visitorId, seconds, {
    type: 'click',
    x: 10,
    y: 20,
    viewportWidth: 1000,
    viewportHeight: 800,
    selector: null,
    ...overrides,
  });

/** One batch touching every collection the write path updates. */
const firstBatch = (): Batch =>
  [
    buildEvent('v1', 0),
    buildEvent('v2', 1, { path: '/pricing' }),
    buildEvent('v1', 60, { path: '/docs' }),
    buildEvent('v3', 2, { source: 'news.example' }),
    buildEvent('v2', 3, { type: 'event', name: 'signup', props: { plan: 'pro' } }),
    buildClick('v1', 61),
    buildEvent('v3', 4, {
      type: 'error',
      message: 'x is undefined',
      stack: null,
      fingerprint: 'f1',
    }),
    buildEvent('v1', 62, replay(0, '[{"type":4}]')),
    buildEvent('v1', 63, replay(1, '[{"type":3}]')),
  ].map((event, i) => ({ id: `100-${i}`, event }));

/** The next batch: v1 and v2 come back within their sessions; chunk 1 is sent again. */
const secondBatch = (): Batch =>
  [
    buildEvent('v1', 120, { path: '/docs/2' }),
    buildEvent('v2', 121),
    buildEvent('v1', 122, replay(1, '[{"type":3}]')),
    buildEvent('v1', 123, replay(2, '[{"type":2}]')),
  ].map((event, i) => ({ id: `200-${i}`, event }));

/** Every stored document that ingestion writes, without ids or bookkeeping, in a stable order. */
async function snapshot(models: AnalyticsModels) {
  const hidden = { _id: 0, __v: 0, lastBatch: 0, createdAt: 0, updatedAt: 0 };
  const all = async (model: { find(f: object, p: object): { lean(): Promise<unknown[]> } }) =>
    (await model.find({}, hidden).lean()).map((doc) => JSON.stringify(doc)).sort();
  return {
    totals: await all(models.StatTotal),
    stats: await all(models.Stat),
    visitors: await all(models.Visitor),
    heatmaps: await all(models.Heatmap),
    errors: await all(models.ErrorGroup),
    replaySessions: await all(models.ReplaySession),
    replayChunks: await all(models.ReplayChunk),
    websiteTotals: await all(models.WebsiteTotals),
    events: (await models.Event.find({}, { _id: 1 }).lean()).map((e) => String(e._id)).sort(),
  };
}

describe('analytics ingestion (IngestService)', () => {
  let connection: Connection;
  let models: AnalyticsModels;
  let redis: Redis;
  const prefix = newPrefix();
  let ingest: IngestService;
  let expected: Awaited<ReturnType<typeof snapshot>>;

  const clear = () =>
    Promise.all(
      Object.values(models).map((model: mongoose.Model<unknown>) => model.deleteMany({})),
    );

  beforeAll(async () => {
    connection = await mongoose
      .createConnection(testMongoUri(`analytics_ingest_${randomBytes(3).toString('hex')}`))
      .asPromise();
    models = createAnalyticsModels(connection);
    await syncAnalyticsIndexes(models);
    redis = new Redis(redisUrl);
    ingest = new IngestService(models, redis, prefix, logger, 1000);
    // What the two batches leave behind when nothing fails.
    await ingest.apply(firstBatch());
    await ingest.apply(secondBatch());
    expected = await snapshot(models);
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await connection.dropDatabase();
    await connection.close();
  });
  beforeEach(clear);
  afterEach(() => jest.restoreAllMocks());

  /** Makes the next call write the first half of what it was given, then fail. */
  function failOnceHalfway<A extends unknown[]>(
    target: object,
    method: string,
  ): jest.SpyInstance<Promise<unknown>, A> {
    const original = (target as Record<string, (...args: A) => Promise<unknown>>)[method]!.bind(
      target,
    );
    return (
      jest.spyOn(target as never, method as never) as jest.SpyInstance<Promise<unknown>, A>
    ).mockImplementationOnce((async (...args: A) => {
      const [items, ...rest] = args as unknown as [unknown[], ...unknown[]];
      await original(...([items.slice(0, Math.floor(items.length / 2)), ...rest] as A));
      throw new Error('injected: connection reset');
    }) as never);
  }

  it.each([
    ['the website totals', () => failOnceHalfway(models.StatTotal, 'bulkWrite')],
    ['the breakdown counters', () => failOnceHalfway(models.Stat, 'bulkWrite')],
    ['the visitor states', () => failOnceHalfway(models.Visitor, 'bulkWrite')],
    ['the replay sessions', () => failOnceHalfway(models.ReplaySession, 'bulkWrite')],
    ['the replay chunks', () => failOnceHalfway(models.ReplayChunk.collection, 'insertMany')],
    ['the raw events', () => failOnceHalfway(models.Event.collection, 'insertMany')],
  ])(
    'DATA-2 DATA-6: when writing %s fails halfway through a batch, then the retried batch applies exactly what was missing',
    async (_, inject) => {
      const spy = inject();
      await expect(ingest.apply(firstBatch())).rejects.toThrow('injected');
      expect(spy).toHaveBeenCalledTimes(1);

      await ingest.apply(firstBatch());
      await ingest.apply(firstBatch()); // delivered once more: a no-op
      await ingest.apply(secondBatch());

      expect(await snapshot(models)).toEqual(expected);
    },
  );

  it('DATA-2: when a bulk write fails as a whole (no write errors: MongoDB unreachable, a command error), then the batch fails to be retried, instead of being resubmitted forever', async () => {
    // What the driver throws when the server cannot be selected during bulkWrite/insertMany.
    const selection = Object.assign(new Error('server selection timed out'), {
      name: 'MongoServerSelectionError',
    });
    const wrapped = Object.assign(new Error(selection.message), {
      name: 'MongoBulkWriteError',
      writeErrors: [],
      errorResponse: selection,
    });
    const spy = jest.spyOn(models.Stat, 'bulkWrite').mockRejectedValueOnce(wrapped);
    await expect(ingest.apply(firstBatch())).rejects.toBe(wrapped);
    expect(spy).toHaveBeenCalledTimes(1);
    // An outage: the consumer retries the batch for as long as it lasts, never dead-letters it.
    expect(isOutage(wrapped)).toBe(true);
    expect(isOutage(Object.assign(new Error('bad command'), { writeErrors: [] }))).toBe(false);

    await ingest.apply(firstBatch());
    await ingest.apply(secondBatch());
    expect(await snapshot(models)).toEqual(expected);
  });

  it('DATA-2: when a batch is applied again after a later one (a stalled holder resuming), then nothing is counted twice', async () => {
    await ingest.apply(firstBatch());
    await ingest.apply(secondBatch());
    await ingest.apply(firstBatch()); // the stale holder's copy of the first batch

    expect(await snapshot(models)).toEqual(expected);
  });

  it('DATA-6: when a replay chunk is sent again, then it is stored once and counted once', async () => {
    await ingest.apply(firstBatch());
    await ingest.apply(secondBatch());

    const [session] = await models.ReplaySession.find({ sessionId: 'session-0001' }).lean();
    expect({ chunks: session?.chunks, bytes: session?.bytes }).toEqual({
      chunks: 3,
      bytes: Buffer.byteLength('[{"type":4}][{"type":3}][{"type":2}]'),
    });
    expect(await models.ReplayChunk.countDocuments({ sessionId: 'session-0001' })).toBe(3);
  });

  it('DATA-6: when older events arrive after newer ones (dead letters re-added), then first and last times follow the events, not their arrival', async () => {
    const error = (seconds: number, path: string) =>
      buildEvent('v7', seconds, {
        type: 'error',
        path,
        message: 'late',
        stack: null,
        fingerprint: 'f-late',
      });
    const chunk = (seconds: number, sequence: number) =>
      buildEvent('v7', seconds, { ...replay(sequence, '[]'), sessionId: 'session-late' });
    await ingest.apply([
      { id: '400-0', event: error(100, '/new') },
      { id: '400-1', event: chunk(100, 1) },
    ]);
    await ingest.apply([
      { id: '401-0', event: error(10, '/old') },
      { id: '401-1', event: error(50, '/older-still-newer') },
      { id: '401-2', event: chunk(10, 0) },
    ]);

    const [group] = await models.ErrorGroup.find({ fingerprint: 'f-late' }).lean();
    expect(group).toMatchObject({
      count: 3,
      firstSeen: new Date(T0 + 10_000),
      lastSeen: new Date(T0 + 100_000),
    });
    const [session] = await models.ReplaySession.find({ sessionId: 'session-late' }).lean();
    expect(session).toMatchObject({
      chunks: 2,
      startedAt: new Date(T0 + 10_000),
      lastActivity: new Date(T0 + 100_000),
    });
  });

  it('DATA-6: when a queued event carries property names MongoDB refuses (dot, dollar, NUL, lone surrogates), then it is stored with them escaped and counted', async () => {
    const event = buildEvent('v9', 0, {
      type: 'event',
      name: 'signup',
      props: { 'plan.name': 'pro', $tier: 2, 'nul\u0000': 'a', '\ud800': 'b', '\udbff': 'c' },
    });

    await ingest.apply([{ id: '300-0', event }]);

    const [raw] = await models.Event.find({ _id: '300-0' }).lean();
    expect((raw?.payload as { props: unknown }).props).toEqual({
      'plan\uff0ename': 'pro',
      '\uff04tier': 2,
      'nul\u2400': 'a',
      '\ufffd': 'c',
    });
    const [total] = await models.StatTotal.find({ granularity: 'day', dim: '' }).lean();
    expect(total?.events).toBe(1);
  });

  it('DATA-2: when custom events were collected in the last hour, then POST /query with date_range 24h and no dimension counts them', async () => {
    const now = Date.now();
    await ingest.apply(
      [
        buildEvent('v1', 0, { ts: now - 1_000 }),
        buildEvent('v1', 0, { ts: now - 500, type: 'event', name: 'signup', props: null }),
      ].map((event, i) => ({ id: `400-${i}`, event })),
    );
    const query = new QueryService(models, () => now);
    const run = (range: 'LAST_24_HOURS' | 'LAST_7_DAYS') =>
      query.run(
        'w1',
        {
          metrics: ['events', 'pageviews'],
          dimensions: [],
          filters: [],
          range,
          orderBy: [],
          limit: 10,
          offset: 0,
        },
        { limit: 10, offset: 0 },
      );

    expect((await run('LAST_24_HOURS')).results).toEqual([{ dimensions: [], metrics: [1, 1] }]);
    expect((await run('LAST_7_DAYS')).results).toEqual([{ dimensions: [], metrics: [1, 1] }]);
  });

  it('DATA-3: when a visitor is active in two hours of the last 24, then POST /query over 24h without a dimension counts it once, as the overview does', async () => {
    const now = Date.now();
    const hours = (n: number) => now - n * 3_600_000;
    await ingest.apply(
      [
        buildEvent('v1', 0, { ts: hours(3) }),
        buildEvent('v1', 0, { ts: hours(1) }),
        buildEvent('v2', 0, { ts: hours(1) }),
        // A click alone, by a visitor whose page view fell out of the range, is no page view in it.
        buildEvent('v3', 0, { ts: hours(30) }),
        buildClick('v3', 0, { ts: hours(1) }),
      ].map((event, i) => ({ id: `500-${i}`, event })),
    );
    const query = await new QueryService(models, () => now).run(
      'w1',
      {
        metrics: ['visitors', 'pageviews'],
        dimensions: [],
        filters: [],
        range: 'LAST_24_HOURS',
        orderBy: [],
        limit: 10,
        offset: 0,
      },
      { limit: 10, offset: 0 },
    );
    const overview = await new StatsService(models, () => now).overview('w1', 'LAST_24_HOURS');

    expect(query.results).toEqual([{ dimensions: [], metrics: [2, 3] }]);
    expect(overview.summary.uniqueVisitors).toBe(2);
  });

  describe('distinct values per website, dimension and day (cap of 3)', () => {
    let capped: string;
    let service: IngestService;
    beforeEach(() => {
      capped = newPrefix();
      service = new IngestService(models, redis, capped, logger, 1000, 3);
    });
    afterEach(() => deleteKeys(redis, capped));

    /** Five visitors on five pages, each also clicking there and raising its own error. */
    const crowdedBatch = (): Batch =>
      ['/a', '/b', '/c', '/d', '/e']
        .flatMap((path, i) => [
          buildEvent(`v${i}`, i, { path }),
          buildClick(`v${i}`, 10 + i, { path }),
          buildEvent(`v${i}`, 20 + i, {
            path,
            type: 'error',
            message: `error ${i}`,
            stack: null,
            fingerprint: `f${i}`,
          }),
        ])
        .map((event, i) => ({ id: `500-${i}`, event }));

    const pageRows = async (granularity: 'day' | 'hour') =>
      Object.fromEntries(
        (await models.Stat.find({ dim: 'page', granularity }).lean()).map((s) => [
          s.value,
          s.pageviews,
        ]),
      );

    it('DATA-6: when a day brings more distinct pages than the cap, then the rest are counted as (other), the totals stay exact and raw events keep the real paths', async () => {
      await service.apply(crowdedBatch());

      const expectedPages = { '/a': 1, '/b': 1, '/c': 1, [OTHER_VALUE]: 2 };
      expect(await pageRows('day')).toEqual(expectedPages);
      expect(await pageRows('hour')).toEqual(expectedPages);
      const [total] = await models.StatTotal.find({ granularity: 'day' }).lean();
      expect(total?.pageviews).toBe(5);
      const [websiteTotals] = await models.WebsiteTotals.find({ websiteId: 'w1' }).lean();
      expect(websiteTotals?.pageviews).toBe(5);
      const heatmaps = await models.Heatmap.find({}).lean();
      expect(heatmaps.map((h) => [h.path, h.clicks]).sort()).toEqual([
        ['(other)', 2],
        ['/a', 1],
        ['/b', 1],
        ['/c', 1],
      ]);
      const groups = await models.ErrorGroup.find({}).lean();
      expect(groups.map((g) => [g.fingerprint, g.count]).sort()).toEqual([
        ['(other)', 2],
        ['f0', 1],
        ['f1', 1],
        ['f2', 1],
      ]);
      const raw = await models.Event.find({ type: 'pageview' }).lean();
      expect(raw.map((e) => e.path).sort()).toEqual(['/a', '/b', '/c', '/d', '/e']);
    });

    it('DATA-6: when a batch fails after its values were admitted and is retried, then the retry makes the same decisions and every event counts once', async () => {
      const spy = failOnceHalfway(models.Stat, 'bulkWrite');
      await expect(service.apply(crowdedBatch())).rejects.toThrow('injected');
      expect(spy).toHaveBeenCalledTimes(1);

      await service.apply(crowdedBatch());
      await service.apply(
        [buildEvent('v9', 60, { path: '/a' }), buildEvent('v9', 61, { path: '/f' })].map(
          (event, i) => ({ id: `600-${i}`, event }),
        ),
      );

      expect(await pageRows('day')).toEqual({ '/a': 2, '/b': 1, '/c': 1, [OTHER_VALUE]: 3 });
      const [total] = await models.StatTotal.find({ granularity: 'day' }).lean();
      expect(total?.pageviews).toBe(7);
    });

    it('DATA-6: when Redis cannot be reached for admission, then the batch fails as an outage (retried, not dead-lettered), writes nothing, and counts normally once Redis is back', async () => {
      const offline = new Redis(redisUrl, { enableOfflineQueue: false, lazyConnect: true });
      const unreachable = new IngestService(models, offline, capped, logger, 1000, 3);

      const failure = await unreachable.apply(crowdedBatch()).then(
        () => null,
        (error: unknown) => error,
      );
      offline.disconnect();

      expect(isOutage(failure)).toBe(true);
      expect(await models.Stat.countDocuments({})).toBe(0);
      expect(await models.StatTotal.countDocuments({})).toBe(0);
      await service.apply(crowdedBatch());
      expect(await pageRows('day')).toEqual({ '/a': 1, '/b': 1, '/c': 1, [OTHER_VALUE]: 2 });
    });

    it('DATA-6: when pages beyond the cap were counted, then the pages breakdown returns (other) as a row', async () => {
      await service.apply(crowdedBatch());

      const stats = new StatsService(models, () => T0 + 3_600_000);
      const { rows } = await stats.breakdown('w1', 'PAGE', 'LAST_7_DAYS', {
        limit: 10,
        offset: 0,
      });

      expect(rows.map((r) => [r.value, r.pageviews])).toEqual([
        [OTHER_VALUE, 2],
        ['/a', 1],
        ['/b', 1],
        ['/c', 1],
      ]);
    });
  });

  describe('through the Redis stream', () => {
    let prefix: string;
    beforeEach(() => {
      prefix = newPrefix();
    });
    afterEach(() => deleteKeys(redis, prefix));

    it('DATA-6: when a batch fails once after part of it was written, then the consumer retries it before anything newer and every event counts once', async () => {
      const stream = analyticsEventStream(prefix);
      for (const { event } of firstBatch())
        await redis.xadd(stream, '*', 'event', JSON.stringify(event));
      const service = new IngestService(models, redis, prefix, logger, 1000);
      failOnceHalfway(models.Stat, 'bulkWrite');

      await service.start();
      try {
        await service.waitUntilIdle();
        for (const { event } of secondBatch())
          await redis.xadd(stream, '*', 'event', JSON.stringify(event));
        await service.waitUntilIdle();
      } finally {
        await service.stop();
      }

      const { events, ...counters } = await snapshot(models);
      const { events: expectedEvents, ...expectedCounters } = expected;
      expect(counters).toEqual(expectedCounters);
      expect(events).toHaveLength(expectedEvents.length);
    });

    it('DATA-6: when a batch keeps failing for a reason other than an outage, then it is moved to the dead-letter stream, logged by id and acknowledged', async () => {
      const stream = analyticsEventStream(prefix);
      const handled: string[] = [];
      const consumer = new StreamConsumer({
        redis,
        stream,
        group: 'g',
        logger,
        blockMs: 50,
        retry: { maxAttempts: 3 },
        handle: async (entries) => {
          if (entries.some((e) => e.fields.n === 'poison')) throw new Error('refused');
          handled.push(...entries.map((e) => e.fields.n!));
        },
      });
      const poisonId = await redis.xadd(stream, '*', 'n', 'poison');
      await consumer.start();
      try {
        const until = Date.now() + 10_000;
        while ((await redis.xlen(deadLetterStream(stream))) === 0 && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 50));
        await redis.xadd(stream, '*', 'n', 'after');
        while (handled.length === 0 && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await consumer.stop();
      }

      const dead = await redis.xrange(deadLetterStream(stream), '-', '+');
      expect(dead).toHaveLength(1);
      expect(dead[0]![1]).toEqual(
        expect.arrayContaining(['original_id', poisonId, 'error', 'refused', 'n', 'poison']),
      );
      expect(handled).toEqual(['after']);
      expect(await redis.xpending(stream, 'g')).toEqual([0, null, null, null]);
    });
  });
});
