/** One External API call, as the facade records it and the keys subgraph stores it. */
export interface CallRecord {
  at: string;
  keyId: string | null;
  method: string;
  /** The route pattern, e.g. /api/external/v1/analytics/:websiteId, for filtering. */
  endpoint: string;
  /** The path as requested. */
  path: string;
  status: number;
  ip: string;
  durationMs: number;
  /** The response's X-Request-Id; absent from records written before it was logged. */
  requestId?: string;
}

export const callLogStream = (prefix: string) => `${prefix}{calls}`;
