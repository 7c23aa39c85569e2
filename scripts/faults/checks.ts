/**
 * What the stack did with the load, read back the way a customer would: a key's call log through
 * the gateway's GraphQL (with the owner's access token), and a website's page views through the
 * External API (with the probe key). Reads that fail (the stack is still recovering) count as
 * "not yet".
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CLAIM_IDLE_MS } from '../../common/platform/stream-consumer';

export interface Reader {
  gatewayUrl: string;
  facadeUrl: string;
  token: string;
  probeKey: string;
  /**
   * Requests of the quota the probe key's reads used (answered with X-Usage-Monthly, neither a
   * 429 nor a 5xx): they count in the organization's month beside the load's.
   */
  probeQuotaRequests: number;
}

/** Whether an answer used a request of the monthly quota (a 5xx gave it back). */
export const usedQuota = (status: number, monthlyHeader: unknown) =>
  monthlyHeader !== undefined && monthlyHeader !== null && status !== 429 && status < 500;

const READ_TIMEOUT_MS = 5_000;
const CALL_PAGE = 500;

async function graphql<T>(reader: Reader, query: string, variables: Record<string, unknown>) {
  const response = await fetch(`${reader.gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.token}` },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  const body = (await response.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (!response.ok || body.errors?.length || !body.data)
    throw new Error(`GraphQL ${response.status}: ${body.errors?.[0]?.message ?? 'no data'}`);
  return body.data;
}

interface CallPage {
  apiKey: {
    calls: {
      nodes: Array<{ requestId: string | null; at: string }>;
      hasNextPage: boolean;
      endCursor: string | null;
    };
  } | null;
}

const CALLS = `query ($id: ID!, $first: Int, $after: String) {
  apiKey(id: $id) { calls(first: $first, after: $after) { nodes { requestId at } hasNextPage endCursor } }
}`;

/** The request ids of every call in the key's log (a call logged twice appears twice). */
export async function loggedRequestIds(reader: Reader, keyId: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const data: CallPage = await graphql<CallPage>(reader, CALLS, {
      id: keyId,
      first: CALL_PAGE,
      after,
    });
    if (!data.apiKey) throw new Error(`key ${keyId} not found`);
    const { nodes, hasNextPage, endCursor } = data.apiKey.calls;
    for (const node of nodes) ids.push(node.requestId ?? '(none)');
    if (!hasNextPage || !endCursor) return ids;
    after = endCursor;
  }
}

/** When the newest call in the key's log was made (ms), or null for an empty log. */
export async function newestCallAt(reader: Reader, keyId: string): Promise<number | null> {
  const data = await graphql<CallPage>(reader, CALLS, { id: keyId, first: 1, after: null });
  const newest = data.apiKey?.calls.nodes[0];
  return newest ? Date.parse(newest.at) : null;
}

/** Page views of the last 24 hours counted for a website (the analytics overview). */
export async function countedPageviews(reader: Reader, websiteId: string): Promise<number> {
  const response = await fetch(
    `${reader.facadeUrl}/api/external/v1/analytics/${websiteId}?range=24h`,
    { headers: { 'x-api-key': reader.probeKey }, signal: AbortSignal.timeout(READ_TIMEOUT_MS) },
  );
  if (usedQuota(response.status, response.headers.get('x-usage-monthly')))
    reader.probeQuotaRequests += 1;
  const body = (await response.json()) as { data?: { summary?: { pageviews?: number } } };
  const pageviews = body.data?.summary?.pageviews;
  if (response.status !== 200 || typeof pageviews !== 'number')
    throw new Error(`analytics overview answered ${response.status}`);
  return pageviews;
}

export interface Settled<T> {
  value: T | null;
  /** `matched`: the expected value, steady for a moment; `steady`: another value that stopped changing; `timeout`. */
  how: 'matched' | 'steady' | 'timeout';
  lastError?: string;
}

/**
 * How long a stuck pipeline may still catch up by design: a stream consumer claims the entries
 * a dead one left pending after CLAIM_IDLE_MS (30 s), so a batch in the hands of a killed keys
 * subgraph reaches the log about that long after the kill.
 */
export const CATCH_UP_MS = CLAIM_IDLE_MS + 5_000;

export interface SettleOptions {
  /** A value other than the expected one is not final before this time (ms). */
  notBefore?: number;
  /** Gives up 30 s from now, or this long after `notBefore`, whichever is later. */
  timeoutMs?: number;
  steadyMs?: number;
  confirmMs?: number;
  intervalMs?: number;
}

/**
 * Reads until the value is the expected one (and stays so for `confirmMs`, so that a late double
 * count shows), or — once `notBefore` has passed — stops changing for `steadyMs`, or the time
 * runs out.
 */
export async function settle<T>(
  read: () => Promise<T>,
  matches: (value: T) => boolean,
  same: (a: T, b: T) => boolean,
  {
    notBefore = 0,
    timeoutMs = 30_000,
    steadyMs = 5_000,
    confirmMs = 2_000,
    intervalMs = 500,
  }: SettleOptions = {},
): Promise<Settled<T>> {
  const deadline = Math.max(Date.now() + timeoutMs, notBefore + steadyMs + 5_000);
  let value: T | null = null;
  let since = Date.now();
  let lastError: string | undefined;
  while (Date.now() < deadline) {
    try {
      const next = await read();
      if (value === null || !same(value, next)) since = Date.now();
      value = next;
      lastError = undefined;
      const unchangedMs = Date.now() - since;
      if (matches(next) && unchangedMs >= confirmMs) return { value, how: 'matched' };
      if (!matches(next) && unchangedMs >= steadyMs && Date.now() >= notBefore)
        return { value, how: 'steady' };
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(intervalMs);
  }
  return { value, how: 'timeout', lastError };
}

/**
 * Resolves with the seconds from `since` to the first time `condition` held, or null if it did
 * not within `timeoutMs` (counted from now).
 */
export async function secondsUntil(
  since: number,
  condition: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 250 } = {},
): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const held = await condition().catch(() => false);
    if (held) return (Date.now() - since) / 1000;
    await sleep(intervalMs);
  }
  return null;
}

export interface CallLogFigures {
  /** Calls with the key that got an answer (each has an X-Request-Id). */
  answered: number;
  /** Calls in the key's log. */
  logged: number;
  /** Answered calls the log does not have. */
  missing: number;
  /** Calls logged more than once. */
  duplicates: number;
  /** Logged calls that got no answer here (cut or timed out: the facade logs them as 499). */
  unanswered: number;
  how: Settled<unknown>['how'];
}

/** Waits for the key's log to hold every answered call (see `settle`), then compares. */
export async function compareCallLog(
  reader: Reader,
  keyId: string,
  answeredIds: readonly string[],
  options: SettleOptions = {},
): Promise<CallLogFigures> {
  const answered = new Set(answeredIds);
  const missingFrom = (ids: string[]) => {
    const logged = new Set(ids);
    return [...answered].filter((id) => !logged.has(id)).length;
  };
  const result = await settle(
    () => loggedRequestIds(reader, keyId),
    (ids) => missingFrom(ids) === 0,
    (a, b) => a.length === b.length,
    options,
  );
  const ids = result.value ?? [];
  const unique = new Set(ids);
  return {
    answered: answered.size,
    logged: ids.length,
    missing: missingFrom(ids),
    duplicates: ids.length - unique.size,
    unanswered: [...unique].filter((id) => !answered.has(id)).length,
    how: result.how,
  };
}

export interface EventFigures {
  /** Page views answered 202 `{"accepted": true}`. */
  accepted: number;
  /** Page views the overview counts on the scenario's websites; null if it never answered. */
  counted: number | null;
  how: Settled<unknown>['how'];
}

/** Waits for the websites' counts to reach what was accepted (see `settle`), then compares. */
export async function compareEvents(
  reader: Reader,
  websiteIds: readonly string[],
  accepted: number,
  options: SettleOptions = {},
): Promise<EventFigures> {
  const result = await settle(
    async () => {
      let total = 0;
      for (const id of websiteIds) total += await countedPageviews(reader, id);
      return total;
    },
    (counted) => counted === accepted,
    (a, b) => a === b,
    options,
  );
  return { accepted, counted: result.value, how: result.how };
}
