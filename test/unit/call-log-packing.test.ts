import {
  callLogEntryFields,
  isPackedCalls,
  readCallLogEntry,
  unpackCalls,
  type CallRecord,
} from '../../common/contracts/call-log';

const AT = Date.parse('2026-11-27T12:00:00.000Z');

function buildCall(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    at: AT,
    keyId: 'key-a',
    method: 'GET',
    endpoint: '/api/external/v1/websites/:websiteId',
    path: '/api/external/v1/websites/w1',
    status: 200,
    ip: '203.0.113.7',
    durationMs: 1.25,
    requestId: 'req-1',
    ...overrides,
  };
}

/** A stream entry as the keys subgraph's consumer receives it (field → value). */
function asEntry(fields: string[], id = '1764244800000-0') {
  const pairs: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) pairs[fields[i]!] = fields[i + 1]!;
  return { id, fields: pairs };
}

describe('call log batches (common/contracts/call-log.ts)', () => {
  it('PLAT-1: when a batch holds calls of two keys and calls without a key, then each key gets its calls back with every field, ids unique in the batch', () => {
    const calls = [
      buildCall({ at: AT + 5, requestId: 'req-1' }),
      buildCall({ at: AT + 1, keyId: 'key-b', path: '/api/external/v1/usage', status: 429 }),
      buildCall({ at: AT + 9, keyId: null, ip: '198.51.100.1', status: 401, requestId: null }),
      buildCall({ at: AT + 2, method: 'POST', durationMs: 10.5, requestId: 'req-4' }),
    ];

    const batch = readCallLogEntry(asEntry(callLogEntryFields('batch-1', calls)));

    expect(batch?.batchId).toBe('batch-1');
    expect(batch?.keys.map((k) => [k.keyId, k.firstAt.getTime(), k.lastAt.getTime()])).toEqual([
      ['key-a', AT + 2, AT + 5],
      ['key-b', AT + 1, AT + 1],
      [null, AT + 9, AT + 9],
    ]);
    const [a, b, none] = batch!.keys.map((k) => unpackCalls(k.packed));
    expect(a).toEqual([
      { ...buildCall({ at: AT + 5 }), id: 'batch-1-0', at: new Date(AT + 5), keyId: undefined },
      {
        ...buildCall({ method: 'POST', durationMs: 10.5, requestId: 'req-4' }),
        id: 'batch-1-1',
        at: new Date(AT + 2),
        keyId: undefined,
      },
    ]);
    expect(b).toEqual([
      expect.objectContaining({ id: 'batch-1-2', path: '/api/external/v1/usage', status: 429 }),
    ]);
    expect(none).toEqual([
      expect.objectContaining({
        id: 'batch-1-3',
        at: new Date(AT + 9),
        ip: '198.51.100.1',
        status: 401,
        requestId: null,
      }),
    ]);
  });

  it('PLAT-1: when a key made many calls to the same route, then its packed calls take a fraction of the bytes of the records', () => {
    const calls = Array.from({ length: 1_000 }, (_, n) =>
      buildCall({
        at: AT + n,
        requestId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      }),
    );
    const [packed] = readCallLogEntry(asEntry(callLogEntryFields('b', calls)))!.keys;

    expect(isPackedCalls(packed!.packed)).toBe(true);
    expect(packed!.packed.length).toBeLessThan(JSON.stringify(calls).length / 3);
    expect(unpackCalls(packed!.packed)).toHaveLength(1_000);
  });

  it('PLAT-1: when an entry carries the records as a JSON array (the earlier form), then its calls are read the same, a record without a valid time left out', () => {
    const record = { ...buildCall(), at: new Date(AT).toISOString() };
    const entry = {
      id: '1764244800000-7',
      fields: {
        calls: JSON.stringify([
          record,
          { ...record, at: 'not a time' },
          { ...record, keyId: 'key-b', requestId: undefined },
        ]),
      },
    };

    const batch = readCallLogEntry(entry);

    expect(batch?.batchId).toBe('1764244800000-7');
    expect(batch?.keys.map((k) => k.keyId)).toEqual(['key-a', 'key-b']);
    expect(unpackCalls(batch!.keys[1]!.packed)).toEqual([
      expect.objectContaining({ id: '1764244800000-7-1', requestId: null }),
    ]);
  });

  it('when an entry is not readable, then it is reported as such rather than thrown', () => {
    expect(readCallLogEntry({ id: '1-0', fields: { keys: '[' } })).toBeNull();
    expect(readCallLogEntry({ id: '1-0', fields: { calls: '{"not":"an array"}' } })).toBeNull();
  });
});
