import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import type { RedisClient } from '../../common/platform/redis';
import { Redis } from 'ioredis';
import { deleteKeysMatching, keysMatching, openTestRedis, testRunPrefix } from '../support/redis';
import { createLogger } from '../../common/platform/logger';
import { deadLetterStream, StreamConsumer } from '../../common/platform/stream-consumer';
import type { CollectedEvent } from '../../common/contracts/collected-event';
import type { StatsQuery } from '../../common/contracts/stats-query';
import { analyticsEventStream } from '../../common/contracts/collected-event';
import { DAY_MS } from '../../subgraphs/analytics/src/ingest/time-buckets';
import { IngestService, isOutage } from '../../subgraphs/analytics/src/services/ingest.service';
import { ReadModel } from '../../subgraphs/analytics/src/services/read-model';
import { RetentionService } from '../../subgraphs/analytics/src/services/retention.service';
import { StatsService } from '../../subgraphs/analytics/src/services/stats.service';
import { TotalsService } from '../../subgraphs/analytics/src/services/totals.service';
import { createAnalyticsStore } from '../../subgraphs/analytics/src/store';
import { BlockCodec } from '../../subgraphs/analytics/src/engine/blocks';
import { Duck } from '../../subgraphs/analytics/src/engine/duck';
import { EventTables, spanName } from '../../subgraphs/analytics/src/engine/event-tables';
import { SealedBlocks } from '../../subgraphs/analytics/src/engine/sealed-blocks';
import { MERGE_HOT_BLOCKS_AT } from '../../subgraphs/analytics/src/engine/hot-blocks';
import { StatsQueryService } from '../../subgraphs/analytics/src/services/stats-query.service';
import type { GoalDefinition } from '../../subgraphs/analytics/src/engine/stats-sql';
import { keysOfDay } from '../../subgraphs/analytics/src/store/hot-day';
import type { LoggedEvent } from '../../subgraphs/analytics/src/store/raw-log';
import { testMongoUri } from '../support/stack';
import { waitFor } from '../support/wait';
import { seeded } from '../support/event-rows-dataset';
import { waitUntilIdle } from '../support/ingest-idle';

const logger = createLogger('analytics-ingest-test', 'silent');
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const DAY = '2026-11-20';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const fileId = randomBytes(3).toString('hex');
/** This file's prefixes, each test's under it. */
const filePrefix = () => `${testRunPrefix()}ingest-${fileId}`;
const newPrefix = () => `${filePrefix()}-${randomBytes(3).toString('hex')}:`;
const noLease = async () => undefined;

/** Deletes every key under `prefix` (hot tier, streams, leases). */
async function deleteKeys(redis: RedisClient, prefix: string): Promise<void> {
  await deleteKeysMatching(redis, `${prefix}*`);
}

type Batch = LoggedEvent[];

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

/** One batch with every kind of event. */
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
    buildEvent('v3', 124, {
      type: 'error',
      message: 'x is undefined',
      stack: null,
      fingerprint: 'f1',
      path: '/later',
    }),
  ].map((event, i) => ({ id: `200-${i}`, event }));

const started: Array<{ stop(): Promise<void> }> = [];

/** The engine's DuckDB, shared by the file's analytics stacks (each has its own tables). */
let duck: Duck;

/** The store with the engine's parts ingestion needs. */
const withEngine = (connection: Connection, store: ReturnType<typeof createAnalyticsStore>) => ({
  ...store,
  codec: new BlockCodec(duck),
  sealed: new SealedBlocks(connection),
});

/** A stack of the analytics store, ingestion and reads on one clock for writing and one for reading. */
function analytics(connection: Connection, redis: RedisClient, prefix: string) {
  const clock = { ingest: T0 + 3_600_000, read: T0 + 3_600_000 };
  const store = withEngine(
    connection,
    createAnalyticsStore(connection, redis, prefix, 64 * 1024 * 1024),
  );
  const model = new ReadModel(redis, store.keys, store.index, store.snapshots, store.windows);
  const tables = new EventTables(duck, store.codec, redis, store.keys, store.sealed, store.raw);
  const engine = new StatsQueryService(model, tables, duck, () => clock.read);
  const ingest = new IngestService(store, logger, {
    redisKeyPrefix: prefix,
    batchSize: 1000,
    sealQuietMs: 0,
    now: () => clock.ingest,
  });
  const stats = new StatsService(model, 400, () => clock.read);
  started.push(ingest);
  /** An event-level query (POST /query's normalized form): metrics over a range, no dimension. */
  const query = (
    metrics: StatsQuery['metrics'],
    dateRange: StatsQuery['dateRange'],
    dimensions: StatsQuery['dimensions'] = [],
  ) =>
    engine.run(
      'w1',
      {
        metrics,
        dimensions,
        filter: null,
        dateRange,
        include: { totalRows: false, timeLabels: false, comparison: null },
        orderBy: [],
        limit: 10,
        offset: 0,
      },
      [],
    );
  return { clock, store, model, ingest, stats, query, engine, tables };
}

/** The UTC days of the last `n`, today included, at `now`. */
const lastDays = (n: number, now: number) => ({
  from: new Date(now - (now % DAY_MS) - (n - 1) * DAY_MS).toISOString().slice(0, 10),
  to: new Date(now).toISOString().slice(0, 10),
});
type Analytics = ReturnType<typeof analytics>;

/** Everything the reads answer about the test's week, and what is stored raw. */
async function observe(a: Analytics, connection: Connection) {
  const page = { limit: 100, offset: 0 };
  const range = 'LAST_7_DAYS' as const;
  const ids = async (name: string) =>
    (
      await connection
        .collection(name)
        .find({}, { projection: { _id: 1 } })
        .toArray()
    )
      .map((d) => String(d._id))
      .sort();
  return {
    overview: await a.stats.overview('w1', range),
    visitors: await a.stats.visitors('w1', range, page),
    pages: await a.stats.breakdown('w1', 'PAGE', range, page),
    sources: await a.stats.breakdown('w1', 'SOURCE', range, page),
    events: await a.stats.breakdown('w1', 'EVENT', range, page),
    technology: await a.stats.technology('w1', range, 10),
    heatmaps: await a.stats.heatmapPages('w1', range, page),
    replays: await a.stats.replaySessions('w1', range, page),
    errors: await a.stats.errorGroups('w1', range, page),
    query: await a.query(
      ['visitors', 'pageviews', 'sessions', 'bounce_rate', 'visit_duration', 'events'],
      lastDays(7, a.clock.read),
      ['time:day'],
    ),
    totalPageviews: await new TotalsService(a.model).pageviewsOf(['w1']),
    engine: (
      await a.engine.run(
        'w1',
        {
          metrics: ['visitors', 'pageviews', 'events', 'sessions', 'bounce_rate', 'visit_duration'],
          dimensions: ['page'],
          filter: null,
          dateRange: { from: DAY, to: DAY },
          include: { totalRows: true, timeLabels: false, comparison: null },
          orderBy: [],
          limit: 100,
          offset: 0,
        },
        [],
      )
    ).results,
    raw: await ids('analytics_events_20261120'),
    chunks: await ids('analytics_replaychunks_202611'),
  };
}

describe('analytics ingestion (IngestService) and the life of a day', () => {
  let connection: Connection;
  let redis: RedisClient;
  let prefix: string;
  let a: Analytics;
  let expected: Awaited<ReturnType<typeof observe>>;

  const fresh = async () => {
    await connection.dropDatabase();
    prefix = newPrefix();
    a = analytics(connection, redis, prefix);
  };

  beforeAll(async () => {
    duck = await Duck.open({ threads: 1 });
    connection = await mongoose
      .createConnection(testMongoUri(`analytics_ingest_${randomBytes(3).toString('hex')}`))
      .asPromise();
    redis = await openTestRedis(redisUrl);
    await fresh();
    // What the two batches leave behind when nothing fails.
    await a.ingest.apply(firstBatch());
    await a.ingest.apply(secondBatch());
    expected = await observe(a, connection);
  });
  afterAll(async () => {
    await Promise.all(started.map((service) => service.stop()));
    await deleteKeys(redis, filePrefix());
    redis.disconnect();
    await connection.dropDatabase();
    await connection.close();
    duck.close();
  });
  beforeEach(fresh);
  afterEach(() => jest.restoreAllMocks());

  it('DATA-2 DATA-5: when two batches are applied, then every read reports them', () => {
    expect(expected.overview.summary).toMatchObject({
      pageviews: 6,
      sessions: 3,
      totalVisitors: 3,
    });
    expect(expected.visitors.visitors.map((v) => [v.id, v.pageviews])).toEqual([
      ['v1', 3],
      ['v2', 2],
      ['v3', 1],
    ]);
    expect(expected.replays.sessions).toEqual([
      expect.objectContaining({ id: 'session-0001', chunks: 3 }),
    ]);
    expect(expected.errors.groups).toEqual([
      expect.objectContaining({ fingerprint: 'f1', occurrences: 2, lastPage: '/later' }),
    ]);
    expect(expected.raw).toHaveLength(14);
    expect(expected.chunks).toHaveLength(3);
  });

  /** Makes the next call do its work on the first half of what it was given, then fail. */
  function failOnceHalfway(target: object, method: string) {
    const writer = target as Record<string, (items: unknown[]) => Promise<unknown>>;
    const original = writer[method]!.bind(target);
    return jest.spyOn(writer, method).mockImplementationOnce(async (items: unknown[]) => {
      await original(items.slice(0, Math.floor(items.length / 2)));
      throw new Error('injected: connection reset');
    });
  }

  /** Makes the next MULTI of the batch's writer fail: before it is sent, or after it was applied. */
  function failNextCommit(when: 'before' | 'after') {
    const writer = (a.ingest as unknown as { writer: RedisClient }).writer;
    const multi = writer.multi.bind(writer);
    return jest.spyOn(writer, 'multi').mockImplementationOnce((commands?: unknown[][]) => {
      const transaction = multi(commands);
      const exec = transaction.exec.bind(transaction);
      transaction.exec = async () => {
        if (when === 'before') {
          transaction.discard();
          throw new Error('injected: connection reset before EXEC');
        }
        await exec();
        throw new Error('injected: connection reset after EXEC');
      };
      return transaction;
    });
  }

  it.each([
    ['the raw events', () => failOnceHalfway(a.store.raw, 'append')],
    ['the hot tier, before EXEC', () => failNextCommit('before')],
    ['the hot tier, after EXEC', () => failNextCommit('after')],
    [
      'the day index',
      () =>
        jest
          .spyOn(a.store.index, 'save')
          .mockRejectedValueOnce(new Error('injected: connection reset')),
    ],
  ])(
    'DATA-2 DATA-6: when writing %s fails during a batch, then the retried batch applies exactly what was missing',
    async (_, inject) => {
      const spy = inject();
      await expect(a.ingest.apply(firstBatch())).rejects.toThrow('injected');
      expect(spy).toHaveBeenCalled();

      await a.ingest.apply(firstBatch());
      await a.ingest.apply(firstBatch()); // delivered once more: a no-op
      await a.ingest.apply(secondBatch());

      expect(await observe(a, connection)).toEqual(expected);
    },
  );

  it('DATA-2: when a batch is applied again after a later one (a stalled holder resuming), then nothing is counted twice', async () => {
    await a.ingest.apply(firstBatch());
    await a.ingest.apply(secondBatch());
    await a.ingest.apply(firstBatch()); // the stale holder's copy of the first batch

    expect(await observe(a, connection)).toEqual(expected);
  });

  it('DATA-2: when another writer applies the batch between the plan and the commit, then this one does not apply it again', async () => {
    await a.ingest.apply(firstBatch());
    const other = analytics(connection, redis, prefix);
    const writer = (a.ingest as unknown as { writer: RedisClient }).writer;
    const watch = writer.watch.bind(writer);
    jest.spyOn(writer, 'watch').mockImplementationOnce(async (...keys: unknown[]) => {
      const result = await watch(keys.map(String));
      await other.ingest.apply(secondBatch());
      return result;
    });

    await a.ingest.apply(secondBatch());

    expect(await observe(a, connection)).toEqual(expected);
  });

  describe('events with ids, as the collector appends them', () => {
    /** The batch's events with ids, under stream ids starting at `first` (`<first>-<i>`). */
    const withIds = (batch: Batch, first: number): Batch =>
      batch.map(({ event }, i) => ({
        id: `${first}-${i}`,
        event: { ...event, eventId: `evt-${event.ts}-${event.type}-${i}` },
      }));
    /** Every read, and how many raw events are stored (their ids are the events' own now). */
    const observeReads = async () => {
      const { raw, ...reads } = await observe(a, connection);
      return { reads, rawEvents: raw.length };
    };
    const expectedObservation = () => {
      const { raw, ...reads } = expected;
      return { reads, rawEvents: raw.length };
    };

    it('DATA-2: when Redis loses its data after a batch was applied and the collector appends its events again under new stream ids, then each event counts once', async () => {
      await a.ingest.apply(withIds(firstBatch(), 100));
      await deleteKeys(redis, prefix);

      await a.ingest.apply(withIds(firstBatch(), 150)); // appended again by the collector
      await a.ingest.apply(withIds(secondBatch(), 200));

      expect(await observeReads()).toEqual(expectedObservation());
    });

    it('DATA-2: when Redis loses its data after a batch stored its raw events but before its hot tier was written, then the events appended again count once', async () => {
      const spy = failNextCommit('before');
      await expect(a.ingest.apply(withIds(firstBatch(), 100))).rejects.toThrow('injected');
      expect(spy).toHaveBeenCalled();
      await deleteKeys(redis, prefix);

      await a.ingest.apply(withIds(firstBatch(), 150));
      await a.ingest.apply(withIds(secondBatch(), 200));

      expect(await observeReads()).toEqual(expectedObservation());
    });

    it('DATA-2: when a batch fails after storing part of its raw events and is retried under the same stream ids, then the events it stored count', async () => {
      failOnceHalfway(a.store.raw, 'append');
      await expect(a.ingest.apply(withIds(firstBatch(), 100))).rejects.toThrow('injected');

      await a.ingest.apply(withIds(firstBatch(), 100));
      await a.ingest.apply(withIds(secondBatch(), 200));

      expect(await observeReads()).toEqual(expectedObservation());
    });
  });

  it('DATA-6: when a replay chunk is sent again, then it is stored once and counted once', async () => {
    await a.ingest.apply(firstBatch());
    await a.ingest.apply(secondBatch());

    const { sessions } = await a.stats.replaySessions('w1', 'LAST_7_DAYS', {
      limit: 10,
      offset: 0,
    });
    expect(sessions.map((s) => ({ chunks: s.chunks, bytes: s.bytes }))).toEqual([
      { chunks: 3, bytes: Buffer.byteLength('[{"type":4}][{"type":3}][{"type":2}]') },
    ]);
    expect(await connection.collection('analytics_replaychunks_202611').countDocuments()).toBe(3);
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
    await a.ingest.apply([
      { id: '400-0', event: error(100, '/new') },
      { id: '400-1', event: chunk(100, 1) },
    ]);
    await a.ingest.apply([
      { id: '401-0', event: error(10, '/old') },
      { id: '401-1', event: error(50, '/older-still-newer') },
      { id: '401-2', event: chunk(10, 0) },
    ]);

    const page = { limit: 10, offset: 0 };
    const { groups } = await a.stats.errorGroups('w1', 'LAST_7_DAYS', page);
    expect(groups[0]).toMatchObject({
      totalOccurrences: 3,
      firstSeen: new Date(T0 + 10_000).toISOString(),
      lastSeen: new Date(T0 + 100_000).toISOString(),
      lastPage: '/new',
    });
    const { sessions } = await a.stats.replaySessions('w1', 'LAST_7_DAYS', page);
    expect(sessions[0]).toMatchObject({
      chunks: 2,
      startedAt: new Date(T0 + 10_000).toISOString(),
      lastActivity: new Date(T0 + 100_000).toISOString(),
    });
  });

  it('DATA-6: when a queued event carries property names MongoDB refuses (dot, dollar, NUL, lone surrogates), then it is stored with them escaped and counted', async () => {
    const event = buildEvent('v9', 0, {
      type: 'event',
      name: 'signup',
      props: { 'plan.name': 'pro', $tier: 2, 'nul\u0000': 'a', '\ud800': 'b', '\udbff': 'c' },
    });

    await a.ingest.apply([{ id: '300-0', event }]);

    const raw = await connection
      .collection<{ _id: string; payload: { props: unknown } }>('analytics_events_20261120')
      .findOne({ _id: '300-0' });
    expect(raw?.payload.props).toEqual({
      'plan\uff0ename': 'pro',
      '\uff04tier': 2,
      'nul\u2400': 'a',
      '\ufffd': 'c',
    });
    const { rows } = await a.stats.breakdown('w1', 'EVENT', 'LAST_7_DAYS', { limit: 5, offset: 0 });
    expect(rows.map((r) => [r.value, r.events])).toEqual([['signup', 1]]);
  });

  it('DATA-6: when a day has had more batches than its hot blocks are kept apart, then they are merged into one and the engine counts every event once', async () => {
    const pageviews = (range = { from: DAY, to: DAY }) =>
      a.query(['pageviews', 'visitors'], range).then((answer) => answer.results[0]?.metrics);
    const batches = MERGE_HOT_BLOCKS_AT + 8;
    for (let n = 0; n < batches; n += 1) {
      await a.ingest.apply([{ id: `700-${n}`, event: buildEvent(`m${n}`, n) }]);
      // The engine's table holds the blocks from before the merge: it must load the day again.
      if (n === MERGE_HOT_BLOCKS_AT - 2) expect(await pageviews()).toEqual([n + 1, n + 1]);
    }

    const blocks = await redis.hkeys(a.store.keys.blocks('w1', DAY));
    expect(blocks).toHaveLength(batches - MERGE_HOT_BLOCKS_AT + 1);
    expect(blocks.filter((change) => change.endsWith('+merged'))).toHaveLength(1);
    expect(await pageviews()).toEqual([batches, batches]);
  });

  it('DATA-2: when custom events were collected in the last hour, then POST /query with date_range 24h and no dimension counts them', async () => {
    const now = Date.now();
    a.clock.ingest = now;
    a.clock.read = now;
    await a.ingest.apply(
      [
        buildEvent('v1', 0, { ts: now - 1_000 }),
        buildEvent('v1', 0, { ts: now - 500, type: 'event', name: 'signup', props: null }),
      ].map((event, i) => ({ id: `400-${i}`, event })),
    );
    const run = (range: StatsQuery['dateRange']) => a.query(['events', 'pageviews'], range);

    expect((await run({ last24h: true })).results).toEqual([{ dimensions: [], metrics: [1, 1] }]);
    expect((await run(lastDays(7, now))).results).toEqual([{ dimensions: [], metrics: [1, 1] }]);
  });

  it('DATA-3: when a visitor is active in two hours of the last 24, then POST /query over 24h without a dimension counts it once, as the overview does', async () => {
    // Yesterday 20:00 UTC: both hours of v1 fall on one UTC day (a visitor id lives one day, and
    // the engine counts visitors per day), whatever time of day the test runs.
    const now = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 4 * 3_600_000;
    a.clock.ingest = now;
    a.clock.read = now;
    const hours = (n: number) => now - n * 3_600_000;
    await a.ingest.apply(
      [
        buildEvent('v1', 0, { ts: hours(3) }),
        buildEvent('v1', 0, { ts: hours(1) }),
        buildEvent('v2', 0, { ts: hours(1) }),
        // A click alone, by a visitor whose page view fell out of the range, is no page view in it.
        buildEvent('v3', 0, { ts: hours(30) }),
        buildClick('v3', 0, { ts: hours(1) }),
      ].map((event, i) => ({ id: `500-${i}`, event })),
    );
    const query = await a.query(['visitors', 'pageviews'], { last24h: true });
    const overview = await a.stats.overview('w1', 'LAST_24_HOURS');

    expect(query.results).toEqual([{ dimensions: [], metrics: [2, 3] }]);
    expect(overview.summary.uniqueVisitors).toBe(2);
  });

  describe('sealing, thawing and rebuilding a day', () => {
    const sealDay = async () => {
      a.clock.ingest = T0 + 3 * DAY_MS;
      expect(await a.ingest.days.dueDays()).toEqual([`w1|${DAY}`]);
      await a.ingest.days.maintain(noLease);
      expect(await a.ingest.days.dueDays()).toEqual([]);
    };
    const hotKeys = async () => redis.exists(...keysOfDay(a.store.keys, 'w1', DAY));

    it('DATA-2 DATA-4: when a day is sealed, then every read answers as before, from the snapshot, and the day leaves Redis', async () => {
      await a.ingest.apply(firstBatch());
      await a.ingest.apply(secondBatch());

      await sealDay();

      expect(await hotKeys()).toBe(0);
      expect((await a.store.index.load('w1')).days.get(DAY)).toMatchObject({
        hot: false,
        visitors: 3,
        replays: 1,
      });
      expect(await observe(a, connection)).toEqual(expected);
    });

    it('DATA-2: when an event arrives for a sealed day, then the day is thawed, counts on top of its snapshot, and seals again to the same figures', async () => {
      await a.ingest.apply(firstBatch());
      await sealDay();

      await a.ingest.apply(secondBatch());
      expect(await observe(a, connection)).toEqual(expected);
      await sealDay();

      expect(await hotKeys()).toBe(0);
      expect(await observe(a, connection)).toEqual(expected);
    });

    it.each([
      [
        'the snapshot',
        (x: Analytics) => {
          const write = x.store.snapshots.write.bind(x.store.snapshots);
          return jest
            .spyOn(x.store.snapshots, 'write')
            .mockImplementationOnce(async (...args: Parameters<typeof write>) => {
              await write(...args);
              throw new Error('injected: reset after the snapshot was stored');
            });
        },
      ],
      [
        'the day index',
        (x: Analytics) =>
          jest.spyOn(x.store.index, 'save').mockRejectedValueOnce(new Error('injected: reset')),
      ],
    ])(
      'DATA-2: when sealing is cut short at %s, then the next round seals the day completely',
      async (_, inject) => {
        await a.ingest.apply(firstBatch());
        await a.ingest.apply(secondBatch());
        inject(a);
        a.clock.ingest = T0 + 3 * DAY_MS;
        await expect(a.ingest.days.maintain(noLease)).rejects.toThrow('injected');
        expect(await observe(a, connection)).toEqual(expected);

        await sealDay();

        expect(await hotKeys()).toBe(0);
        expect(await observe(a, connection)).toEqual(expected);
      },
    );

    it('DATA-2: when Redis loses its data (restarted without persistence), then a hot day is rebuilt from the raw events, by the next batch or by the maintenance', async () => {
      await a.ingest.apply(firstBatch());
      await deleteKeys(redis, prefix);
      await a.ingest.apply(secondBatch());
      expect(await observe(a, connection)).toEqual(expected);

      await deleteKeys(redis, prefix);
      await a.ingest.days.maintain(noLease);
      expect(await observe(a, connection)).toEqual(expected);
    });

    it('DATA-2: when Redis loses a thawed day, then the rebuild starts from its snapshot and applies only the events that came after it', async () => {
      await a.ingest.apply(firstBatch());
      await sealDay();
      await a.ingest.apply(secondBatch());
      await deleteKeys(redis, prefix);

      a.clock.ingest += 60_000; // the maintenance looks for lost days once a minute
      await a.ingest.days.maintain(noLease);

      expect(await observe(a, connection)).toEqual(expected);
    });

    it('DATA-6: when the retention period has passed, then raw events, replay chunks and visitor records are dropped and the counters stay', async () => {
      await a.ingest.apply(firstBatch());
      await a.ingest.apply(secondBatch());
      await sealDay();
      const later = T0 + 500 * DAY_MS;
      const retention = new RetentionService(a.store.raw, a.store.snapshots, 400);

      const { dropped } = await retention.purge(later);

      expect(dropped.sort()).toEqual([
        'analytics_events_20261120',
        'analytics_replaychunks_202611',
        'analytics_visitors_202611',
      ]);
      a.clock.read = later;
      expect((await a.query(['pageviews', 'visitors'], { from: DAY, to: DAY })).results).toEqual([
        { dimensions: [], metrics: [6, 3] },
      ]);
    });
  });

  describe('exact at any number of distinct values', () => {
    /** More distinct pages in a day than the 1,000 the counters once kept (docs/analytics.md). */
    const PAGES = 1_500;
    /**
     * Visitor i views /p<i>, clicks there and raises error e<i>; the first 60 also view /hot<i % 3>
     * and raise error "hot", so those rank first.
     */
    const crowdedDay = (): Batch =>
      Array.from({ length: PAGES }, (_, i) => [
        buildEvent(`v${i}`, i, { path: `/p${i}` }),
        buildClick(`v${i}`, i, { path: `/p${i}` }),
        buildEvent(`v${i}`, i, {
          path: `/p${i}`,
          type: 'error',
          message: `error ${i}`,
          stack: null,
          fingerprint: `e${i}`,
        }),
        ...(i < 60
          ? [
              buildEvent(`v${i}`, i + 1, { path: `/hot${i % 3}` }),
              buildEvent(`v${i}`, i + 1, {
                path: `/hot${i % 3}`,
                type: 'error',
                message: 'hot',
                stack: null,
                fingerprint: 'hot',
              }),
            ]
          : []),
      ])
        .flat()
        .map((event, i) => ({ id: `700-${i}`, event }));

    const everyRow = { limit: 2 * PAGES, offset: 0 };

    it('DATA-6: when a day brings 1,500 distinct pages, clicked pages and error fingerprints, then breakdowns, heatmaps and error groups count each as itself, and the page breakdown equals POST /query by page', async () => {
      await a.ingest.apply(crowdedDay());

      const pages = (await a.stats.breakdown('w1', 'PAGE', 'LAST_7_DAYS', everyRow)).rows;
      expect(pages).toHaveLength(PAGES + 3);
      expect(pages.slice(0, 3).map((r) => [r.value, r.pageviews, r.visitors])).toEqual([
        ['/hot0', 20, 20],
        ['/hot1', 20, 20],
        ['/hot2', 20, 20],
      ]);
      expect(new Set(pages.map((r) => r.value)).size).toBe(PAGES + 3);
      expect(pages.slice(3).every((r) => r.pageviews === 1 && r.visitors === 1)).toBe(true);

      const heatmaps = await a.stats.heatmapPages('w1', 'LAST_7_DAYS', everyRow);
      expect(heatmaps.pages).toHaveLength(PAGES);
      expect(heatmaps.pages.every((h) => h.clicks === 1)).toBe(true);
      const { groups } = await a.stats.errorGroups('w1', 'LAST_7_DAYS', everyRow);
      expect(groups).toHaveLength(PAGES + 1);
      expect(groups.find((g) => g.fingerprint === 'hot')?.totalOccurrences).toBe(60);
      expect(groups.find((g) => g.fingerprint === 'e1499')?.message).toBe('error 1499');

      const byPage = await a.engine.run(
        'w1',
        {
          metrics: ['pageviews', 'visitors'],
          dimensions: ['page'],
          filter: null,
          dateRange: lastDays(7, a.clock.read),
          include: { totalRows: true, timeLabels: false, comparison: null },
          orderBy: [{ field: 'pageviews', direction: 'desc' }],
          limit: 2 * PAGES,
          offset: 0,
        },
        [],
      );
      expect(byPage.results.map((r) => [r.dimensions[0], ...r.metrics])).toEqual(
        pages.map((r) => [r.value, r.pageviews, r.visitors]),
      );
    });
  });

  describe('while Redis cannot be reached', () => {
    it('DATA-6: when a batch is applied, then it fails as an outage (retried, not dead-lettered), writes nothing to Redis, and counts normally once Redis is back', async () => {
      // Never connected, on a server or a cluster alike: every command fails at once.
      const offline = new Redis({ enableOfflineQueue: false, lazyConnect: true });
      const keyPrefix = newPrefix();
      const store = withEngine(
        connection,
        createAnalyticsStore(connection, offline, keyPrefix, 1024 * 1024),
      );
      const unreachable = new IngestService(store, logger, {
        redisKeyPrefix: keyPrefix,
        batchSize: 1000,
        sealQuietMs: 0,
      });

      const failure = await unreachable.apply(firstBatch()).then(
        () => null,
        (error: unknown) => error,
      );
      offline.disconnect();

      expect(failure).not.toBeNull();
      expect(isOutage(failure)).toBe(true);
      expect(isOutage(new Error('bad command'))).toBe(false);
      expect(await keysMatching(redis, `${keyPrefix}*`)).toEqual([]);
      await a.ingest.apply(firstBatch());
      await a.ingest.apply(secondBatch());
      expect(await observe(a, connection)).toEqual(expected);
    });
  });

  describe('one truth: the routes and POST /query on the same events', () => {
    const random = seeded(29);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    /**
     * Two UTC days of 30 visitors each (ids rotate daily, as the collector's do), each with one to
     * three visits of one to four page views from one source, some followed by a custom event.
     */
    const twoDays = (): Batch => {
      const events: CollectedEvent[] = [];
      for (const [day, dayStart] of [
        [0, T0 - DAY_MS],
        [1, T0],
      ] as const) {
        for (let v = 0; v < 30; v += 1) {
          const who = {
            visitorId: `d${day}-v${v}`,
            country: pick(['US', 'DE', 'GB']),
            device: pick(['desktop', 'mobile']),
            browser: pick(['Chrome', 'Firefox', 'Safari']),
            os: pick(['Windows', 'macOS', 'iOS']),
          };
          let seconds = (dayStart - T0) / 1000 + Math.floor(random() * 3_000);
          for (let visit = 0, visits = 1 + Math.floor(random() * 3); visit < visits; visit += 1) {
            const source = pick(['direct', 'google', 'news.example']);
            for (let p = 0, views = 1 + Math.floor(random() * 4); p < views; p += 1) {
              const path = pick(['/', '/pricing', '/docs', '/blog']);
              events.push(buildEvent(who.visitorId, seconds, { ...who, path, source }));
              if (random() < 0.3)
                events.push(
                  buildEvent(who.visitorId, seconds + 5, {
                    ...who,
                    path,
                    type: 'event',
                    name: pick(['Signup', 'Download']),
                    props: null,
                  }),
                );
              seconds += 30 + Math.floor(random() * 600);
            }
            seconds += 3_600;
          }
        }
      }
      return events
        .sort((x, y) => x.ts - y.ts)
        .map((event, i) => ({ id: `800-${i}`, event: { ...event, websiteId: 'truth' } }));
    };
    const week = () => lastDays(7, a.clock.read);
    const ask = (metrics: StatsQuery['metrics'], dimensions: StatsQuery['dimensions']) =>
      a.engine.run(
        'truth',
        {
          metrics,
          dimensions,
          filter: null,
          dateRange: week(),
          include: { totalRows: false, timeLabels: false, comparison: null },
          orderBy: [],
          limit: 1_000,
          offset: 0,
        },
        [],
      );
    const byFirst = <T extends Array<string | number | null>>(rows: T[]) =>
      [...rows].sort((x, y) => String(x[0]).localeCompare(String(y[0])));

    it('DATA-6: when the same events are read through the overview, its daily series, every breakdown and POST /query, hot and then sealed, then the figures are equal', async () => {
      await a.ingest.apply(twoDays());
      await expectOneTruth();

      a.clock.ingest = T0 + 3 * DAY_MS;
      await a.ingest.days.maintain(noLease);
      expect(await a.ingest.days.dueDays()).toEqual([]);
      const days = (await a.store.index.load('truth')).days;
      expect([...days.values()].map((d) => d.hot)).toEqual([false, false]);
      await expectOneTruth();
    });

    it('DATA-6: when questions the day rollups answer (or give a conversion rate its day totals) are asked, over a week, over two whole months (their month rows and span) and over parts of months up to yesterday and today (their own span, more of them than are kept), then each answer equals the same question answered from the events, while the days are hot, after new events today and once they are sealed', async () => {
      const rolled: Array<Pick<StatsQuery, 'metrics' | 'dimensions'>> = [
        { metrics: ['visitors', 'pageviews', 'events'], dimensions: [] },
        { metrics: ['visitors', 'pageviews'], dimensions: ['time:day'] },
        { metrics: ['events', 'visitors'], dimensions: ['time:month', 'event'] },
        ...(
          [
            'page',
            'entry_page',
            'source',
            'referrer',
            'country',
            'device',
            'browser',
            'os',
            'event',
            'hostname',
            'utm_source',
          ] as const
        ).map((d) => ({
          metrics: ['visitors', 'pageviews', 'events', 'percentage'] as StatsQuery['metrics'],
          dimensions: [d, 'time:week'] as StatsQuery['dimensions'],
        })),
        {
          metrics: ['sessions', 'bounce_rate', 'visit_duration', 'views_per_visit'],
          dimensions: [],
        },
        ...(
          [
            'page',
            'entry_page',
            'source',
            'utm_source',
            'country',
            'device',
            'browser',
            'os',
          ] as const
        ).map((d) => ({
          metrics: [
            'visitors',
            'sessions',
            'bounce_rate',
            'visit_duration',
            'views_per_visit',
          ] as StatsQuery['metrics'],
          dimensions: [d, 'time:day'] as StatsQuery['dimensions'],
        })),
      ];
      // A filter every event passes: the same question, answered from the events.
      const everyEvent: StatsQuery['filter'] = {
        dimension: 'page',
        op: 'is_not',
        values: ['\u0000none'],
        caseSensitive: true,
      };
      /**
       * The question over `dateRange` (the last 7 days by default; with the 14 before as its
       * comparison, without goals).
       */
      const answer = (
        q: Pick<StatsQuery, 'metrics' | 'dimensions'>,
        filter: StatsQuery['filter'],
        goals: GoalDefinition[] = [],
        dateRange: StatsQuery['dateRange'] = week(),
      ) =>
        a.engine.run(
          'truth',
          {
            ...q,
            filter,
            dateRange,
            include: {
              totalRows: true,
              timeLabels: false,
              comparison: goals.length === 0 ? lastDays(14, a.clock.read) : null,
            },
            orderBy: [],
            limit: 1_000,
            offset: 0,
          },
          goals,
        );
      // Conversion rates, whose day totals the rollups give.
      const goals: GoalDefinition[] = [
        {
          name: 'Signup',
          kind: 'event',
          pagePath: null,
          eventName: 'Signup',
          currency: null,
        },
        {
          name: 'Pricing',
          kind: 'page',
          pagePath: '/pricing',
          eventName: null,
          currency: null,
        },
      ];
      const signup: StatsQuery['filter'] = {
        dimension: 'goal',
        op: 'is',
        values: ['Signup'],
        caseSensitive: true,
      };
      const converting: Array<[Pick<StatsQuery, 'metrics' | 'dimensions'>, StatsQuery['filter']]> =
        [
          [{ metrics: ['visitors', 'conversion_rate'], dimensions: ['time:day'] }, signup],
          // An event goal alone: its visitors and events from the event's day rows too.
          [
            { metrics: ['events', 'conversion_rate', 'visitors'], dimensions: ['time:month'] },
            signup,
          ],
          [{ metrics: ['conversion_rate', 'pageviews', 'visitors'], dimensions: [] }, signup],
          [{ metrics: ['conversion_rate', 'events'], dimensions: ['goal', 'time:week'] }, null],
          [{ metrics: ['visitors', 'conversion_rate'], dimensions: ['goal'] }, null],
        ];
      // Two whole months, the second holding the test's days: read from the month rows, and by no
      // time dimension from their kept sum (a span); both change with the days.
      const months = {
        from: new Date(Date.UTC(2026, 9, 1)).toISOString().slice(0, 10),
        to: new Date(Date.UTC(2026, 11, 0)).toISOString().slice(0, 10),
      };
      // Part of September to yesterday and to today: by no time dimension, read as one kept sum
      // (a span) up to today, and today's day rows.
      const yesterday = () => lastDays(2, a.clock.read).from;
      const parts = () => [yesterday(), week().to].map((to) => ({ from: '2026-09-20', to }));
      const expectSameAnswers = async () => {
        for (const range of [week(), months, ...parts()])
          for (const q of rolled) {
            const [fromRollups, fromEvents] = [
              await answer(q, null, [], range),
              await answer(q, everyEvent, [], range),
            ];
            expect({ q, range, answer: fromRollups }).toEqual({ q, range, answer: fromEvents });
            expect(fromRollups.results.length).toBeGreaterThan(0);
          }
        for (const [q, filter] of converting) {
          const both: StatsQuery['filter'] = {
            op: 'and',
            filters: [everyEvent!, ...(filter ? [filter] : [])],
          };
          const [fromRollups, fromEvents] = [
            await answer(q, filter, goals),
            await answer(q, both, goals),
          ];
          expect({ q, answer: fromRollups }).toEqual({ q, answer: fromEvents });
          expect(
            fromRollups.results.some(
              (r) => (r.metrics[q.metrics.indexOf('conversion_rate')] ?? 0) > 0,
            ),
          ).toBe(true);
        }
      };

      await a.ingest.apply(twoDays());
      await expectSameAnswers();
      // The same visitor ids on both days: counted once a day, as the collector's rotating ids are.
      await a.ingest.apply(
        ['d0-v1', 'd0-v2', 'late'].map((visitorId, i) => ({
          id: `900-${i}`,
          event: { ...buildEvent(visitorId, 2_000 + i, { path: '/late' }), websiteId: 'truth' },
        })),
      );
      await expectSameAnswers();
      // Page views on each side of midnight, the second in a later batch.
      for (const [i, seconds] of [-36_600, -35_400].entries()) {
        await a.ingest.apply([
          {
            id: `910-${i}`,
            event: { ...buildEvent('night', seconds, { path: `/night${i}` }), websiteId: 'truth' },
          },
        ]);
        await expectSameAnswers();
      }
      a.clock.ingest = T0 + 3 * DAY_MS;
      await a.ingest.days.maintain(noLease);
      expect(await a.ingest.days.dueDays()).toEqual([]);
      await expectSameAnswers();
      // More ranges than a rollup keeps spans of (12): the least recently asked are dropped and
      // made again when asked again, every answer still the events'.
      const byPage = rolled.find(
        (q) =>
          q.dimensions.length === 2 && q.dimensions[0] === 'page' && q.metrics.includes('sessions'),
      )!;
      const pageOnly = {
        metrics: byPage.metrics,
        dimensions: ['page'] as StatsQuery['dimensions'],
      };
      for (const day of [...Array.from({ length: 14 }, (_, i) => i + 1), 1, 2]) {
        const range = { from: `2026-09-${String(day).padStart(2, '0')}`, to: week().to };
        const [fromRollups, fromEvents] = [
          await answer(pageOnly, null, [], range),
          await answer(pageOnly, everyEvent, [], range),
        ];
        expect({ range, answer: fromRollups }).toEqual({ range, answer: fromEvents });
      }
    });

    it('DATA-6: when more spans than a rollup keeps are asked for while a question still reads, then none is dropped until every question prepared has read', async () => {
      const rollup = { kind: 'events', dimension: 'page' } as const;
      const span = (i: number) => ({
        from: Date.UTC(2026, 0, 1) + i * DAY_MS,
        to: Date.UTC(2026, 3, 1),
      });
      const prepare = (i: number) => a.tables.prepare('spans', [], [rollup], [span(i)]);
      const keeps = async (prepared: Awaited<ReturnType<typeof prepare>>, i: number) =>
        prepared.spanned.has(spanName(rollup, span(i)));
      for (let i = 0; i < 12; i += 1) (await prepare(i)).release();
      // The thirteenth drops the least recently asked: nobody reads.
      const reading = await prepare(12);
      expect(await keeps(reading, 12)).toBe(true);
      // While it reads, a fourteenth is not made (it would drop one that may be read).
      const meanwhile = await prepare(13);
      expect(await keeps(meanwhile, 13)).toBe(false);
      expect(meanwhile.spanned.size).toBe(0);
      meanwhile.release();
      reading.release();
      reading.release(); // twice: counted once
      const next = await prepare(13);
      expect(await keeps(next, 13)).toBe(true);
      const blocked = await prepare(14);
      expect(await keeps(blocked, 14)).toBe(false);
      next.release();
      blocked.release();
      const again = await prepare(0);
      expect(await keeps(again, 0)).toBe(true);
      again.release();
    });

    async function expectOneTruth(): Promise<void> {
      const metrics: StatsQuery['metrics'] = [
        'visitors',
        'pageviews',
        'sessions',
        'bounce_rate',
        'visit_duration',
      ];

      const overview = await a.stats.overview('truth', 'LAST_7_DAYS');
      const total = await ask(metrics, []);
      expect(total.results[0]!.metrics).toEqual([
        overview.summary.uniqueVisitors,
        overview.summary.pageviews,
        overview.summary.sessions,
        overview.summary.bounceRate,
        overview.summary.avgVisitDuration,
      ]);

      const daily = await ask(['visitors', 'pageviews', 'sessions'], ['time:day']);
      expect(daily.results.map((r) => [r.dimensions[0], ...r.metrics])).toEqual(
        overview.series.map((d) => [d.date.slice(0, 10), d.visitors, d.pageviews, d.sessions]),
      );

      for (const [dimension, name] of [
        ['PAGE', 'page'],
        ['SOURCE', 'source'],
        ['COUNTRY', 'country'],
        ['DEVICE', 'device'],
        ['BROWSER', 'browser'],
        ['OS', 'os'],
      ] as const) {
        const route = await a.stats.breakdown('truth', dimension, 'LAST_7_DAYS', {
          limit: 100,
          offset: 0,
        });
        const query = await ask(metrics, [name]);
        expect([
          dimension,
          byFirst(query.results.map((r) => [r.dimensions[0]!, ...r.metrics])),
        ]).toEqual([
          dimension,
          byFirst(
            route.rows.map((r) => [
              r.value,
              r.visitors,
              r.pageviews,
              r.sessions,
              r.bounceRate,
              r.avgVisitDuration,
            ]),
          ),
        ]);
      }

      const events = await a.stats.breakdown('truth', 'EVENT', 'LAST_7_DAYS', {
        limit: 100,
        offset: 0,
      });
      const byEvent = await ask(['visitors', 'events'], ['event']);
      expect(byFirst(byEvent.results.map((r) => [r.dimensions[0]!, ...r.metrics]))).toEqual(
        byFirst(events.rows.map((r) => [r.value, r.visitors, r.events])),
      );
    }
  });

  describe('through the Redis stream', () => {
    it('DATA-6: when a batch fails once after part of it was written, then the consumer retries it before anything newer and every event counts once', async () => {
      const stream = analyticsEventStream(prefix);
      for (const { event } of firstBatch())
        await redis.xadd(stream, '*', 'event', JSON.stringify(event));
      failOnceHalfway(a.store.raw, 'append');

      await a.ingest.start();
      try {
        await waitUntilIdle(a.ingest);
        for (const { event } of secondBatch())
          await redis.xadd(stream, '*', 'event', JSON.stringify(event));
        await waitUntilIdle(a.ingest);
      } finally {
        await a.ingest.stop();
      }

      const { raw, chunks, ...reads } = await observe(a, connection);
      const { raw: expectedRaw, chunks: expectedChunks, ...expectedReads } = expected;
      expect(reads).toEqual(expectedReads);
      expect(raw).toHaveLength(expectedRaw.length);
      expect(chunks).toEqual(expectedChunks);
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
        await waitFor(async () => (await redis.xlen(deadLetterStream(stream))) > 0);
        await redis.xadd(stream, '*', 'n', 'after');
        await waitFor(() => handled.length > 0);
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
