import {
  callLogStream,
  readCallLogEntry,
  type KeyCalls,
} from '../../../../common/contracts/call-log';
import {
  DAILY_KEPT_DAYS,
  monthOf,
  restoreUsageCounters,
} from '../../../../common/contracts/usage-keys';
import type { RedisClient } from '../../../../common/platform/redis';
import type { KeysModels } from '../models';

/** A ledger document remembers this many batch ids: more than a second's batches of any key. */
const BATCHES_REMEMBERED = 200;
const DAY_MS = 86_400_000;
/** Stream entries read per round trip by a restore. */
const STREAM_PAGE = 500;

/** One stored call-log batch: its id and each key's calls with what they counted. */
export interface LedgerBatch {
  batchId: string;
  keys: KeyCalls[];
}

type KeyDoc = {
  _id: string;
  lastUsedAt: Date;
  total: number;
  days: Record<string, number>;
  batches: string[];
};
type MonthDoc = { _id: string; requests: number; batches: string[] };

const remember = (batches: string[], batchId: string) =>
  [...batches, batchId].slice(-BATCHES_REMEMBERED);

/**
 * The usage ledger: what the call log says each key counted (its total and its days) and each
 * organization's months counted against their quota, kept in MongoDB beside the call log and
 * written in the same step, so that the counters the facade keeps in Redis can be set again when
 * Redis loses them (docs/api.md, "Counts that survive a Redis loss"). A batch is counted once
 * per document, however often it is delivered or appended again: each document remembers the
 * ids of the last batches it counted. Written by one consumer at a time (the call-log consumer's
 * lease): FerretDB's updates are not atomic under concurrency.
 */
export class UsageLedger {
  private adding: Promise<void> = Promise.resolve();

  constructor(
    private readonly models: KeysModels,
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /**
   * Counts the batches' calls in the ledger (once per batch) and moves last-used times forward.
   * One call at a time in this process (the lease makes it one process).
   */
  add(batches: readonly LedgerBatch[]): Promise<void> {
    const adding = this.adding.then(() => this.addNow(batches));
    this.adding = adding.catch(() => undefined);
    return adding;
  }

  private async addNow(batches: readonly LedgerBatch[]): Promise<void> {
    const keyIds = new Set<string>();
    const monthIds = new Set<string>();
    for (const { keys } of batches)
      for (const calls of keys) {
        if (calls.keyId) keyIds.add(calls.keyId);
        for (const month of Object.keys(calls.usage.quota)) monthIds.add(month);
      }
    if (keyIds.size === 0) return;
    const [keyDocs, monthDocs] = await Promise.all([
      this.keyDocs([...keyIds]),
      this.monthDocs([...monthIds]),
    ]);
    const changedKeys = new Set<KeyDoc>();
    const changedMonths = new Set<MonthDoc>();
    for (const { batchId, keys } of batches) {
      for (const calls of keys) {
        if (!calls.keyId) continue;
        const key = keyDocs.get(calls.keyId)!;
        changedKeys.add(key);
        if (calls.lastAt > key.lastUsedAt) key.lastUsedAt = calls.lastAt;
        if (key.batches.includes(batchId)) continue;
        key.batches = remember(key.batches, batchId);
        for (const [day, count] of Object.entries(calls.usage.days)) {
          key.days[day] = (key.days[day] ?? 0) + count;
          key.total += count;
        }
      }
      // Each document remembers its own batches: a delivery cut short between the two writes
      // counts the rest when it comes again.
      for (const [id, count] of quotaOf(keys)) {
        const month = monthDocs.get(id)!;
        if (month.batches.includes(batchId)) continue;
        month.batches = remember(month.batches, batchId);
        month.requests += count;
        changedMonths.add(month);
      }
    }
    for (const key of changedKeys) key.days = recentDays(key.days);
    await Promise.all([
      changedMonths.size > 0 &&
        this.models.UsageMonth.bulkWrite(
          [...changedMonths].map((doc) => ({
            replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
          })),
          { ordered: false },
        ),
      this.models.KeyUse.bulkWrite(
        [...changedKeys].map((doc) => ({
          replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
        })),
        { ordered: false },
      ),
    ]);
  }

  /** A key's counts in the ledger: its total and its requests per UTC day (the last 31 days). */
  async forKey(keyId: string): Promise<{ total: number; days: Record<string, number> }> {
    const doc = (await this.keyDocs([keyId])).get(keyId)!;
    return { total: doc.total, days: doc.days };
  }

  /** The requests an organization's call log counted against its quota in the month of `at`. */
  async forMonth(organizationId: string, at: Date): Promise<number> {
    const id = `${organizationId}|${monthOf(at)}`;
    return (await this.monthDocs([id])).get(id)!.requests;
  }

  /**
   * Sets the counters of the organization's month and of the key that Redis does not have (each
   * only where it is missing): what the ledger holds, plus what the call-log stream holds that the
   * ledger does not yet (batches appended and not yet stored, or appended again after Redis lost
   * them), so a consumer that lags or stands still costs nothing. The stream is read before the
   * ledger: a batch stored in between is in the ledger, and known there by its id.
   */
  async restore(organizationId: string, keyId: string, at: Date): Promise<void> {
    const monthId = `${organizationId}|${monthOf(at)}`;
    const waiting = await this.waitingInStream();
    const [keyDocs, monthDocs] = await Promise.all([
      this.keyDocs([keyId]),
      this.monthDocs([monthId]),
    ]);
    const key = keyDocs.get(keyId)!;
    const month = monthDocs.get(monthId)!;
    const days = { ...key.days };
    let total = key.total;
    let monthlyRequests = month.requests;
    for (const batch of waiting) {
      if (!key.batches.includes(batch.batchId))
        for (const calls of batch.keys.filter((k) => k.keyId === keyId))
          for (const [day, count] of Object.entries(calls.usage.days)) {
            days[day] = (days[day] ?? 0) + count;
            total += count;
          }
      if (!month.batches.includes(batch.batchId))
        monthlyRequests += quotaOf(batch.keys).get(monthId) ?? 0;
    }
    await restoreUsageCounters(this.redis, this.prefix, {
      organizationId,
      at,
      monthlyRequests,
      keyId,
      keyTotal: total,
      keyDays: days,
    });
  }

  /** The call-log stream's batches (appended and not yet stored), as the ledger reads them. */
  private async waitingInStream(): Promise<LedgerBatch[]> {
    const stream = callLogStream(this.prefix);
    const found: LedgerBatch[] = [];
    let from = '-';
    for (;;) {
      const page = await this.redis.xrange(stream, from, '+', 'COUNT', STREAM_PAGE);
      for (const [id, list] of page) {
        const fields: Record<string, string> = {};
        for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]!] = list[i + 1]!;
        const batch = readCallLogEntry({ id, fields });
        if (batch) found.push(batch);
      }
      if (page.length < STREAM_PAGE) return found;
      from = `(${page.at(-1)![0]}`;
    }
  }

  /** The ledger documents of these keys, made for those without one. */
  private async keyDocs(ids: string[]): Promise<Map<string, KeyDoc>> {
    const found = (await this.models.KeyUse.find({ _id: { $in: ids } }).lean()) as KeyDoc[];
    const docs = new Map(
      found.map((doc) => [
        doc._id,
        {
          _id: doc._id,
          lastUsedAt: doc.lastUsedAt,
          total: doc.total ?? 0,
          days: { ...(doc.days ?? {}) },
          batches: doc.batches ?? [],
        },
      ]),
    );
    for (const id of ids)
      if (!docs.has(id))
        docs.set(id, { _id: id, lastUsedAt: new Date(0), total: 0, days: {}, batches: [] });
    return docs;
  }

  private async monthDocs(ids: string[]): Promise<Map<string, MonthDoc>> {
    const found =
      ids.length === 0
        ? []
        : ((await this.models.UsageMonth.find({ _id: { $in: ids } }).lean()) as MonthDoc[]);
    const docs = new Map(found.map((doc) => [doc._id, { ...doc, batches: doc.batches ?? [] }]));
    for (const id of ids) if (!docs.has(id)) docs.set(id, { _id: id, requests: 0, batches: [] });
    return docs;
  }
}

/** A batch's quota requests per `org|month`, over all its keys' calls. */
function quotaOf(keys: readonly KeyCalls[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const calls of keys)
    for (const [id, count] of Object.entries(calls.usage.quota))
      sums.set(id, (sums.get(id) ?? 0) + count);
  return sums;
}

/** The days within DAILY_KEPT_DAYS of the latest one: a ledger document stays small. */
function recentDays(days: Record<string, number>): Record<string, number> {
  const latest = Object.keys(days).sort().at(-1);
  if (!latest) return days;
  const oldest = new Date(Date.parse(latest) - (DAILY_KEPT_DAYS - 1) * DAY_MS)
    .toISOString()
    .slice(0, 10);
  return Object.fromEntries(Object.entries(days).filter(([day]) => day >= oldest));
}
