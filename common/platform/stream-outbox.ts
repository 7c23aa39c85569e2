import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger';
import type { RedisClient } from './redis';
import { settleWithin } from './time-limits';

/**
 * Appends the entries given, writes what is left past them (the count of field values, then the
 * field values of each), and says what the stream's consumer has taken. KEYS: the stream, this
 * outbox's marker. ARGV: MAXLEN, the marker's lifetime in seconds, the sequence number this outbox
 * knows landed, then per entry its sequence number, its count of field values and those values.
 *
 * The marker holds "<sequence> <stream id>" of the last entry this outbox appended. Older than
 * what the outbox knows landed (missing, after Redis lost its data): returns {'lost', <sequence
 * the marker holds>} and writes nothing. Else appends every entry past the marker's sequence (one
 * at or before it landed already, by a call whose answer was lost) and returns {'ok', <the
 * stream's first entry before these, '' when empty>, <the marker's id before>, <each entry's id,
 * '' for one that had landed>}.
 */
const APPEND = `
local marker = redis.call('GET', KEYS[2])
local landedSeq, landedId = 0, ''
if marker then
  local space = string.find(marker, ' ', 1, true)
  landedSeq = tonumber(string.sub(marker, 1, space - 1))
  landedId = string.sub(marker, space + 1)
end
if landedSeq < tonumber(ARGV[3]) then return {'lost', tostring(landedSeq)} end
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
local reply = {'ok', (first[1] and first[1][1]) or '', landedId}
local i, lastSeq, lastId = 4, landedSeq, landedId
while i <= #ARGV do
  local seq, count = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  if seq > landedSeq then
    local args = {KEYS[1], 'MAXLEN', '~', ARGV[1], '*'}
    for j = i + 2, i + 1 + count do args[#args + 1] = ARGV[j] end
    lastId = redis.call('XADD', unpack(args))
    lastSeq = seq
    reply[#reply + 1] = lastId
  else
    reply[#reply + 1] = ''
  end
  i = i + 2 + count
end
redis.call('SET', KEYS[2], string.format('%d', lastSeq) .. ' ' .. lastId, 'EX', ARGV[2])
return reply
`;

interface OutboxScripts {
  waOutboxAppend(...args: Array<string | number>): Promise<string[]>;
}

/** While Redis refuses the writes, they are tried again after 0.25 s, 0.5 s, … up to 5 s. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
/** A marker outlives any outage its held entries could last (they are bounded). */
const MARKER_TTL_SECONDS = 7 * 86_400;

export interface OutboxLimits {
  entries: number;
  /** Characters of the entries' field values. */
  chars: number;
}

export interface OutboxOptions<Meta> {
  /** The stream; read by one consumer group that deletes what it handled (deleteAcknowledged). */
  stream: string;
  /** MAXLEN (approximate) of the stream: it bounds a backlog, not history. */
  maxLength: number;
  /** What the entries are, for the log lines ("collected events", "call log batches"). */
  what: string;
  /** The name of the log lines' counts ("events", "batches"). */
  unit: string;
  logger: Logger;
  /** Entries not yet in Redis; past this, `append` refuses with OutboxFullError. */
  hold: OutboxLimits;
  /**
   * Entries in the stream that its consumer has not taken yet, kept to be appended again if Redis
   * loses them; past this the oldest are no longer kept (a warning says so once).
   */
  keep: OutboxLimits;
  /** One round trip appends at most this much. */
  batch: OutboxLimits;
  /** How often kept entries are checked for having been taken while nothing is appended. */
  confirmEveryMs?: number;
  /** Runs once entries are in the stream (the collector marks live visitors with it). */
  onAppended?(metas: Meta[]): void;
}

/** Refused: Redis cannot take entries now and this outbox holds as many as it may. */
export class OutboxFullError extends Error {
  override readonly name = 'OutboxFullError';
  constructor(readonly held: number) {
    super(`redis cannot take entries now and ${held} are waiting for it`);
  }
}

interface Entry<Meta> {
  /** Order of acceptance in this outbox; the marker holds the last one appended. */
  seq: number;
  fields: string[];
  chars: number;
  meta: Meta;
  /** Once appended: the entry's stream id, or one at or after it. */
  bound: string;
  /** Answers whoever waits for this entry, once it is appended or held. */
  settle: (() => void) | null;
}

interface Outage {
  since: number;
  appended: number;
  refused: number;
}

type AppendReply = ['lost', string] | ['ok', string, string, ...string[]];

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Orders stream ids (`<ms>-<seq>`) as Redis does. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs - bMs || aSeq - bSeq;
}

/**
 * The producer side of a Redis stream whose consumer group deletes what it has handled: entries go
 * in the order given, one script per round trip however many arrive meanwhile, and each is kept
 * here until its consumer has taken it (it is gone from the stream), so that whatever Redis loses
 * before that (restarted empty, flushed, failed over to a replica without it) is appended again.
 * The consumer must take an entry appended twice once (its handler is idempotent by a key the
 * entry carries: an event id, a batch id).
 *
 * While Redis cannot take entries (down, unreachable, refusing writes) they are held here, in
 * order, and appended once it is back; past `hold`, `append` refuses. One warning when holding
 * starts and one info line when everything held is in the stream, never one per entry.
 *
 * Each entry is appended once: the script appends only entries past the sequence number this
 * outbox's marker holds and moves the marker in the same step, so a call whose answer was lost
 * (the connection dropped while it was in flight) is not appended twice when it is sent again.
 * A marker older than what this outbox knows landed says that Redis lost its data: the entries
 * kept since then go back to the front of the queue.
 */
export class StreamOutbox<Meta = undefined> {
  private queue: Array<Entry<Meta>> = [];
  private queuedChars = 0;
  private kept: Array<Entry<Meta>> = [];
  private keptChars = 0;
  private sequence = 0;
  /** The highest sequence number known to be in the stream (its marker says at least this). */
  private landed = 0;
  private writing: Promise<void> | null = null;
  private outage: Outage | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly confirmTimer: NodeJS.Timeout;
  private confirmDue = false;
  /** Kept entries let go unconfirmed since the last warning (keep limit reached). */
  private letGo = 0;
  private closing = false;
  private readonly marker: string;
  private readonly onReady = () => this.write();

  constructor(
    private readonly redis: RedisClient,
    private readonly options: OutboxOptions<Meta>,
  ) {
    // In the stream's hash tag: the script sets it beside the append (one Cluster slot).
    this.marker = `${options.stream}:outbox:${randomUUID()}`;
    redis.defineCommand('waOutboxAppend', { numberOfKeys: 2, lua: APPEND });
    redis.on('ready', this.onReady);
    this.confirmTimer = setInterval(() => {
      if (this.kept.length === 0 || this.outage) return;
      this.confirmDue = true;
      this.write();
    }, options.confirmEveryMs ?? 1_000);
    this.confirmTimer.unref();
  }

  /** Entries not yet in the stream (held while Redis is away, or on their way). */
  get held(): number {
    return this.queue.length;
  }

  /** Entries in the stream that its consumer has not taken yet, kept here. */
  get unconfirmed(): number {
    return this.kept.length;
  }

  /**
   * Queues an entry (`fields`: XADD's field-value list). Resolves once it is in the stream, or
   * held for it while Redis is away (at once when `wait` is false); throws OutboxFullError when
   * it can be neither.
   */
  append(fields: string[], meta: Meta, { wait = true }: { wait?: boolean } = {}): Promise<void> {
    let chars = 0;
    for (const field of fields) chars += field.length;
    const { hold } = this.options;
    if (this.queue.length >= hold.entries || this.queuedChars + chars > hold.chars) {
      if (this.outage) this.outage.refused += 1;
      throw new OutboxFullError(this.queue.length);
    }
    const entry: Entry<Meta> = {
      seq: ++this.sequence,
      fields,
      chars,
      meta,
      bound: '',
      settle: null,
    };
    this.queue.push(entry);
    this.queuedChars += chars;
    // Held: the answer does not wait for the outage to end, which the retries see to.
    if (this.outage) return Promise.resolve();
    if (!wait) {
      this.write();
      return Promise.resolve();
    }
    const done = new Promise<void>((resolve) => (entry.settle = resolve));
    this.write();
    return done;
  }

  /**
   * Resolves once what is queued now is in the stream, after a check that appends again what
   * Redis lost (at once while Redis is away: then it is held).
   */
  async sync(): Promise<void> {
    if (this.outage) return;
    this.confirmDue = true;
    this.write();
    await this.writing;
  }

  /**
   * Stopping (nothing is appended any more): appends what is held if Redis takes it within
   * `deadlineMs`, and warns with the count it could not append. Entries in the stream are left
   * to it.
   */
  async close(deadlineMs: number): Promise<void> {
    this.closing = true;
    clearInterval(this.confirmTimer);
    this.redis.off('ready', this.onReady);
    this.cancelRetry();
    const deadline = Date.now() + deadlineMs;
    while (this.queue.length > 0) {
      this.write();
      await settleWithin(this.writing ?? Promise.resolve(), deadline - Date.now());
      if (this.queue.length === 0 || Date.now() >= deadline) break;
      // Redis refused them again: a short pause before the next try.
      await sleep(Math.max(0, Math.min(RETRY_FIRST_MS, deadline - Date.now())));
    }
    if (this.queue.length === 0) return;
    this.options.logger.warn(
      {
        [this.options.unit]: this.queue.length,
        heldMs: this.outage ? Date.now() - this.outage.since : 0,
      },
      `${this.options.what} lost at stop: redis did not take them`,
    );
    this.settle(this.queue);
  }

  /** Starts the write loop unless it runs (it takes what is queued meanwhile) or waits to retry. */
  private write(): void {
    if (this.writing || (this.queue.length === 0 && !this.confirmDue)) return;
    this.cancelRetry();
    this.writing = this.writeQueued().finally(() => {
      this.writing = null;
      // Queued after the loop's last look and before this: take it now, unless held for a retry.
      if (!this.outage && !this.closing && this.queue.length > 0) this.write();
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0 || this.confirmDue) {
      this.confirmDue = false;
      try {
        // Known to be down: nothing is sent, so nothing can land twice.
        if (this.redis.status !== 'ready')
          throw new Error(`redis connection is ${this.redis.status}`);
        await this.appendBatch();
      } catch (error) {
        this.hold(error);
        return;
      }
    }
    this.retryMs = RETRY_FIRST_MS;
    if (!this.outage) return;
    this.options.logger.info(
      {
        [this.options.unit]: this.outage.appended,
        refused: this.outage.refused,
        heldMs: Date.now() - this.outage.since,
      },
      `held ${this.options.what} appended: redis is back`,
    );
    this.outage = null;
  }

  private async appendBatch(): Promise<void> {
    const { batch, maxLength } = this.options;
    let end = 0;
    let chars = 0;
    while (
      end < this.queue.length &&
      end < batch.entries &&
      (end === 0 || chars + this.queue[end]!.chars <= batch.chars)
    )
      chars += this.queue[end++]!.chars;
    const entries = this.queue.slice(0, end);
    const args: Array<string | number> = [maxLength, MARKER_TTL_SECONDS, this.landed];
    for (const entry of entries) args.push(entry.seq, entry.fields.length, ...entry.fields);
    const reply = (await (this.redis as unknown as OutboxScripts).waOutboxAppend(
      this.options.stream,
      this.marker,
      ...args,
    )) as AppendReply;
    if (reply[0] === 'lost') return this.appendAgainWhatWasLost(Number(reply[1]));
    const [, firstInStream, landedBefore, ...ids] = reply;
    this.forgetTaken(firstInStream);
    entries.forEach((entry, i) => (entry.bound = ids[i] || landedBefore));
    if (entries.length > 0) this.landed = entries.at(-1)!.seq;
    this.queue.splice(0, entries.length);
    this.queuedChars -= chars;
    if (this.outage) this.outage.appended += entries.length;
    this.keep(entries);
    this.settle(entries);
    if (entries.length > 0) this.options.onAppended?.(entries.map((entry) => entry.meta));
  }

  /** Kept entries appended before the stream's first entry are gone from it: taken. */
  private forgetTaken(firstInStream: string): void {
    let taken = 0;
    while (
      taken < this.kept.length &&
      (firstInStream === '' || compareStreamIds(this.kept[taken]!.bound, firstInStream) < 0)
    )
      this.keptChars -= this.kept[taken++]!.chars;
    this.kept.splice(0, taken);
  }

  private keep(entries: Array<Entry<Meta>>): void {
    const { keep, logger, what } = this.options;
    for (const entry of entries) {
      this.kept.push(entry);
      this.keptChars += entry.chars;
    }
    let dropped = 0;
    while (this.kept.length > keep.entries || this.keptChars > keep.chars) {
      this.keptChars -= this.kept.shift()!.chars;
      dropped += 1;
    }
    if (dropped === 0) return;
    if (this.letGo === 0)
      logger.warn(
        { stream: this.options.stream, kept: this.kept.length },
        `${what} are not taken from the stream as fast as they come: the oldest are no longer kept for a redis data loss`,
      );
    this.letGo += dropped;
    if (this.kept.length < keep.entries / 2) this.letGo = 0;
  }

  /**
   * Redis lost what this outbox appended past `landedSeq` (its marker says no more than that):
   * the kept entries past it go back to the front of the queue, in order, and are appended again.
   */
  private appendAgainWhatWasLost(landedSeq: number): void {
    const lost = this.kept.filter((entry) => entry.seq > landedSeq);
    this.kept = this.kept.filter((entry) => entry.seq <= landedSeq);
    this.keptChars = this.kept.reduce((sum, entry) => sum + entry.chars, 0);
    for (const entry of lost) {
      this.queuedChars += entry.chars;
      entry.bound = '';
    }
    this.queue.unshift(...lost);
    this.landed = landedSeq;
    this.options.logger.warn(
      { stream: this.options.stream, [this.options.unit]: lost.length },
      `redis lost ${this.options.what} its consumer had not taken yet: appending them again`,
    );
  }

  /** Holds everything queued (answering those who wait) and tries again later. */
  private hold(error: unknown): void {
    if (!this.outage) {
      this.outage = { since: Date.now(), appended: 0, refused: 0 };
      this.options.logger.warn(
        { reason: messageOf(error), held: this.queue.length, limit: this.options.hold.entries },
        `redis cannot take ${this.options.what}: holding them until it is back`,
      );
    }
    this.settle(this.queue);
    if (this.closing) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.write();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private settle(entries: Array<Entry<Meta>>): void {
    for (const entry of entries) {
      entry.settle?.();
      entry.settle = null;
    }
  }

  private cancelRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
