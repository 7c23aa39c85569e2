import type { RedisClient } from '../../../../common/platform/redis';
import { LRUCache } from 'lru-cache';
import { Schema, type Connection, type Model } from 'mongoose';
import { zero, type Vector } from './counters';
import type { ErrorMeta } from './error-meta';
import type { DayKey, HotKeys } from './hot-keys';

/** What the index knows of one day of one website. */
export interface DayEntry {
  /** Id of the day's sealed snapshot (store/snapshots.ts), null while it has none. */
  snapshot: string | null;
  /** Whether part of the day lives in the Redis hot tier (all of it, or what came after the snapshot). */
  hot: boolean;
  /** The snapshot's totals, visitor and replay session counts. */
  totals: Vector;
  visitors: number;
  replays: number;
  /** Ordered id of the last stream entry applied when the snapshot was taken. */
  sealedThrough: string | null;
}

/**
 * Per website: every day it has data for, and its error groups over all sealed days. The one
 * mutable analytics document; written only by the ingest lease holder, read by every instance
 * (cached, and reloaded when the website's epoch in Redis moves past the cached revision).
 */
export interface WebsiteIndex {
  website: string;
  rev: number;
  days: Map<DayKey, DayEntry>;
  errors: Map<string, ErrorMeta>;
}

export const emptyDay = (): DayEntry => ({
  snapshot: null,
  hot: false,
  totals: zero(),
  visitors: 0,
  replays: 0,
  sealedThrough: null,
});

/**
 * The stored form: the days and error groups packed into one string (FerretDB parses and
 * rewrites a document's fields one by one; a string costs it almost nothing), and the hot days
 * beside it so the maintenance can find them.
 */
const indexSchema = new Schema(
  {
    _id: { type: String, required: true },
    rev: { type: Number, required: true },
    hot: { type: [String], default: [] },
    data: { type: String, required: true },
  },
  { versionKey: false },
);
type StoredIndex = { _id: string; rev: number; hot: string[]; data: string };

interface PackedIndex {
  days: Array<[DayKey, DayEntry]>;
  errors: Array<[string, ErrorMeta]>;
}

function unpack(doc: StoredIndex): WebsiteIndex {
  const packed = JSON.parse(doc.data) as PackedIndex;
  return {
    website: doc._id,
    rev: doc.rev,
    days: new Map(packed.days),
    errors: new Map(packed.errors),
  };
}

const empty = (website: string): WebsiteIndex => ({
  website,
  rev: 0,
  days: new Map(),
  errors: new Map(),
});

/** The day index of every website (collection `analytics_index`, one document per website). */
export class DayIndexStore {
  private readonly model: Model<StoredIndex>;
  private readonly cache = new LRUCache<string, WebsiteIndex>({ max: 2_000 });

  constructor(
    connection: Connection,
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
  ) {
    this.model = connection.model<StoredIndex>('AnalyticsIndex', indexSchema, 'analytics_index');
  }

  /**
   * The website's index as stored now (read through). The copy returned is the caller's to change;
   * the cached one is not touched until `save`.
   */
  async load(website: string): Promise<WebsiteIndex> {
    const doc = await this.model.findById(website).lean<StoredIndex>();
    this.cache.set(website, doc ? unpack(doc) : empty(website));
    return doc ? unpack(doc) : empty(website);
  }

  /** The cached index (read only), loaded when there is none; may be behind (see current). */
  async cached(website: string): Promise<WebsiteIndex> {
    const cached = this.cache.get(website);
    if (cached) return cached;
    await this.load(website);
    return this.cache.get(website)!;
  }

  /**
   * The index at the revision Redis announces (`epoch`, read by the caller in the same MULTI as
   * the hot data it goes with): reloaded when the cached one is another revision. Without an epoch
   * (Redis lost it), the stored revision is announced again.
   */
  async current(website: string, epoch: string | null): Promise<WebsiteIndex> {
    const cached = this.cache.get(website);
    if (epoch !== null && cached && String(cached.rev) === epoch) return cached;
    await this.load(website);
    const index = this.cache.get(website)!;
    if (epoch === null && index.rev > 0)
      await this.redis.set(this.keys.epoch(website), index.rev, 'NX');
    return index;
  }

  /**
   * Stores a changed index as the next revision and announces it (unless the caller announces it
   * itself, atomically with what goes with it). Only the ingest lease holder writes, so there is
   * no concurrent writer to lose an update to.
   */
  async save(index: WebsiteIndex, { announce = true } = {}): Promise<WebsiteIndex> {
    const next: WebsiteIndex = { ...index, rev: index.rev + 1 };
    const packed: PackedIndex = { days: [...next.days], errors: [...next.errors] };
    const hot = [...next.days].filter(([, entry]) => entry.hot).map(([day]) => day);
    const stored = JSON.stringify(packed);
    await this.model.replaceOne(
      { _id: next.website },
      { _id: next.website, rev: next.rev, hot, data: stored },
      { upsert: true },
    );
    this.cache.set(next.website, unpack({ _id: next.website, rev: next.rev, hot, data: stored }));
    if (announce) await this.redis.set(this.keys.epoch(next.website), next.rev);
    return next;
  }

  /** Every website the index knows (one document each): those with analytics data. */
  async websites(): Promise<string[]> {
    const docs = await this.model.find({}, { _id: 1 }).lean<Array<{ _id: string }>>();
    return docs.map((doc) => doc._id);
  }

  /** Every website with hot days, and those days, as stored (maintenance after a Redis loss). */
  async hotDays(): Promise<Array<{ website: string; days: DayKey[] }>> {
    const docs = await this.model
      .find({}, { _id: 1, hot: 1 })
      .lean<Array<{ _id: string; hot?: string[] }>>();
    return docs
      .filter((doc) => (doc.hot?.length ?? 0) > 0)
      .map((doc) => ({ website: doc._id, days: doc.hot! }));
  }
}
