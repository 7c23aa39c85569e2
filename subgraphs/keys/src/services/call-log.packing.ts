import {
  isPackedCalls,
  unpackCalls as unpackKeyCalls,
} from '../../../../common/contracts/call-log';
import type { CallView } from './call-log.service';

/**
 * Rows of buckets stored before calls travelled packed per key (common/contracts/call-log.ts):
 * `[id, at (epoch ms), method, endpoint, path, status, ip, durationMs, requestId | null]`.
 */
type OlderRow = [string, number, string, string, string, number, string, number, string | null];

/**
 * A stored bucket's calls, in any form it was stored in: packed per key (now), packed as rows
 * with their ids, or as sub-documents without request ids (the first buckets).
 */
export function unpackCalls(bucket: {
  packed?: string | null;
  calls?: Array<Omit<CallView, 'requestId'> & { requestId?: string | null }> | null;
}): CallView[] {
  if (typeof bucket.packed === 'string') {
    if (isPackedCalls(bucket.packed)) return unpackKeyCalls(bucket.packed);
    return (JSON.parse(bucket.packed) as OlderRow[]).map(
      ([id, at, method, endpoint, path, status, ip, durationMs, requestId]) => ({
        id,
        at: new Date(at),
        method,
        endpoint,
        path,
        status,
        ip,
        durationMs,
        requestId,
      }),
    );
  }
  return (bucket.calls ?? []).map((call) => ({ ...call, requestId: call.requestId ?? null }));
}
