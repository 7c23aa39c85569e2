import type { RedisClient } from '../../../common/platform/redis';
import type { Logger } from '../../../common/platform/logger';
import {
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsEventStream,
  type CollectedEvent,
} from '../../../common/contracts/collected-event';
import { OutboxFullError, StreamOutbox } from '../../../common/platform/stream-outbox';
import { collectionUnavailable } from '../errors';
import { markLive, type LiveMark } from './event-stream';

/**
 * Held events take at most this much memory (characters of their JSON), whatever
 * COLLECT_BUFFER_EVENTS allows: a replay chunk can be 64 KiB, a page view is about 400 bytes.
 */
export const MAX_HELD_CHARS = 64 * 1024 * 1024;
/**
 * Events in the stream that the analytics consumer has not applied yet are kept for a Redis data
 * loss up to this many per instance (minutes of a lagging consumer at thousands of events a second).
 */
export const MAX_KEPT_EVENTS = 1_000_000;
export const MAX_KEPT_CHARS = 256 * 1024 * 1024;
/** One round trip appends at most this many events, or this many characters of them. */
const BATCH_EVENTS = 500;
const BATCH_CHARS = 1024 * 1024;
/** Stopping, how long held events may still take to reach Redis: the stop has 10 s in all. */
const CLOSE_DEADLINE_MS = 2_000;
/** What a refused event's answer asks the sender to wait. */
export const COLLECT_RETRY_AFTER_SECONDS = 30;

/**
 * The collector's writes to the analytics stream, through a StreamOutbox: events in the order they
 * were accepted, one round trip however many requests arrive meanwhile; a request's answer waits
 * for its event's append while Redis takes them, so the append stays the commit point. Each event
 * is kept until the analytics consumer has applied it, and appended again if Redis loses it first:
 * the consumer counts an event id once (docs/analytics.md, "Durability").
 *
 * While Redis cannot take them, accepted events are held in process, at most `limit` of them (and
 * MAX_HELD_CHARS), answered 202 at once, and appended when it is back; past the limit events are
 * refused with 503 and Retry-After.
 */
export class CollectedEventWriter {
  private readonly outbox: StreamOutbox<LiveMark>;

  constructor(redis: RedisClient, prefix: string, logger: Logger, limit: number) {
    this.outbox = new StreamOutbox<LiveMark>(redis, {
      stream: analyticsEventStream(prefix),
      maxLength: ANALYTICS_STREAM_MAX_LENGTH,
      what: 'collected events',
      unit: 'events',
      logger,
      hold: { entries: limit, chars: MAX_HELD_CHARS },
      keep: { entries: MAX_KEPT_EVENTS, chars: MAX_KEPT_CHARS },
      batch: { entries: BATCH_EVENTS, chars: BATCH_CHARS },
      // Presence is best effort: marked once the events are in the stream, not in the same step.
      onAppended: (marks) => markLive(redis, prefix, marks),
    });
  }

  /** Events in the stream not yet applied by the analytics consumer, kept here. */
  get unconfirmed(): number {
    return this.outbox.unconfirmed;
  }

  /**
   * Resolves once the event is in the stream, or held for it while Redis is away; rejects with a
   * 503 ApiError when it can be neither.
   */
  async append(event: CollectedEvent): Promise<void> {
    const { websiteId, visitorId, ts } = event;
    try {
      await this.outbox.append(['event', JSON.stringify(event)], { websiteId, visitorId, ts });
    } catch (error) {
      if (!(error instanceof OutboxFullError)) throw error;
      throw collectionUnavailable(
        `Redis cannot take events now and ${error.held} are waiting for it; retry in ${COLLECT_RETRY_AFTER_SECONDS} seconds`,
        COLLECT_RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * Stopping (after the server has stopped taking requests): appends what is held if Redis takes
   * it within CLOSE_DEADLINE_MS, and warns with the count of events that it could not append.
   */
  close(): Promise<void> {
    return this.outbox.close(CLOSE_DEADLINE_MS);
  }
}
