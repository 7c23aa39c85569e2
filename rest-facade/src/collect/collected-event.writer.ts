import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../../../common/platform/redis';
import type { Logger } from '../../../common/platform/logger';
import {
  analyticsEventStream,
  type CollectedEvent,
} from '../../../common/contracts/collected-event';
import { ApiError } from '../api-error';
import { queueAppend, type LiveMark } from './event-stream';
import { settleWithin } from '../../../common/platform/time-limits';

/** One transaction appends at most this many events, or this many characters of them. */
const BATCH_EVENTS = 500;
const BATCH_CHARS = 1024 * 1024;
/**
 * Held events take at most this much memory (characters of their JSON), whatever
 * COLLECT_BUFFER_EVENTS allows: a replay chunk can be 64 KiB, a page view is about 400 bytes.
 */
export const MAX_HELD_CHARS = 64 * 1024 * 1024;
/** While Redis refuses the writes, they are tried again after 0.25 s, 0.5 s, … up to 5 s. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;
/** Stopping, how long held events may still take to reach Redis: the stop has 10 s in all. */
const CLOSE_DEADLINE_MS = 2_000;
/** What a refused event's answer asks the sender to wait. */
export const COLLECT_RETRY_AFTER_SECONDS = 30;
/** The marker outlives any outage the held events could last (they are bounded). */
const MARKER_TTL_SECONDS = 7 * 86_400;

/** 503 with Retry-After: RedisClient cannot take events now and this facade cannot hold more. */
export const collectionUnavailable = (message: string) => {
  const error = new ApiError(503, 'service_unavailable', message, 'envelope', {
    'Retry-After': String(COLLECT_RETRY_AFTER_SECONDS),
  });
  // The writer warns once per outage; refused beacons are not logged one by one.
  error.outageLogged = true;
  return error;
};

interface Entry extends LiveMark {
  /** Order of acceptance in this process; the marker holds the last one appended. */
  seq: number;
  json: string;
  /** Answers the request that waits for this entry, once it is appended or held. */
  settle: (() => void) | null;
}

interface Outage {
  since: number;
  appended: number;
  refused: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The collector's writes to the analytics stream: events in the order they were accepted, in one
 * transaction per round trip however many requests arrive meanwhile. A request's answer waits
 * for its event's transaction while Redis takes them, so the append stays the commit point.
 *
 * While Redis cannot take them (down, unreachable, refusing writes), accepted events are held in
 * process, at most `limit` of them (and MAX_HELD_CHARS), answered 202 at once, and appended when it
 * is back; past the limit events are refused with 503 and Retry-After. One warning when holding
 * starts, one info line when everything held is appended.
 *
 * Each event is appended once: every transaction also sets this instance's marker key to the
 * sequence number of its last event, in the same MULTI. A transaction that failed without an
 * answer (the connection dropped while it was in flight) may have landed; the marker, read before
 * writing again, says whether it did. Only this writer sets its marker, one transaction at a time.
 */
export class CollectedEventWriter {
  private queue: Entry[] = [];
  private queuedChars = 0;
  private sequence = 0;
  private writing: Promise<void> | null = null;
  /** A transaction failed without an answer: read the marker before the next one. */
  private unsure = false;
  private outage: Outage | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly marker: string;
  private readonly onReady = () => this.write();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly limit: number,
  ) {
    // In the stream's hash tag, since the marker is set in the appending MULTI.
    this.marker = `${analyticsEventStream(prefix)}:appended:${randomUUID()}`;
    redis.on('ready', this.onReady);
  }

  /**
   * Resolves once the event is in the stream, or held for it while Redis is away; rejects with a
   * 503 ApiError when it can be neither.
   */
  async append(event: CollectedEvent): Promise<void> {
    const json = JSON.stringify(event);
    if (this.queue.length >= this.limit || this.queuedChars + json.length > MAX_HELD_CHARS) {
      if (this.outage) this.outage.refused += 1;
      throw collectionUnavailable(
        `Redis cannot take events now and ${this.queue.length} are waiting for it; retry in ${COLLECT_RETRY_AFTER_SECONDS} seconds`,
      );
    }
    const { websiteId, visitorId, ts } = event;
    const entry: Entry = { websiteId, visitorId, ts, seq: ++this.sequence, json, settle: null };
    this.queue.push(entry);
    this.queuedChars += json.length;
    // Held: the answer does not wait for the outage to end.
    if (this.outage) return;
    const done = new Promise<void>((resolve) => (entry.settle = resolve));
    this.write();
    await done;
  }

  /**
   * Stopping (after the server has stopped taking requests): appends what is held if Redis takes
   * it within CLOSE_DEADLINE_MS, and warns with the count of events that it could not append.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.redis.off('ready', this.onReady);
    this.cancelRetry();
    const deadline = Date.now() + CLOSE_DEADLINE_MS;
    while (this.queue.length > 0) {
      this.write();
      await settleWithin(this.writing ?? Promise.resolve(), deadline - Date.now());
      if (this.queue.length === 0 || Date.now() >= deadline) break;
      // Redis refused them again: a short pause before the next try.
      await sleep(Math.max(0, Math.min(RETRY_FIRST_MS, deadline - Date.now())));
    }
    if (this.queue.length === 0) return;
    this.logger.warn(
      {
        events: this.queue.length,
        heldMs: this.outage ? Date.now() - this.outage.since : 0,
        unconfirmed: this.unsure,
      },
      'collected events lost at stop: redis did not take them',
    );
    this.settle(this.queue);
  }

  /** Starts the write loop unless it runs (it takes what is queued meanwhile) or waits to retry. */
  private write(): void {
    if (this.writing || this.queue.length === 0) return;
    this.cancelRetry();
    this.writing = this.writeQueued().finally(() => {
      this.writing = null;
      // Queued after the loop's last look and before this: take it now, unless held for a retry.
      if (!this.outage && !this.closing) this.write();
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      try {
        // Known to be down: nothing is sent, so nothing can land twice.
        if (this.redis.status !== 'ready')
          throw new Error(`redis connection is ${this.redis.status}`);
        if (this.unsure) await this.dropLanded();
        if (this.queue.length > 0) await this.writeBatch();
      } catch (error) {
        this.hold(error);
        return;
      }
    }
    this.retryMs = RETRY_FIRST_MS;
    if (!this.outage) return;
    this.logger.info(
      {
        events: this.outage.appended,
        refused: this.outage.refused,
        heldMs: Date.now() - this.outage.since,
      },
      'held collected events appended: redis is back',
    );
    this.outage = null;
  }

  private async writeBatch(): Promise<void> {
    let end = 0;
    let chars = 0;
    while (end < this.queue.length && end < BATCH_EVENTS && (end === 0 || chars < BATCH_CHARS))
      chars += this.queue[end++]!.json.length;
    const batch = this.queue.slice(0, end);
    const tx = this.redis.multi();
    for (const entry of batch) queueAppend(tx, this.prefix, entry, entry.json);
    tx.set(this.marker, String(batch[batch.length - 1]!.seq), 'EX', MARKER_TTL_SECONDS);
    let results: Awaited<ReturnType<typeof tx.exec>>;
    try {
      results = await tx.exec();
    } catch (error) {
      this.unsure = true;
      throw error;
    }
    // Without WATCH, EXEC is never discarded; null would mean nothing ran.
    if (!results) throw new Error('redis transaction aborted');
    this.remove(batch.length);
    // A command refused inside EXEC does not undo the others (nor the marker): not retried.
    const failed = results.filter(([error]) => error);
    if (failed.length > 0)
      this.logger.error(
        { err: failed[0]![0], failed: failed.length, events: batch.length },
        'collected events appended with errors',
      );
  }

  /** After a transaction failed without an answer: drops what the marker says was appended. */
  private async dropLanded(): Promise<void> {
    const landed = Number((await this.redis.get(this.marker)) ?? 0);
    let count = 0;
    while (count < this.queue.length && this.queue[count]!.seq <= landed) count += 1;
    this.remove(count);
    this.unsure = false;
  }

  private remove(count: number): void {
    const removed = this.queue.splice(0, count);
    for (const entry of removed) this.queuedChars -= entry.json.length;
    if (this.outage) this.outage.appended += removed.length;
    this.settle(removed);
  }

  /** Holds everything queued (answering those who wait) and tries again later. */
  private hold(error: unknown): void {
    if (!this.outage) {
      this.outage = { since: Date.now(), appended: 0, refused: 0 };
      this.logger.warn(
        { reason: messageOf(error), held: this.queue.length, limit: this.limit },
        'redis cannot take collected events: holding them until it is back',
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

  private settle(entries: Entry[]): void {
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
