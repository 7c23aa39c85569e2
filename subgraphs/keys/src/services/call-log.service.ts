import {
  readCallLogEntry,
  type KeyCalls,
  type LoggedCall,
} from '../../../../common/contracts/call-log';
import { badInput } from '../../../../common/platform/errors';
import type { StreamEntry } from '../../../../common/platform/stream-consumer';
import { onlyDuplicateKeys } from '../../../../common/platform/duplicate-keys';
import type { KeysModels } from '../models';
import { unpackCalls } from './call-log.packing';
import type { LedgerBatch, UsageLedger } from './usage-ledger.service';

/** A stored call as the dashboard reads it: the facade's record, with its id. */
export type CallView = LoggedCall;

export interface CallPage {
  nodes: CallView[];
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface CallFilter {
  from?: Date | null;
  to?: Date | null;
  endpoint?: string | null;
  first: number;
  after?: string | null;
}

const MAX_PAGE = 500;

const encodeCursor = (call: { at: Date; id: string }) =>
  Buffer.from(`${call.at.toISOString()}|${call.id}`).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  if (!id || Number.isNaN(date.getTime()))
    throw badInput('after is not a cursor from a previous page');
  return { at: date, id };
}

/** The per-key call log: stored from the facade's stream, read by the dashboard. */
export class CallLogService {
  constructor(
    private readonly models: KeysModels,
    private readonly ledger: UsageLedger,
  ) {}

  /**
   * Idempotent: an entry delivered twice, or appended again under its batch id after Redis lost
   * it, is stored once. Each entry's calls come packed per key and are stored as they are, one
   * bucket document per key (see the model); what they counted goes to the usage ledger, which
   * also moves last-used times forward.
   */
  async store(entries: StreamEntry[]): Promise<void> {
    const buckets = new Map<string, Omit<KeyCalls, 'usage'> & { _id: string }>();
    const batches: LedgerBatch[] = [];
    for (const entry of entries) {
      const batch = readCallLogEntry(entry);
      if (!batch) continue;
      batches.push(batch);
      // The facade sends a failed batch again under its id: stored once, whatever entry carries it.
      for (const { usage: _usage, ...calls } of batch.keys) {
        const _id = `${batch.batchId}:${calls.keyId ?? '-'}`;
        if (!buckets.has(_id)) buckets.set(_id, { _id, ...calls });
      }
    }
    if (buckets.size === 0) return;
    try {
      // lean: the documents are built above from typed fields, with no hydration or casting.
      await this.models.ApiCallBucket.insertMany([...buckets.values()], {
        ordered: false,
        lean: true,
      });
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
    }
    await this.ledger.add(batches);
  }

  /** Last-used times of these keys; keys never used are absent. */
  async lastUsedAt(keyIds: readonly string[]): Promise<Map<string, Date>> {
    const docs = await this.models.KeyUse.find({ _id: { $in: keyIds } }).lean();
    return new Map(docs.map((d) => [d._id, d.lastUsedAt]));
  }

  /**
   * Newest first. Buckets are read newest-last-call first and unpacked until no later bucket
   * can hold a call that belongs on this page (buckets of several facade instances overlap in
   * time, so reading stops only once the page's oldest call is newer than the next bucket).
   */
  async list(keyId: string, filter: CallFilter): Promise<CallPage> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_PAGE)
      throw badInput(`first must be between 1 and ${MAX_PAGE}`);
    const cursor = filter.after ? decodeCursor(filter.after) : null;
    const query: Record<string, unknown> = { keyId };
    if (filter.from) query.lastAt = { $gte: filter.from };
    const firstAt: Record<string, Date> = {};
    if (filter.to) firstAt.$lt = filter.to;
    if (cursor) firstAt.$lte = cursor.at;
    if (Object.keys(firstAt).length > 0) query.firstAt = firstAt;
    const belongs = (call: CallView) =>
      (!filter.from || call.at >= filter.from) &&
      (!filter.to || call.at < filter.to) &&
      (!filter.endpoint || call.endpoint === filter.endpoint) &&
      (!cursor || newestFirst(call, cursor) > 0);

    const wanted = filter.first + 1;
    let page: CallView[] = [];
    const buckets = this.models.ApiCallBucket.find(query)
      .sort({ lastAt: -1, _id: -1 })
      .lean()
      .cursor({ batchSize: 20 });
    try {
      for await (const bucket of buckets) {
        if (page.length >= wanted) {
          page = page.sort(newestFirst).slice(0, wanted);
          if (page[wanted - 1]!.at > bucket.lastAt) break;
        }
        for (const call of unpackCalls(bucket)) if (belongs(call)) page.push(call);
      }
    } finally {
      await buckets.close();
    }
    page.sort(newestFirst);
    const nodes = page.slice(0, filter.first);
    const last = nodes.at(-1);
    return {
      nodes,
      hasNextPage: page.length > filter.first,
      endCursor: last ? encodeCursor(last) : null,
    };
  }
}

/** Sort order of the log: newer first, then higher id first (ids compare as strings). */
function newestFirst(a: { at: Date; id: string }, b: { at: Date; id: string }): number {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
