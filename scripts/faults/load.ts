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
  return new Load(options);
}

type Ended = Omit<Outcome, 'id' | 'kind' | 'startedAt' | 'endedAt' | 'latencyMs'>;

/** Requests sent at a steady rate over a pool of connections, each one's outcome recorded. */
class Load implements RunningLoad {
  readonly outcomes: Outcome[] = [];
  private readonly pending = new Map<number, Promise<void>>();
  private readonly timeoutMs: number;
  private readonly pool: Pool;
  private readonly timer: NodeJS.Timeout;
  private answeredCount = 0;
  private sent = 0;
  private inFlightWaiter: { count: number; resolve(): void } | null = null;

  constructor(private readonly options: LoadOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.pool = new Pool(options.origin, {
      connections: options.connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const t0 = performance.now();
    const burst = options.burst ?? 1;
    this.timer = setInterval(() => {
      const due = Math.floor(((performance.now() - t0) * options.ratePerSecond) / 1000 / burst);
      while (this.sent < due * burst) this.send();
    }, TICK_MS);
  }

  inFlight(): number[] {
    return [...this.pending.keys()];
  }

  async answered(count: number, waitMs = 30_000): Promise<void> {
    const deadline = Date.now() + waitMs;
    while (this.answeredCount < count) {
      if (Date.now() > deadline)
        throw new Error(`only ${this.answeredCount} of ${count} requests answered in ${waitMs} ms`);
      await sleep(50);
    }
  }

  inFlightAtLeast(count: number, waitMs: number): Promise<boolean> {
    if (this.pending.size >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.inFlightWaiter = null;
        resolve(false);
      }, waitMs);
      this.inFlightWaiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          this.inFlightWaiter = null;
          resolve(true);
        },
      };
    });
  }

  async stop(): Promise<Outcome[]> {
    clearInterval(this.timer);
    while (this.pending.size > 0) await Promise.all([...this.pending.values()]);
    await this.pool.close();
    return this.outcomes;
  }

  private send(): void {
    const id = ++this.sent;
    const request = this.options.next(id);
    const startedAt = Date.now();
    const started = performance.now();
    const finish = (ending: Ended) => {
      this.outcomes.push({
        id,
        kind: request.kind,
        startedAt,
        endedAt: Date.now(),
        latencyMs: performance.now() - started,
        ...ending,
      });
      if (ending.ending === 'answered') this.answeredCount++;
    };
    const done = this.request(request)
      .then(finish, (error: unknown) => finish(classify(error)))
      .finally(() => this.pending.delete(id));
    this.pending.set(id, done);
    if (this.inFlightWaiter && this.pending.size >= this.inFlightWaiter.count)
      this.inFlightWaiter.resolve();
  }

  private async request(request: ReturnType<LoadOptions['next']>): Promise<Ended> {
    const response = await this.pool.request({
      method: request.method,
      path: request.path,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(this.timeoutMs + 1_000),
    });
    const requestId = response.headers['x-request-id'];
    let accepted: boolean | undefined;
    if (request.readAccepted) accepted = parseAccepted(await response.body.text());
    else await response.body.dump();
    return {
      ending: 'answered',
      status: response.statusCode,
      requestId: typeof requestId === 'string' ? requestId : undefined,
      accepted,
      usageMonthly: headerNumber(response.headers['x-usage-monthly']),
      usageTotal: headerNumber(response.headers['x-usage-total']),
    };
  }
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
