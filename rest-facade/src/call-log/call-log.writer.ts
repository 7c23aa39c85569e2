import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../../common/platform/redis';
import {
  callLogEntryFields,
  callLogStream,
  type CallRecord,
} from '../../../common/contracts/call-log';
import { settleWithin } from '../../../common/platform/time-limits';
import type { Logger } from '../../../common/platform/logger';

const FLUSH_EVERY_MS = 1_000;
/**
 * At close, how long records still waiting for their call to settle are waited for. Short: the
 * server's own drain (GRACE_MS) came first, so what still runs is likely hung, and the whole stop
 * must end within the shutdown deadline.
 */
const PENDING_GRACE_MS = 1_000;
/**
 * A batch costs the keys subgraph and the database about the same whether it holds ten calls or
 * thousands (a bucket insert and a last-used update per key), so under load batches are large:
 * at 5,000 calls a second, one a second.
 */
const FLUSH_AT = 5_000;
/** While Redis is away the buffer holds this many calls, then drops the oldest (and says so). */
const MAX_BUFFERED = 100_000;
/**
 * Entries are batches of up to FLUSH_AT calls, deleted by the keys subgraph once stored: the cap
 * only bounds the backlog of a long consumer outage.
 */
const STREAM_MAX_ENTRIES = 100_000;

/**
 * Buffers call records off the request path and appends them to a Redis stream in batches; the
 * keys subgraph stores them. `close()` flushes what is buffered, so a graceful stop loses nothing.
 */
export class CallLogWriter {
  private buffer: CallRecord[] = [];
  /** Records waiting for their call to settle (see recordAfter), by that wait. */
  private readonly pending = new Map<Promise<void>, () => CallRecord>();
  private flushing: Promise<boolean> | null = null;
  /**
   * The batch whose append failed, sent again as it was, under the same id: an append that timed
   * out may still have landed (a Redis that hung runs it when it resumes), and the keys subgraph
   * stores a batch id once, however many entries carry it.
   */
  private unsent: { id: string; calls: CallRecord[] } | null = null;
  /** Since the last flush failed: the warning is logged once per outage, not every second. */
  private failing = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stream: string;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.stream = callLogStream(prefix);
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  record(call: CallRecord): void {
    this.buffer.push(call);
    if (this.buffer.length > MAX_BUFFERED) {
      const dropped = this.buffer.length - MAX_BUFFERED;
      this.buffer.splice(0, dropped);
      this.logger.error(
        { dropped },
        'call log buffer full while redis is unavailable; oldest records dropped',
      );
    }
    if (this.buffer.length >= FLUSH_AT) void this.flush();
  }

  /**
   * Records the call once `settled` resolves (its handler is done, so the record carries what the
   * handler learnt, such as the key); `close()` waits for these too, briefly, so none is lost.
   */
  recordAfter(settled: Promise<void>, build: () => CallRecord): void {
    const done: Promise<void> = settled.then(() => {
      if (this.pending.delete(done)) this.record(build());
    });
    this.pending.set(done, build);
  }

  /** Writes everything buffered so far; resolves when it is in the stream (or failed, kept for retry). */
  async flush(): Promise<void> {
    while (this.flushing || this.unsent || this.buffer.length > 0) {
      if (!this.flushing) this.flushing = this.writeBuffered();
      const written = await this.flushing;
      if (!written) return;
    }
  }

  /** One batch; false when it failed (the records are back in the buffer for the next try). */
  private writeBuffered(): Promise<boolean> {
    const batch = this.unsent ?? { id: randomUUID(), calls: this.buffer.splice(0, FLUSH_AT) };
    return this.write(batch)
      .then((written) => {
        if (written) {
          this.unsent = null;
          if (this.failing) this.logger.info({ stream: this.stream }, 'call log flushed again');
          this.failing = false;
          return true;
        }
        this.unsent = batch;
        if (!this.failing)
          this.logger.warn(
            { pending: this.buffer.length + batch.calls.length },
            'call log not flushed; keeping records for a retry',
          );
        this.failing = true;
        return false;
      })
      .finally(() => {
        this.flushing = null;
      });
  }

  /**
   * One stream entry per batch (its calls packed per key, as the keys subgraph stores them): one
   * Redis write, however many calls. False when it failed.
   */
  private async write(batch: { id: string; calls: CallRecord[] }): Promise<boolean> {
    try {
      await this.redis.xadd(
        this.stream,
        'MAXLEN',
        '~',
        String(STREAM_MAX_ENTRIES),
        '*',
        ...callLogEntryFields(batch.id, batch.calls),
      );
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    // What is buffered goes out first, whatever happens to the calls still running.
    await this.flush();
    await settleWithin(Promise.all(this.pending.keys()), PENDING_GRACE_MS);
    // Calls still unsettled are recorded with what is known of them now.
    for (const [done, build] of this.pending) {
      this.pending.delete(done);
      this.record(build());
    }
    clearInterval(this.timer);
    await this.flush();
  }
}
