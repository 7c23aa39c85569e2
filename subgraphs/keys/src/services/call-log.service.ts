import type { CallRecord } from '../../../../common/call-log';
import { badInput } from '../../../../common/errors';
import type { StreamEntry } from '../../../../common/stream-consumer';
import type { KeysModels } from '../models';

/** A stored call as the dashboard reads it: the facade's record, with its id and a real date. */
export type CallView = Omit<CallRecord, 'at' | 'keyId'> & { id: string; at: Date };

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
  constructor(private readonly models: KeysModels) {}

  /** Idempotent: an entry delivered twice is stored once, and last-used times only move forward. */
  async store(entries: StreamEntry[]): Promise<void> {
    // An entry holds a batch of calls; `<entry id>-<index>` identifies each one for good.
    const calls = entries.flatMap((entry) => {
      try {
        const batch = JSON.parse(entry.fields.calls ?? '[]') as CallRecord[];
        return batch.map((call, index) => ({ ...call, id: `${entry.id}-${index}` }));
      } catch {
        return [];
      }
    });
    if (calls.length === 0) return;
    try {
      await this.models.ApiCall.insertMany(
        calls.map((c) => ({
          _id: c.id,
          keyId: c.keyId,
          at: new Date(c.at),
          method: c.method,
          endpoint: c.endpoint,
          path: c.path,
          status: c.status,
          ip: c.ip,
          durationMs: c.durationMs,
        })),
        { ordered: false },
      );
    } catch (error) {
      if (!isOnlyDuplicates(error)) throw error;
    }
    const lastUse = new Map<string, Date>();
    for (const call of calls) {
      if (!call.keyId) continue;
      const at = new Date(call.at);
      if (!lastUse.has(call.keyId) || lastUse.get(call.keyId)! < at) lastUse.set(call.keyId, at);
    }
    if (lastUse.size === 0) return;
    const recordUse = () =>
      this.models.KeyUse.bulkWrite(
        [...lastUse].map(([keyId, at]) => ({
          updateOne: { filter: { _id: keyId }, update: { $max: { lastUsedAt: at } }, upsert: true },
        })),
        { ordered: false },
      );
    try {
      await recordUse();
    } catch (error) {
      // Two writers upserting a key's first use at once: one insert loses on the unique _id.
      // The document exists now, so running the ($max, idempotent) updates again applies them.
      if (!isOnlyDuplicates(error)) throw error;
      await recordUse();
    }
  }

  /** Last-used times of these keys; keys never used are absent. */
  async lastUsedAt(keyIds: readonly string[]): Promise<Map<string, Date>> {
    const docs = await this.models.KeyUse.find({ _id: { $in: keyIds } }).lean();
    return new Map(docs.map((d) => [d._id, d.lastUsedAt]));
  }

  async list(keyId: string, filter: CallFilter): Promise<CallPage> {
    if (!Number.isInteger(filter.first) || filter.first < 1 || filter.first > MAX_PAGE)
      throw badInput(`first must be between 1 and ${MAX_PAGE}`);
    const query: Record<string, unknown> = { keyId };
    const at: Record<string, Date> = {};
    if (filter.from) at.$gte = filter.from;
    if (filter.to) at.$lt = filter.to;
    if (filter.endpoint) query.endpoint = filter.endpoint;
    const conditions: Record<string, unknown>[] = [];
    if (Object.keys(at).length > 0) conditions.push({ at });
    if (filter.after) {
      const cursor = decodeCursor(filter.after);
      conditions.push({
        $or: [{ at: { $lt: cursor.at } }, { at: cursor.at, _id: { $lt: cursor.id } }],
      });
    }
    if (conditions.length > 0) query.$and = conditions;
    const docs = await this.models.ApiCall.find(query)
      .sort({ at: -1, _id: -1 })
      .limit(filter.first + 1)
      .lean();
    const nodes = docs.slice(0, filter.first).map((d) => ({
      id: d._id,
      at: d.at,
      method: d.method,
      endpoint: d.endpoint,
      path: d.path,
      status: d.status,
      ip: d.ip,
      durationMs: d.durationMs,
    }));
    const last = nodes.at(-1);
    return {
      nodes,
      hasNextPage: docs.length > filter.first,
      endCursor: last ? encodeCursor(last) : null,
    };
  }
}

function isOnlyDuplicates(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: Array<{ code?: number; err?: { code?: number } }> })
    .writeErrors;
  if (!writeErrors) return (error as { code?: number }).code === 11000;
  return writeErrors.every((e) => (e.code ?? e.err?.code) === 11000);
}
