import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Connection } from 'mongoose';
import type { VisitorState } from '../ingest/aggregate';
import { packRows, unpackRows, type Family, type PackedRows, type Rows } from './counters';
import type { ErrorMeta } from './error-meta';
import { dayStartOf, type DayKey } from './hot-keys';
import { Partitions } from './partitions';
import {
  encodeVisitor,
  visitorFromStored,
  type ReplayState,
  type StoredVisitor,
} from './visitor-codec';

/** Visitors per stored chunk: a page of at most 1,000 spans at most two chunks of a day. */
export const VISITOR_CHUNK = 1_000;

/** Cells clicked on one page: `x_y` → clicks. */
export type Cells = Map<string, number>;

/**
 * Everything one UTC day of one website holds once sealed, immutable: counters per family, heatmap
 * cells per page, the day's error groups and replay sessions (newest first). The day's visitors
 * (first seen, then id) are stored apart in chunks of VISITOR_CHUNK, since retention drops them.
 */
export interface DaySnapshot {
  id: string;
  website: string;
  day: DayKey;
  counters: Map<Family, Rows>;
  cells: Map<string, Cells>;
  errors: Map<string, ErrorMeta>;
  replays: ReplayState[];
  visitorChunks: number;
}

interface PackedSnapshot {
  counters: Array<[Family, PackedRows]>;
  cells: Array<[string, Array<[string, number]>]>;
  errors: Array<[string, ErrorMeta]>;
  replays: ReplayState[];
}
type StoredSnapshot = {
  _id: string;
  website: string;
  day: string;
  visitorChunks: number;
  data: string;
};
type StoredChunk = { _id: string; data: string };

/** The day a snapshot id names (`<website>|<day>|<sequence>`). */
const dayOfId = (id: string): DayKey => id.split('|')[1] ?? '';

/**
 * Sealed days in MongoDB, written once and read by `_id` (collections `analytics_days_YYYYMM`,
 * kept, and `analytics_visitors_YYYYMM`, dropped after the retention period), with an in-process
 * cache: a snapshot never changes, so a cached one is never stale.
 */
export class SnapshotStore {
  private readonly days: Partitions<StoredSnapshot>;
  private readonly visitors: Partitions<StoredChunk>;
  private readonly cache: LRUCache<string, DaySnapshot | VisitorState[]>;

  constructor(connection: Connection, cacheBytes = 256 * 1024 * 1024) {
    this.days = new Partitions<StoredSnapshot>(connection, 'analytics_days_', 'month');
    this.visitors = new Partitions<StoredChunk>(connection, 'analytics_visitors_', 'month');
    this.cache = new LRUCache({ maxSize: cacheBytes });
  }

  /** A new snapshot id: a re-sealed day gets a new one, so ids never take new content. */
  newId(website: string, day: DayKey): string {
    return `${website}|${day}|${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  }

  /** Stores a day (its visitors first: a snapshot is complete once its day document exists). */
  async write(snapshot: DaySnapshot, visitors: VisitorState[]): Promise<void> {
    const at = dayStartOf(snapshot.day);
    const chunks: StoredChunk[] = [];
    for (let k = 0; k * VISITOR_CHUNK < visitors.length; k += 1)
      chunks.push({
        _id: `${snapshot.id}|${k}`,
        data: `[${visitors
          .slice(k * VISITOR_CHUNK, (k + 1) * VISITOR_CHUNK)
          .map(encodeVisitor)
          .join(',')}]`,
      });
    if (chunks.length > 0) await this.visitors.at(at).insertMany(chunks);
    const packed: PackedSnapshot = {
      counters: [...snapshot.counters].map(([family, rows]) => [family, packRows(rows)]),
      cells: [...snapshot.cells].map(([page, cells]) => [page, [...cells]]),
      errors: [...snapshot.errors],
      replays: snapshot.replays,
    };
    const doc: StoredSnapshot = {
      _id: snapshot.id,
      website: snapshot.website,
      day: snapshot.day,
      visitorChunks: chunks.length,
      data: JSON.stringify(packed),
    };
    await this.days.at(at).insertOne(doc);
    this.remember(snapshot.id, { ...snapshot, visitorChunks: chunks.length }, doc.data.length);
  }

  async read(id: string): Promise<DaySnapshot> {
    const cached = this.cache.get(id);
    if (cached && !Array.isArray(cached)) return cached;
    const doc = await this.days.at(dayStartOf(dayOfId(id))).findOne({ _id: id });
    if (!doc) throw new Error(`analytics snapshot ${id} is missing`);
    const packed = JSON.parse(doc.data) as PackedSnapshot;
    const snapshot: DaySnapshot = {
      id,
      website: doc.website,
      day: doc.day,
      counters: new Map(packed.counters.map(([family, rows]) => [family, unpackRows(rows)])),
      cells: new Map(packed.cells.map(([page, cells]) => [page, new Map(cells)])),
      errors: new Map(packed.errors),
      replays: packed.replays,
      visitorChunks: doc.visitorChunks,
    };
    this.remember(id, snapshot, doc.data.length);
    return snapshot;
  }

  /** Chunk `k` of a snapshot's visitors; empty once retention dropped it. */
  async visitorChunk(snapshotId: string, k: number): Promise<VisitorState[]> {
    const id = `${snapshotId}|${k}`;
    const cached = this.cache.get(id);
    if (Array.isArray(cached)) return cached;
    const doc = await this.visitors.at(dayStartOf(dayOfId(snapshotId))).findOne({ _id: id });
    if (!doc) return [];
    const visitors = (JSON.parse(doc.data) as StoredVisitor[]).map(visitorFromStored);
    this.remember(id, visitors, doc.data.length);
    return visitors;
  }

  /** Every visitor of a snapshot, in order. */
  async allVisitors(snapshot: DaySnapshot): Promise<VisitorState[]> {
    const chunks = await Promise.all(
      Array.from({ length: snapshot.visitorChunks }, (_, k) => this.visitorChunk(snapshot.id, k)),
    );
    return chunks.flat();
  }

  /** Drops the visitor partitions of months that ended before `cutoff`. */
  dropVisitorsBefore(cutoff: number): Promise<string[]> {
    return this.visitors.dropEndingBefore(cutoff);
  }

  private remember(id: string, value: DaySnapshot | VisitorState[], storedBytes: number): void {
    // Parsed objects take a few times their JSON size.
    this.cache.set(id, value, { size: Math.max(1, storedBytes * 3) });
  }
}
