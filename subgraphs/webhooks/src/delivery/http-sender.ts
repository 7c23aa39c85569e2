import { Counter } from 'prom-client';
import { Agent, request } from 'undici';
import type { ServiceMetrics } from '../../../../common/platform/metrics';
import {
  checkUrlShape,
  DestinationRefusedError,
  guardedLookup,
  type DestinationPolicy,
} from '../domain/destination-policy';
import { HEADER_ATTEMPT, type SignedRequest } from '../domain/event-payload';

export interface AttemptOutcome {
  /** The receiver's HTTP status; null when no answer came (refused, time-out, network error). */
  statusCode: number | null;
  responseBody: string;
  responseBodyTruncated: boolean;
  durationMs: number;
  /** Why there was no usable answer, in a few words; null when the receiver answered. */
  error: string | null;
  /** The raw Retry-After header of a 429 or 503 answer. */
  retryAfter: string | undefined;
}

export interface SenderOptions extends DestinationPolicy {
  timeoutMs: number;
  responseBodyLimit: number;
}

/**
 * POSTs one signed delivery. Redirects are not followed (undici's `request` never does), the
 * destination is checked again at connect time, and the whole attempt is bounded by the time-out.
 */
export class HttpSender {
  private readonly agent: Agent;
  private readonly deliveries: Counter<'outcome' | 'attempt'> | null;

  constructor(
    private readonly options: SenderOptions,
    /** Registers `webhook_deliveries_total{outcome,attempt}`, counted on every send. */
    metrics?: ServiceMetrics,
  ) {
    this.deliveries = metrics
      ? new Counter({
          name: 'webhook_deliveries_total',
          help: 'Deliveries POSTed to receivers (test events included) by attempt number and outcome: success (2xx), http_error (another status), timeout, blocked (destination refused), network_error',
          labelNames: ['outcome', 'attempt'] as const,
          registers: [metrics.registry],
        })
      : null;
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs, lookup: guardedLookup(options) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      connections: 8,
    });
  }

  async send(url: string, signed: SignedRequest): Promise<AttemptOutcome> {
    const outcome = await this.post(url, signed);
    this.deliveries?.inc({
      outcome: outcomeLabel(outcome),
      attempt: signed.headers[HEADER_ATTEMPT] ?? 'unknown',
    });
    return outcome;
  }

  private async post(url: string, signed: SignedRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (error: string): AttemptOutcome => ({
      statusCode: null,
      responseBody: '',
      responseBodyTruncated: false,
      durationMs: elapsed(),
      error,
      retryAfter: undefined,
    });
    try {
      checkUrlShape(url, this.options);
    } catch (error) {
      return failed(
        error instanceof DestinationRefusedError
          ? `destination refused: ${error.reason}`
          : 'invalid url',
      );
    }
    try {
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: signed.headers,
        body: signed.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const { text, truncated } = await readLimited(response.body, this.options.responseBodyLimit);
      const retryAfter = response.headers['retry-after'];
      return {
        statusCode: response.statusCode,
        responseBody: text,
        responseBodyTruncated: truncated,
        durationMs: elapsed(),
        error: null,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      };
    } catch (error) {
      return failed(describeFailure(error));
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      truncated = true;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

/** The `outcome` label of an attempt, from what `post` made of it. */
function outcomeLabel(outcome: AttemptOutcome): string {
  const { statusCode, error } = outcome;
  if (statusCode !== null) return statusCode >= 200 && statusCode < 300 ? 'success' : 'http_error';
  if (error === 'timeout') return 'timeout';
  if (error === 'invalid url' || error?.startsWith('destination refused')) return 'blocked';
  return 'network_error';
}

function describeFailure(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string }; message?: string };
  if (
    e.code === 'EWEBHOOKFORBIDDEN' ||
    e.cause?.code === 'EWEBHOOKFORBIDDEN' ||
    error instanceof DestinationRefusedError
  )
    return 'destination refused: forbidden_address';
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /Timeout/.test(e.code ?? ''))
    return 'timeout';
  return e.code ?? e.cause?.code ?? e.message ?? 'request failed';
}
