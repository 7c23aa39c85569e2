import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../../../common/platform/redis';
import {
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsEventStream,
  type CollectedEvent,
} from '../../../common/contracts/collected-event';

export const LIVE_WINDOW_MS = 5 * 60_000;
/** In the stream's hash tag: the MULTI that appends an event marks its visitor too (one slot). */
export const liveKey = (prefix: string, websiteId: string) =>
  `${analyticsEventStream(prefix)}:live:${websiteId}`;

/** What the live-visitor set needs of an event. */
export type LiveMark = Pick<CollectedEvent, 'websiteId' | 'visitorId' | 'ts'>;

/**
 * Queues the write of one collected event on a transaction: the stream entry for the analytics
 * consumer (`json`, the event serialized) and the visitor's mark in the website's live set.
 */
export function queueAppend(
  tx: ChainableCommander,
  prefix: string,
  event: LiveMark,
  json: string,
): void {
  const live = liveKey(prefix, event.websiteId);
  tx.xadd(
    analyticsEventStream(prefix),
    'MAXLEN',
    '~',
    String(ANALYTICS_STREAM_MAX_LENGTH),
    '*',
    'event',
    json,
  )
    .zadd(live, event.ts, event.visitorId)
    .pexpire(live, LIVE_WINDOW_MS * 2);
}

/**
 * Marks the visitors of events now in the stream in their websites' live sets, in one round trip;
 * best effort (a failure costs a moment of the live count, never an event).
 */
export function markLive(redis: RedisClient, prefix: string, marks: readonly LiveMark[]): void {
  const pipeline = redis.pipeline();
  for (const mark of marks) {
    const live = liveKey(prefix, mark.websiteId);
    pipeline.zadd(live, mark.ts, mark.visitorId).pexpire(live, LIVE_WINDOW_MS * 2);
  }
  pipeline.exec().catch(() => undefined);
}
