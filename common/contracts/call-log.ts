/**
 * The call log: every External API call, recorded by the facade, appended to a Redis stream in
 * batches and stored by the keys subgraph as one document per batch and key. A batch travels
 * already packed per key, in the form the keys subgraph stores, so storing it costs no work per
 * call (docs/api.md, "Call log").
 */

/**
 * What a call counted toward (docs/api.md, "Counts that survive a Redis loss"): the key's total and
 * the count of its UTC `day` (YYYY-MM-DD, the day it was admitted), and, when it used a request of
 * the monthly quota, `quota`: `<billing organization id>|<YYYY-MM>`.
 */
export interface CallUsage {
  day: string;
  quota: string | null;
}

/** One External API call, as the facade records it. */
export interface CallRecord {
  /** When the response was done (epoch ms). */
  at: number;
  keyId: string | null;
  method: string;
  /** The route pattern, e.g. /api/external/v1/analytics/:websiteId, for filtering. */
  endpoint: string;
  /** The path as requested. */
  path: string;
  status: number;
  ip: string;
  durationMs: number;
  /** The response's X-Request-Id. */
  requestId: string | null;
  /** What the call counted toward; absent or null when it counted toward nothing (refused key). */
  usage?: CallUsage | null;
}

/** A call as it is read back: its record without the key, and its id in the log. */
export interface LoggedCall extends Omit<CallRecord, 'at' | 'keyId'> {
  /** `<batch id>-<index in the batch>`: unique, and the same however often the batch is stored. */
  id: string;
  at: Date;
}

/** What one key's calls of a batch counted: calls per UTC day, quota requests per `org|month`. */
export interface KeyUsage {
  days: Record<string, number>;
  quota: Record<string, number>;
}

/** One key's calls in one batch, packed (packedCalls): what the keys subgraph stores as it is. */
export interface KeyCalls {
  keyId: string | null;
  firstAt: Date;
  lastAt: Date;
  packed: string;
  /** What they counted, for the usage ledger (empty for entries written before it existed). */
  usage: KeyUsage;
}

export const callLogStream = (prefix: string) => `${prefix}{calls}`;

/**
 * A key's calls in a batch as one JSON object: the batch id (`b`), the index in the batch of its
 * first call (`i`), the time of its first call (`t`), the distinct strings (`s`: methods,
 * endpoints, paths, addresses) and a row per call (`r`). One string instead of a document per
 * call, and about a fifth of the bytes of the calls as JSON objects (a request id is most of a
 * row): FerretDB spends its CPU per document and per byte, and the call log is written on every
 * API call.
 */
interface PackedCalls {
  v: 2;
  b: string;
  i: number;
  t: number;
  s: string[];
  r: PackedRow[];
}

/** `[ms after t, method, endpoint, path (indexes into s), status, ip (index), durationMs, requestId]` */
type PackedRow = [number, number, number, number, number, number, number, string | null];

/**
 * Fields of a batch's stream entry: its id, its keys (`[key id, first at, last at, usage]`), their
 * calls.
 */
const BATCH = 'batch';
const KEYS = 'keys';
const callsField = (index: number) => `calls:${index}`;

/**
 * The stream entry's fields for a batch of calls: packed per key, each key's calls numbered on
 * from the previous key's.
 */
export function callLogEntryFields(batchId: string, calls: readonly CallRecord[]): string[] {
  const groups = packByKey(batchId, calls);
  const fields = [
    BATCH,
    batchId,
    KEYS,
    JSON.stringify(groups.map((g) => [g.keyId, g.firstAt.getTime(), g.lastAt.getTime(), g.usage])),
  ];
  groups.forEach((group, index) => fields.push(callsField(index), group.packed));
  return fields;
}

/** Calls of a batch, grouped by key in the order their first call came, and packed. */
function packByKey(batchId: string, calls: readonly CallRecord[]): KeyCalls[] {
  const byKey = new Map<string | null, CallRecord[]>();
  for (const call of calls) {
    const group = byKey.get(call.keyId);
    if (group) group.push(call);
    else byKey.set(call.keyId, [call]);
  }
  const packed: KeyCalls[] = [];
  let first = 0;
  for (const [keyId, group] of byKey) {
    packed.push(packKeyCalls(batchId, first, keyId, group));
    first += group.length;
  }
  return packed;
}

function packKeyCalls(
  batchId: string,
  firstIndex: number,
  keyId: string | null,
  calls: readonly CallRecord[],
): KeyCalls {
  let firstAt = Infinity;
  let lastAt = -Infinity;
  const usage: KeyUsage = { days: {}, quota: {} };
  for (const call of calls) {
    if (call.at < firstAt) firstAt = call.at;
    if (call.at > lastAt) lastAt = call.at;
    if (!call.usage) continue;
    usage.days[call.usage.day] = (usage.days[call.usage.day] ?? 0) + 1;
    if (call.usage.quota) usage.quota[call.usage.quota] = (usage.quota[call.usage.quota] ?? 0) + 1;
  }
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const indexOf = (value: string) => {
    let index = indexes.get(value);
    if (index === undefined) {
      index = strings.push(value) - 1;
      indexes.set(value, index);
    }
    return index;
  };
  const rows = calls.map((call): PackedRow => [
    call.at - firstAt,
    indexOf(call.method),
    indexOf(call.endpoint),
    indexOf(call.path),
    call.status,
    indexOf(call.ip),
    call.durationMs,
    call.requestId,
  ]);
  const packed: PackedCalls = { v: 2, b: batchId, i: firstIndex, t: firstAt, s: strings, r: rows };
  return {
    keyId,
    firstAt: new Date(firstAt),
    lastAt: new Date(lastAt),
    packed: JSON.stringify(packed),
    usage,
  };
}

/** Whether a stored string holds calls packed by packKeyCalls (older forms are JSON arrays). */
export const isPackedCalls = (packed: string) => packed.startsWith('{');

/** The calls of a packed string; a row that is not of the form is left out. */
export function unpackCalls(packed: string): LoggedCall[] {
  const { b, i, t, s, r } = JSON.parse(packed) as PackedCalls;
  const calls: LoggedCall[] = [];
  r.forEach((row, n) => {
    if (!Array.isArray(row) || row.length !== 8) return;
    const [after, method, endpoint, path, status, ip, durationMs, requestId] = row;
    calls.push({
      id: `${b}-${i + n}`,
      at: new Date(t + after),
      method: String(s[method]),
      endpoint: String(s[endpoint]),
      path: String(s[path]),
      status: Number(status),
      ip: String(s[ip]),
      durationMs: Number(durationMs),
      requestId: typeof requestId === 'string' ? requestId : null,
    });
  });
  return calls;
}

/** A call as stream entries carried it before batches were packed (`calls`: a JSON array). */
interface UnpackedRecord extends Omit<CallRecord, 'at' | 'requestId'> {
  at: string;
  requestId?: string;
}

/**
 * A stream entry's batch: its id (the facade's, or the entry's for entries that carry none) and
 * each key's calls, from either form of entry. Null when the entry holds nothing readable.
 */
export function readCallLogEntry(entry: {
  id: string;
  fields: Record<string, string>;
}): { batchId: string; keys: KeyCalls[] } | null {
  const batchId = entry.fields[BATCH] ?? entry.id;
  try {
    if (entry.fields[KEYS] !== undefined) {
      const keys = JSON.parse(entry.fields[KEYS]) as Array<
        [string | null, number, number, KeyUsage?]
      >;
      return {
        batchId,
        keys: keys.flatMap(([keyId, firstAt, lastAt, usage], index) => {
          const packed = entry.fields[callsField(index)];
          if (packed === undefined) return [];
          return [
            {
              keyId,
              firstAt: new Date(firstAt),
              lastAt: new Date(lastAt),
              packed,
              usage: usage ?? { days: {}, quota: {} },
            },
          ];
        }),
      };
    }
    const records = JSON.parse(entry.fields.calls ?? '[]') as UnpackedRecord[];
    const calls: CallRecord[] = [];
    for (const record of records) {
      const at = Date.parse(record.at);
      if (Number.isNaN(at)) continue;
      calls.push({
        at,
        keyId: record.keyId ?? null,
        method: String(record.method),
        endpoint: String(record.endpoint),
        path: String(record.path),
        status: Number(record.status),
        ip: String(record.ip),
        durationMs: Number(record.durationMs),
        requestId: typeof record.requestId === 'string' ? record.requestId : null,
      });
    }
    return { batchId, keys: packByKey(batchId, calls) };
  } catch {
    return null;
  }
}
