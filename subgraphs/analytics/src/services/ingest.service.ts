import type { Redis } from 'ioredis';
import type { AnyBulkWriteOperation, mongo } from 'mongoose';
import type { Logger } from '../../../../common/logger';
import { StreamConsumer, type StreamEntry } from '../../../../common/stream-consumer';
import {
  admissionRequests,
  aggregateBatch,
  visitorKey,
  type BatchWrites,
  type ReplayWrite,
  type VisitorState,
} from '../ingest/aggregate';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsEventStream,
  type CollectedEvent,
} from '../ingest/collected-event';
import {
  AdmissionUnavailableError,
  DISTINCT_VALUES_PER_DAY,
  ValueAdmission,
} from '../ingest/value-admission';
import type {
  AnalyticsModels,
  ErrorGroup,
  HeatmapPage,
  ReplaySession,
  Stat,
  Visitor,
} from '../models';
import { isMongoUnavailable } from '../../../../common/mongo-outage';
import { onlyDuplicateKeys } from '../../../../common/duplicate-keys';

const BLOCK_MS = 250;

/**
 * Applies collected events from the Redis stream to MongoDB. Each batch: counters with one
 * bulkWrite per collection, then visitor states, then raw events keyed by stream id, each write
 * guarded so that a retried batch applies only what is missing (see apply), then XACK
 * (common/stream-consumer.ts). Stopping finishes the batch in hand. Batches are applied one at a
 * time, in stream order: visitor states are read, changed and written back.
 */
export class IngestService {
  private readonly stream: string;
  private readonly consumer: StreamConsumer;
  private readonly admission: ValueAdmission;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly models: AnalyticsModels,
    private readonly redis: Redis,
    redisKeyPrefix: string,
    private readonly logger: Logger,
    batchSize: number,
    /** Distinct values counted per website, dimension and UTC day (ingest/value-admission.ts). */
    distinctValuesPerDay = DISTINCT_VALUES_PER_DAY,
  ) {
    this.stream = analyticsEventStream(redisKeyPrefix);
    this.admission = new ValueAdmission(redis, redisKeyPrefix, distinctValuesPerDay);
    this.consumer = new StreamConsumer({
      redis,
      stream: this.stream,
      group: ANALYTICS_CONSUMER_GROUP,
      logger,
      batchSize,
      blockMs: BLOCK_MS,
      // Batches read-modify-write visitor states: one instance applies them at a time.
      exclusive: { leaseKey: `${redisKeyPrefix}analytics:ingest-lease`, leaseMs: 15_000 },
      handle: (entries, stillLeased) => this.serialized(entries, stillLeased),
      // A failed batch is retried as it was (apply() relies on it); an outage blocks rather
      // than dead-letters.
      retry: { maxAttempts: 10, isTransient: isOutage },
      deleteAcknowledged: true,
    });
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }

  /** Resolves once every entry appended so far has been applied (tests, seeding, benchmarks). */
  waitUntilIdle(timeoutMs = 10_000): Promise<void> {
    return waitForStreamIdle(this.redis, this.stream, timeoutMs);
  }

  private serialized(entries: StreamEntry[], stillLeased: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => this.applyEntries(entries, stillLeased));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyEntries(
    entries: StreamEntry[],
    stillLeased: () => Promise<void>,
  ): Promise<void> {
    const parsed: Array<{ id: string; event: CollectedEvent }> = [];
    for (const { id, fields } of entries) {
      try {
        parsed.push({ id, event: JSON.parse(fields.event ?? '') as CollectedEvent });
      } catch {
        this.logger.warn({ id }, 'dropping an unreadable analytics stream entry');
      }
    }
    await this.apply(parsed, stillLeased);
  }

  /**
   * Applies an ordered batch exactly once, without transactions. The batch is identified by its
   * first stream id, and a retry or redelivery must present the same entries (the consumer
   * retries in place and takes over a dead holder's pending entries before new ones):
   *  1. counters (every collection but visitors and raw events), each write guarded by
   *     `lastBatch < batchId` and setting `lastBatch` (a document that already has this batch,
   *     or a later one, fails the upsert on its unique key and is skipped; batch ids order as
   *     the stream does, so a stalled holder replaying an old batch changes nothing);
   *  2. visitor states, only after every counter write succeeded, guarded the same way;
   *  3. raw events (duplicates skipped), last.
   * Counters are computed from the visitors' states before the batch, which stay untouched until
   * step 2, and with the same admission decisions (a value admitted stays admitted, a full day
   * stays full: ingest/value-admission.ts), so a retry recomputes the same increments. Once any
   * visitor carries the batch id, step 1 is complete and is skipped, and so are the visitors
   * already written (their states are post-batch). Nothing is read to find out whether a batch
   * was applied: on FerretDB, looking raw events up by id scans the collection.
   */
  async apply(
    batch: Array<{ id: string; event: CollectedEvent }>,
    /** Throws when another instance took the lease over (StreamConsumer): checked per step. */
    stillLeased: () => Promise<void> = async () => undefined,
  ): Promise<void> {
    if (batch.length === 0) return;
    const batchId = orderedBatchId(batch[0]!.id);
    const events = batch.map(({ event }) => event);
    const states = await this.loadVisitors(events);
    // Visitors that already have this batch (or a later one) applied.
    const written = new Set(
      [...states]
        .filter(([, state]) => state.lastBatch != null && state.lastBatch >= batchId)
        .map(([key]) => key),
    );
    const admit = await this.admission.decide(admissionRequests(events, states));
    const writes = aggregateBatch(events, states, admit);
    await stillLeased();
    if (written.size === 0) await this.writeCounters(writes, batchId);
    await stillLeased();
    await this.writeVisitors(
      writes.visitors.filter((v) => !written.has(visitorKey(v.websiteId, v.visitorId))),
      batchId,
    );
    await this.insertRaw(batch);
  }

  private async insertRaw(batch: Array<{ id: string; event: CollectedEvent }>): Promise<void> {
    const docs = batch.map(({ id, event }) => {
      const { websiteId, type, ts, visitorId, path, ...rest } = event;
      const payload: Record<string, unknown> = { ...rest };
      if (type === 'replay') delete payload.data;
      // Entries collected before property names were validated may hold names MongoDB refuses.
      if (type === 'event' && event.props) payload.props = storableProps(event.props);
      return { _id: id, websiteId, type, ts: new Date(ts), visitorId, path, payload };
    });
    await skippingDuplicates(docs, (rest) =>
      this.models.Event.collection.insertMany(rest as never[], { ordered: false }),
    );
  }

  private async loadVisitors(events: CollectedEvent[]): Promise<Map<string, VisitorState>> {
    const idsByWebsite = new Map<string, Set<string>>();
    for (const e of events) {
      const set = idsByWebsite.get(e.websiteId) ?? new Set<string>();
      set.add(e.visitorId);
      idsByWebsite.set(e.websiteId, set);
    }
    const states = new Map<string, VisitorState>();
    await Promise.all(
      [...idsByWebsite].map(async ([websiteId, ids]) => {
        const docs = await this.models.Visitor.find(
          { websiteId, visitorId: { $in: [...ids] } },
          { _id: 0 },
        ).lean();
        for (const doc of docs)
          states.set(visitorKey(doc.websiteId, doc.visitorId), doc as unknown as VisitorState);
      }),
    );
    return states;
  }

  private async writeCounters(writes: BatchWrites, batchId: string): Promise<void> {
    const toStatOp = (s: (typeof writes.stats)[number]): AnyBulkWriteOperation<Stat> =>
      guarded(
        {
          websiteId: s.websiteId,
          granularity: s.granularity,
          bucket: new Date(s.bucket),
          dim: s.dim,
          value: s.value,
        },
        { $inc: s.inc },
        batchId,
      );
    const totalOps = writes.stats.filter((s) => s.dim === '').map(toStatOp);
    const statOps = writes.stats.filter((s) => s.dim !== '').map(toStatOp);
    const errorOps: AnyBulkWriteOperation<ErrorGroup>[] = writes.errors.map((e) =>
      guarded(
        { websiteId: e.websiteId, fingerprint: e.fingerprint },
        {
          $setOnInsert: { message: e.message, stack: e.stack },
          $inc: { count: e.count, visitors: e.newVisitors },
          // Event times, not arrival order: a batch may carry older events (dead letters re-added).
          $min: { firstSeen: new Date(e.firstSeen) },
          $max: { lastSeen: new Date(e.lastSeen) },
          $set: { lastPath: e.path },
        },
        batchId,
      ),
    );
    const heatmapOps: AnyBulkWriteOperation<HeatmapPage>[] = writes.heatmaps.map((h) =>
      guarded(
        { websiteId: h.websiteId, path: h.path, day: new Date(h.day) },
        {
          $inc: {
            clicks: h.clicks,
            ...Object.fromEntries(Object.entries(h.cells).map(([cell, n]) => [`cells.${cell}`, n])),
          },
        },
        batchId,
      ),
    );
    const totals = [...writes.pageviewsByWebsite].map(([websiteId, pageviews]) =>
      guarded({ websiteId }, { $inc: { pageviews } }, batchId),
    );
    // Settle every write before failing: a retry must not race writes of this attempt still in
    // flight (the guard protects against repeating a write, not against running it concurrently).
    const outcomes = await Promise.allSettled([
      bulkWriteGuarded(this.models.StatTotal, totalOps),
      bulkWriteGuarded(this.models.Stat, statOps),
      bulkWriteGuarded(this.models.ErrorGroup, errorOps),
      bulkWriteGuarded(this.models.Heatmap, heatmapOps),
      this.writeReplays(writes.replays, batchId),
      bulkWriteGuarded(this.models.WebsiteTotals, totals),
    ]);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Stores new replay chunks, then counts into their sessions only the chunks this batch stored:
   * a chunk sent again (same session and sequence) is neither stored nor counted. A chunk found
   * already stored with this batch's id was stored by an earlier attempt of this batch and counts.
   */
  private async writeReplays(replays: ReplayWrite[], batchId: string): Promise<void> {
    if (replays.length === 0) return;
    const chunkKey = (r: { websiteId: string; sessionId: string; sequence: number }) =>
      `${r.websiteId}|${r.sessionId}|${r.sequence}`;
    const firstOf = new Map<string, ReplayWrite>();
    for (const r of replays) if (!firstOf.has(chunkKey(r))) firstOf.set(chunkKey(r), r);
    const chunks = [...firstOf.values()];
    const docs = chunks.map((r) => ({
      websiteId: r.websiteId,
      sessionId: r.sessionId,
      sequence: r.sequence,
      ts: new Date(r.ts),
      data: r.data,
      lastBatch: batchId,
    }));
    const rejected = await skippingDuplicates(docs, (rest) =>
      this.models.ReplayChunk.collection.insertMany(rest, { ordered: false }),
    );
    let counted = chunks.filter((_, index) => !rejected.has(index));
    if (rejected.size > 0) {
      const ours = await this.models.ReplayChunk.find(
        {
          lastBatch: batchId,
          $or: chunks
            .filter((_, index) => rejected.has(index))
            .map(({ websiteId, sessionId, sequence }) => ({ websiteId, sessionId, sequence })),
        },
        { websiteId: 1, sessionId: 1, sequence: 1 },
      ).lean();
      const oursKeys = new Set(ours.map(chunkKey));
      counted = chunks.filter((r, index) => !rejected.has(index) || oursKeys.has(chunkKey(r)));
    }
    const sessions = new Map<
      string,
      { first: ReplayWrite; chunks: number; bytes: number; last: number }
    >();
    for (const r of counted) {
      const key = `${r.websiteId}|${r.sessionId}`;
      const entry = sessions.get(key);
      if (entry) {
        entry.chunks += 1;
        entry.bytes += Buffer.byteLength(r.data);
        entry.last = Math.max(entry.last, r.ts);
        if (r.ts < entry.first.ts) entry.first = r;
      } else
        sessions.set(key, { first: r, chunks: 1, bytes: Buffer.byteLength(r.data), last: r.ts });
    }
    const ops: AnyBulkWriteOperation<ReplaySession>[] = [...sessions.values()].map(
      ({ first, chunks, bytes, last }) =>
        guarded(
          { websiteId: first.websiteId, sessionId: first.sessionId },
          {
            $setOnInsert: { ...first.visitor, entryPath: first.path },
            $inc: { chunks, bytes },
            $min: { startedAt: new Date(first.ts) },
            $max: { lastActivity: new Date(last) },
          },
          batchId,
        ),
    );
    await bulkWriteGuarded(this.models.ReplaySession, ops);
  }

  private async writeVisitors(visitors: VisitorState[], batchId: string): Promise<void> {
    const ops: AnyBulkWriteOperation<Visitor>[] = visitors.map((v) =>
      guarded({ websiteId: v.websiteId, visitorId: v.visitorId }, { $set: v }, batchId),
    );
    await bulkWriteGuarded(this.models.Visitor, ops);
  }
}

/**
 * A batch's stream id (`<ms>-<seq>`) padded so that ids compare as strings in stream order, which
 * the guards below rely on.
 */
export function orderedBatchId(streamId: string): string {
  const [ms = '0', seq = '0'] = streamId.split('-');
  return `${ms.padStart(15, '0')}-${seq.padStart(10, '0')}`;
}

/**
 * An upsert applied at most once per batch: the filter skips a document that already carries the
 * batch id or a later one, and the upsert that then follows collides with the unique key (duplicate key error,
 * ignored by bulkWriteGuarded). Needs the collection's unique index on the filter's fields.
 */
function guarded<T extends mongo.Document>(
  filter: Record<string, unknown>,
  update: Record<string, object>,
  batchId: string,
): AnyBulkWriteOperation<T> {
  return {
    updateOne: {
      filter: { ...filter, $or: [{ lastBatch: null }, { lastBatch: { $lt: batchId } }] },
      update: { ...update, $set: { ...update.$set, lastBatch: batchId } },
      upsert: true,
    },
  } as AnyBulkWriteOperation<T>;
}

async function bulkWriteGuarded<T extends mongo.Document>(
  model: { bulkWrite(ops: AnyBulkWriteOperation<T>[], options: object): Promise<unknown> },
  ops: AnyBulkWriteOperation<T>[],
): Promise<void> {
  await skippingDuplicates(ops, (rest) => model.bulkWrite(rest, { ordered: false }));
}

/**
 * Writes `items` (unordered), going on past duplicate-key refusals, and returns the indexes
 * refused. FerretDB ends an unordered bulk write at its first error, MongoDB goes on: so whatever
 * follows the last refusal is submitted again (harmless, every write here may be repeated).
 */
async function skippingDuplicates<T>(
  items: T[],
  write: (rest: T[]) => Promise<unknown>,
): Promise<Set<number>> {
  const refused = new Set<number>();
  let offset = 0;
  while (offset < items.length) {
    try {
      await write(items.slice(offset));
      break;
    } catch (error) {
      // Anything but documents already stored (by an earlier attempt) is a real failure.
      const indexes = onlyDuplicateKeys(error);
      if (!indexes?.length) throw error;
      for (const index of indexes) refused.add(offset + index);
      offset += Math.max(...indexes) + 1;
    }
  }
  return refused;
}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Property names MongoDB refuses as field names ('.' anywhere, '$' first, NUL), stored escaped.
 * Lone surrogates become U+FFFD here, as UTF-8 encoding would make them anyway, so two names that
 * differ only there collapse into one instead of a duplicate field the database refuses.
 */
function storableProps(
  props: Record<string, string | number | boolean>,
): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(props).map(([name, value]) => [
      name
        .replace(LONE_SURROGATES, '\ufffd')
        .replaceAll('\u0000', '\u2400')
        .replace(/\./g, '\uff0e')
        .replace(/^\$/, '\uff04'),
      value,
    ]),
  );
}

/**
 * Errors that say MongoDB or Redis (value admission) could not be reached, rather than that this
 * batch was refused: the batch is retried for as long as the outage lasts, never dead-lettered.
 */
export function isOutage(error: unknown): boolean {
  return error instanceof AdmissionUnavailableError || isMongoUnavailable(error);
}

/** Waits until the analytics consumer group has read and acknowledged everything in the stream. */
export async function waitForStreamIdle(
  redis: Redis,
  stream: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [lastId, groups] = await Promise.all([
      redis.xinfo('STREAM', stream).then((info) => fieldOf(info as unknown[], 'last-generated-id')),
      redis.xinfo('GROUPS', stream) as Promise<unknown[][]>,
    ]);
    const group = groups.find((g) => fieldOf(g, 'name') === ANALYTICS_CONSUMER_GROUP);
    if (
      group &&
      fieldOf(group, 'last-delivered-id') === lastId &&
      Number(fieldOf(group, 'pending')) === 0
    )
      return;
    if (Date.now() > deadline) throw new Error('analytics ingestion did not catch up in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function fieldOf(flat: unknown[], name: string): unknown {
  const index = flat.indexOf(name);
  return index === -1 ? undefined : flat[index + 1];
}
