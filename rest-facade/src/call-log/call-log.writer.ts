import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../../common/platform/redis';
import {
  callLogEntryFields,
  callLogStream,
  type CallRecord,
} from '../../../common/contracts/call-log';
import { OutboxFullError, StreamOutbox } from '../../../common/platform/stream-outbox';
import { settleWithin } from '../../../common/platform/time-limits';
import type { Logger } from '../../../common/platform/logger';

const FLUSH_EVERY_MS = 1_000;
/**
 * At close, how long records still waiting for their call to settle are waited for. Short: the
 * server's own drain (GRACE_MS) came first, so what still runs is likely hung, and the whole stop
 * must end within the shutdown deadline.
 */
const PENDING_GRACE_MS = 1_000;
/** At close, how long batches still held (Redis away) may take to reach it. */
const CLOSE_DEADLINE_MS = 2_000;
/**
 * A batch costs the keys subgraph and the database about the same whether it holds ten calls or
 * thousands (a bucket insert and a ledger update per key), so under load batches are large: at
 * 5,000 calls a second, one a second.
 */
const FLUSH_AT = 5_000;
/** While Redis is away, batches of at most this many characters in all are held; later ones are dropped. */
const MAX_HELD_CHARS = 64 * 1024 * 1024;
/** Batches in the stream not yet stored by the keys subgraph are kept for a Redis loss up to this. */
const MAX_KEPT_CHARS = 128 * 1024 * 1024;
/**
 * Entries are batches of up to FLUSH_AT calls, deleted by the keys subgraph once stored: the cap
 * only bounds the backlog of a long consumer outage.
 */
const STREAM_MAX_ENTRIES = 100_000;

/** A batch's id: the keys subgraph stores a batch id once, however many entries carry it. */
const newBatchId = () => randomBytes(12).toString('base64url');

/**
 * Buffers call records off the request path and appends them to a Redis stream in batches, through
 * a StreamOutbox: held while Redis is away, and kept until the keys subgraph has stored them, so
 * that a batch Redis lost before that is appended again under its id (stored once). `close()`
 * flushes what is buffered, so a graceful stop loses nothing.
 */
export class CallLogWriter {
  private buffer: CallRecord[] = [];
  /** Records waiting for their call to settle (see recordAfter), by that wait. */
  private readonly pending = new Map<Promise<void>, () => CallRecord>();
  /** Calls counted in the limits whose record is not taken yet, until it is (see `admitted`). */
  private readonly admittedCalls = new Set<Promise<void>>();
  private readonly timer: NodeJS.Timeout;
  private readonly outbox: StreamOutbox;

  constructor(
    redis: RedisClient,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.outbox = new StreamOutbox(redis, {
      stream: callLogStream(prefix),
      maxLength: STREAM_MAX_ENTRIES,
      what: 'call log batches',
      unit: 'batches',
      logger,
      hold: { entries: STREAM_MAX_ENTRIES, chars: MAX_HELD_CHARS },
      keep: { entries: STREAM_MAX_ENTRIES, chars: MAX_KEPT_CHARS },
      // One batch per round trip: a batch is up to 5,000 calls already.
      batch: { entries: 1, chars: MAX_HELD_CHARS },
    });
    this.timer = setInterval(() => void this.appendBuffered(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Notes a call counted in the limits until its record is taken (the returned function says it
   * is), so that a restore of the usage counters can wait for its record (flushAdmitted).
   */
  admitted(): () => void {
    let recorded!: () => void;
    const done = new Promise<void>((resolve) => (recorded = resolve));
    this.admittedCalls.add(done);
    void done.then(() => this.admittedCalls.delete(done));
    return recorded;
  }

  /**
   * Appends the records of the calls counted so far: those still being answered are waited for,
   * at most `waitMs`, then everything is flushed.
   */
  async flushAdmitted(waitMs: number): Promise<void> {
    await settleWithin(Promise.all([...this.admittedCalls]), waitMs);
    await this.flush();
  }

  /**
   * Buffers a call's record. A call without an identified key is not logged: the log is read per
   * key, so its record could never be read, and anyone could fill the database with them.
   */
  record(call: CallRecord): void {
    if (call.keyId === null) return;
    this.buffer.push(call);
    if (this.buffer.length >= FLUSH_AT) void this.appendBuffered();
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

  /**
   * Appends everything buffered so far, and again what Redis lost before the keys subgraph stored
   * it; resolves when it is in the stream, or held for it.
   */
  async flush(): Promise<void> {
    await this.appendBuffered();
    await this.outbox.sync();
  }

  private async appendBuffered(): Promise<void> {
    const appends: Array<Promise<void>> = [];
    while (this.buffer.length > 0) {
      const calls = this.buffer.splice(0, FLUSH_AT);
      try {
        appends.push(this.outbox.append(callLogEntryFields(newBatchId(), calls), undefined));
      } catch (error) {
        if (!(error instanceof OutboxFullError)) throw error;
        this.logger.error(
          { dropped: calls.length, heldBatches: error.held },
          'call log records dropped: redis has been unavailable for longer than the facade can hold them',
        );
      }
    }
    await Promise.all(appends);
  }

  async close(): Promise<void> {
    // What is buffered goes out first, whatever happens to the calls still running.
    await settleWithin(this.flush(), CLOSE_DEADLINE_MS);
    await settleWithin(Promise.all(this.pending.keys()), PENDING_GRACE_MS);
    // Calls still unsettled are recorded with what is known of them now.
    for (const [done, build] of this.pending) {
      this.pending.delete(done);
      this.record(build());
    }
    clearInterval(this.timer);
    await settleWithin(this.flush(), CLOSE_DEADLINE_MS);
    await this.outbox.close(CLOSE_DEADLINE_MS);
  }
}
