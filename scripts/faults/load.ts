/**
 * An open-loop load generator: requests leave at a fixed rate whatever the answers take (a slow
 * or stuck server does not slow the sender down), over one keep-alive undici Pool, and every
 * request's ending is recorded — its status, or how the connection failed — with its latency.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface LoadRequest {
  /** What the request is for (`websites`, `collect`…); the figures group by it. */
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Parse the JSON answer's `accepted` (collection); other bodies are read and dropped. */
  readAccepted?: boolean;
}

/**
 * How a request ended: `answered` with a status; `reset` when the connection broke under it
 * (ECONNRESET, EPIPE, undici's "other side closed"); `refused` when no connection could be made
 * (nothing listening: expected once a server has closed its listener); `timeout`; `error` for
 * anything else (its code is kept).
 */
export type Ending = 'answered' | 'reset' | 'refused' | 'timeout' | 'error';

export interface Outcome {
  id: number;
  kind: string;
  /** Wall-clock ms (Date.now) when it was sent and when it ended. */
  startedAt: number;
  endedAt: number;
  latencyMs: number;
  ending: Ending;
  status?: number;
  requestId?: string;
  accepted?: boolean;
  errorCode?: string;
  /** X-Usage-Monthly and X-Usage-Total of the answer, when it had them. */
  usageMonthly?: number;
  usageTotal?: number;
}

export interface LoadOptions {
  origin: string;
  ratePerSecond: number;
  connections: number;
  /** The n-th request (from 1). */
  next(n: number): LoadRequest;
  /**
   * Requests leave in groups of this many at once (the rate stays the same), so that several are
   * in flight together even when answers are fast. Default 1.
   */
  burst?: number;
  /** A request without an answer after this long ends as a timeout. */
  timeoutMs?: number;
}

export interface RunningLoad {
  readonly outcomes: readonly Outcome[];
  /** Ids of the requests sent and not ended yet. */
  inFlight(): number[];
  /** Resolves once `count` requests have been answered (any status), or rejects after `timeoutMs`. */
  answered(count: number, timeoutMs?: number): Promise<void>;
  /**
   * Resolves (true) as soon as at least `count` requests are in flight, checked as each is
   * sent, or (false) after `timeoutMs`.
   */
  inFlightAtLeast(count: number, timeoutMs: number): Promise<boolean>;
  /** Stops sending, waits for every request in flight to end, and closes the pool. */
  stop(): Promise<Outcome[]>;
}

const TICK_MS = 5;

export function startLoad(options: LoadOptions): RunningLoad {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pool = new Pool(options.origin, {
    connections: options.connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const outcomes: Outcome[] = [];
  const pending = new Map<number, Promise<void>>();
  let answeredCount = 0;
  let sent = 0;
  let inFlightWaiter: { count: number; resolve(): void } | null = null;
  const t0 = performance.now();

  const send = () => {
    const id = ++sent;
    const request = options.next(id);
    const startedAt = Date.now();
    const started = performance.now();
    const finish = (
      fields: Omit<Outcome, 'id' | 'kind' | 'startedAt' | 'endedAt' | 'latencyMs'>,
    ) => {
      outcomes.push({
        id,
        kind: request.kind,
        startedAt,
        endedAt: Date.now(),
        latencyMs: performance.now() - started,
        ...fields,
      });
      if (fields.ending === 'answered') answeredCount++;
    };
    const done = pool
      .request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(timeoutMs + 1_000),
      })
      .then(async (response) => {
        const requestId = response.headers['x-request-id'];
        let accepted: boolean | undefined;
        if (request.readAccepted) {
          const text = await response.body.text();
          accepted = parseAccepted(text);
        } else {
          await response.body.dump();
        }
        finish({
          ending: 'answered',
          status: response.statusCode,
          requestId: typeof requestId === 'string' ? requestId : undefined,
          accepted,
          usageMonthly: headerNumber(response.headers['x-usage-monthly']),
          usageTotal: headerNumber(response.headers['x-usage-total']),
        });
      })
      .catch((error: unknown) => finish(classify(error)))
      .finally(() => pending.delete(id));
    pending.set(id, done);
    if (inFlightWaiter && pending.size >= inFlightWaiter.count) inFlightWaiter.resolve();
  };

  const burst = options.burst ?? 1;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - t0) * options.ratePerSecond) / 1000 / burst);
    while (sent < due * burst) send();
  }, TICK_MS);

  return {
    outcomes,
    inFlight: () => [...pending.keys()],
    async answered(count, waitMs = 30_000) {
      const deadline = Date.now() + waitMs;
      while (answeredCount < count) {
        if (Date.now() > deadline)
          throw new Error(`only ${answeredCount} of ${count} requests answered in ${waitMs} ms`);
        await sleep(50);
      }
    },
    inFlightAtLeast(count, waitMs) {
      if (pending.size >= count) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          inFlightWaiter = null;
          resolve(false);
        }, waitMs);
        inFlightWaiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            inFlightWaiter = null;
            resolve(true);
          },
        };
      });
    },
    async stop() {
      clearInterval(timer);
      while (pending.size > 0) await Promise.all([...pending.values()]);
      await pool.close();
      return outcomes;
    },
  };
}

function parseAccepted(text: string): boolean | undefined {
  try {
    const body = JSON.parse(text) as { accepted?: unknown };
    return typeof body.accepted === 'boolean' ? body.accepted : undefined;
  } catch {
    return undefined;
  }
}

const REFUSED = new Set(['ECONNREFUSED']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  'TimeoutError',
  'UND_ERR_ABORTED', // the only abort is the request's own time-out
]);

/** The codes of an error and of its causes (undici wraps the socket's error). */
function codes(error: unknown): string[] {
  const found: string[] = [];
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, name, cause } = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === 'string') found.push(code);
    if (typeof name === 'string') found.push(name);
    e = cause;
  }
  return found;
}

function classify(error: unknown): Pick<Outcome, 'ending' | 'errorCode'> {
  const all = codes(error);
  const pick = (set: Set<string>) => all.find((code) => set.has(code));
  const refused = pick(REFUSED);
  if (refused) return { ending: 'refused', errorCode: refused };
  const reset = pick(RESET);
  if (reset) return { ending: 'reset', errorCode: reset };
  const timeout = pick(TIMEOUT);
  if (timeout) return { ending: 'timeout', errorCode: timeout };
  return { ending: 'error', errorCode: all[0] ?? String(error) };
}

function headerNumber(value: string | string[] | undefined): number | undefined {
  return typeof value === 'string' && value !== '' ? Number(value) : undefined;
}
