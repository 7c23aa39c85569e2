import type { Redis } from 'ioredis';
import type { AnyBulkWriteOperation } from 'mongoose';
import type { Logger } from '../../../../common/logger';
import { StreamConsumer, type StreamEntry } from '../../../../common/stream-consumer';
import {
  aggregateBatch,
  visitorKey,
  type BatchWrites,
  type VisitorState,
} from '../ingest/aggregate';
import {
  ANALYTICS_CONSUMER_GROUP,
  analyticsEventStream,
  type CollectedEvent,
} from '../ingest/collected-event';
import type {
  AnalyticsModels,
  ErrorGroup,
  HeatmapPage,
  ReplaySession,
  Stat,
  Visitor,
} from '../models';

const BLOCK_MS = 250;
const DUPLICATE_KEY = 11000;

/**
 * Applies collected events from the Redis stream to MongoDB. Each batch: insert the raw events
 * keyed by stream id (a re-delivered entry is a duplicate and is skipped), update counters and
 * visitors with one bulkWrite per collection, then XACK (common/stream-consumer.ts). Stopping
 * finishes the batch in hand, so a graceful stop neither loses nor double-counts an accepted event.
 * Batches are applied one at a time: visitor states are read, changed and written back.
 */
export class IngestService {
  private readonly stream: string;
  private readonly consumer: StreamConsumer;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly models: AnalyticsModels,
    private readonly redis: Redis,
    redisKeyPrefix: string,
    private readonly logger: Logger,
    batchSize: number,
  ) {
    this.stream = analyticsEventStream(redisKeyPrefix);
    this.consumer = new StreamConsumer({
      redis,
      stream: this.stream,
      group: ANALYTICS_CONSUMER_GROUP,
      logger,
      batchSize,
      blockMs: BLOCK_MS,
      // Batches read-modify-write visitor states: one instance applies them at a time.
      exclusive: { leaseKey: `${redisKeyPrefix}analytics:ingest-lease`, leaseMs: 15_000 },
      handle: (entries) => this.serialized(entries),
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

  private serialized(entries: StreamEntry[]): Promise<void> {
    const run = this.queue.then(() => this.applyEntries(entries));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async applyEntries(entries: StreamEntry[]): Promise<void> {
    const parsed: Array<{ id: string; event: CollectedEvent }> = [];
    for (const { id, fields } of entries) {
      try {
        parsed.push({ id, event: JSON.parse(fields.event ?? '') as CollectedEvent });
      } catch {
        this.logger.warn({ id }, 'dropping an unreadable analytics stream entry');
      }
    }
    await this.apply(parsed);
  }

  /** Applies events (ordered) whose ids are new; ids already stored are skipped. */
  async apply(batch: Array<{ id: string; event: CollectedEvent }>): Promise<void> {
    if (batch.length === 0) return;
    const fresh = await this.insertRaw(batch);
    if (fresh.length === 0) return;
    const states = await this.loadVisitors(fresh);
    await this.write(aggregateBatch(fresh, states));
  }

  private async insertRaw(
    batch: Array<{ id: string; event: CollectedEvent }>,
  ): Promise<CollectedEvent[]> {
    const docs = batch.map(({ id, event }) => {
      const { websiteId, type, ts, visitorId, path, ...rest } = event;
      const payload: Record<string, unknown> = { ...rest };
      if (type === 'replay') delete payload.data;
      return { _id: id, websiteId, type, ts: new Date(ts), visitorId, path, payload };
    });
    const duplicates = new Set<number>();
    try {
      await this.models.Event.collection.insertMany(docs as never[], { ordered: false });
    } catch (error) {
      const writeErrors = (
        error as {
          writeErrors?: Array<{ index: number; code: number }> | { index: number; code: number };
        }
      ).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : null;
      if (!list || list.some((e) => e.code !== DUPLICATE_KEY)) throw error;
      for (const e of list) duplicates.add(e.index);
    }
    return batch.filter((_, index) => !duplicates.has(index)).map(({ event }) => event);
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

  private async write(writes: BatchWrites): Promise<void> {
    const toStatOp = (s: (typeof writes.stats)[number]): AnyBulkWriteOperation<Stat> => ({
      updateOne: {
        filter: {
          websiteId: s.websiteId,
          granularity: s.granularity,
          bucket: new Date(s.bucket),
          dim: s.dim,
          value: s.value,
        },
        update: { $inc: s.inc },
        upsert: true,
      },
    });
    const totalOps = writes.stats.filter((s) => s.dim === '').map(toStatOp);
    const statOps = writes.stats.filter((s) => s.dim !== '').map(toStatOp);
    const visitorOps: AnyBulkWriteOperation<Visitor>[] = writes.visitors.map((v) => ({
      updateOne: {
        filter: { websiteId: v.websiteId, visitorId: v.visitorId },
        update: { $set: v },
        upsert: true,
      },
    }));
    const errorOps: AnyBulkWriteOperation<ErrorGroup>[] = writes.errors.map((e) => ({
      updateOne: {
        filter: { websiteId: e.websiteId, fingerprint: e.fingerprint },
        update: {
          $setOnInsert: { message: e.message, stack: e.stack, firstSeen: new Date(e.firstSeen) },
          $inc: { count: e.count, visitors: e.newVisitors },
          $max: { lastSeen: new Date(e.lastSeen) },
          $set: { lastPath: e.path },
        },
        upsert: true,
      },
    }));
    const heatmapOps: AnyBulkWriteOperation<HeatmapPage>[] = writes.heatmaps.map((h) => ({
      updateOne: {
        filter: { websiteId: h.websiteId, path: h.path, day: new Date(h.day) },
        update: {
          $inc: {
            clicks: h.clicks,
            ...Object.fromEntries(Object.entries(h.cells).map(([cell, n]) => [`cells.${cell}`, n])),
          },
        },
        upsert: true,
      },
    }));
    const sessions = new Map<
      string,
      { first: (typeof writes.replays)[number]; chunks: number; bytes: number; last: number }
    >();
    for (const r of writes.replays) {
      const key = `${r.websiteId}|${r.sessionId}`;
      const entry = sessions.get(key);
      if (entry) {
        entry.chunks += 1;
        entry.bytes += r.data.length;
        entry.last = Math.max(entry.last, r.ts);
      } else sessions.set(key, { first: r, chunks: 1, bytes: r.data.length, last: r.ts });
    }
    const replaySessionOps: AnyBulkWriteOperation<ReplaySession>[] = [...sessions.values()].map(
      ({ first, chunks, bytes, last }) => ({
        updateOne: {
          filter: { websiteId: first.websiteId, sessionId: first.sessionId },
          update: {
            $setOnInsert: {
              ...first.visitor,
              startedAt: new Date(first.ts),
              entryPath: first.path,
            },
            $inc: { chunks, bytes },
            $max: { lastActivity: new Date(last) },
          },
          upsert: true,
        },
      }),
    );
    const chunkDocs = writes.replays.map((r) => ({
      websiteId: r.websiteId,
      sessionId: r.sessionId,
      sequence: r.sequence,
      ts: new Date(r.ts),
      data: r.data,
    }));
    const totals = [...writes.pageviewsByWebsite].map(([websiteId, pageviews]) => ({
      updateOne: { filter: { websiteId }, update: { $inc: { pageviews } }, upsert: true },
    }));
    await Promise.all([
      totalOps.length ? this.models.StatTotal.bulkWrite(totalOps, { ordered: false }) : null,
      statOps.length ? this.models.Stat.bulkWrite(statOps, { ordered: false }) : null,
      visitorOps.length ? this.models.Visitor.bulkWrite(visitorOps, { ordered: false }) : null,
      errorOps.length ? this.models.ErrorGroup.bulkWrite(errorOps, { ordered: false }) : null,
      heatmapOps.length ? this.models.Heatmap.bulkWrite(heatmapOps, { ordered: false }) : null,
      replaySessionOps.length
        ? this.models.ReplaySession.bulkWrite(replaySessionOps, { ordered: false })
        : null,
      chunkDocs.length
        ? this.models.ReplayChunk.collection
            .insertMany(chunkDocs, { ordered: false })
            .catch(ignoreDuplicates)
        : null,
      totals.length ? this.models.WebsiteTotals.bulkWrite(totals, { ordered: false }) : null,
    ]);
  }
}

function ignoreDuplicates(error: unknown): void {
  const writeErrors = (error as { writeErrors?: Array<{ code: number }> | { code: number } })
    .writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : null;
  if (!list || list.some((e) => e.code !== DUPLICATE_KEY)) throw error;
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
