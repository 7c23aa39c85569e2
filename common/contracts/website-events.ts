import type { RedisClient } from '../platform/redis';
import { appendOnce } from '../platform/stream-append';
import type { EventType } from './platform-events';

/**
 * Something that happened to a website's analytics (a traffic spike, a day to report), found by
 * the analytics subgraph, which knows the figures but not who may read them. The keys subgraph,
 * which knows the website's organization and its members, turns each into one platform event per
 * member (subgraphs/keys/src/services/website-event-relay.ts); the webhooks subgraph delivers
 * those by each webhook's subscription and alert settings.
 */
export interface WebsiteEvent {
  /** Stable: the same finding gets the same id on every instance and every try. */
  id: string;
  type: Extract<EventType, 'traffic.spike' | 'traffic.drop' | 'report.daily' | 'goal.reached'>;
  websiteId: string;
  createdAt: string;
  /** The platform event's data, without the website's name and domain (the relay adds them). */
  data: Record<string, unknown>;
}

/**
 * Traffic changes are published from these ratios on (visitors / baseline): spikes at or above
 * SPIKE_FLOOR, drops at or below DROP_CEILING. Each webhook picks its own thresholds within them.
 */
export const SPIKE_FLOOR = 1.5;
export const DROP_CEILING = 0.67;

/**
 * The other bounds of a webhook's alert settings: websites named, the highest spike ratio, the
 * largest goal step and the last UTC hour of the daily report (the first is 0). The webhooks
 * subgraph checks them and the facade's request schema declares them; the subgraph's
 * schema.graphql and the dashboard's alert form, which cannot import this, repeat the figures.
 */
export const MAX_ALERT_WEBSITES = 100;
export const MAX_SPIKE_RATIO = 100;
export const MAX_GOAL_EVERY = 1_000_000;
export const LAST_REPORT_HOUR = 23;

export const websiteEventStream = (prefix: string) => `${prefix}{events:website}`;

const STREAM_MAX_LENGTH = 100_000;
/** A finding is published once for this long: two instances finding it publish it once. */
const ONCE_MEMORY_MS = 3 * 86_400_000;

/** Appends the event unless its id was published before (atomically): true when appended. */
export async function publishWebsiteEvent(
  redis: RedisClient,
  prefix: string,
  event: WebsiteEvent,
): Promise<boolean> {
  return appendOnce(redis, {
    stream: websiteEventStream(prefix),
    maxLength: STREAM_MAX_LENGTH,
    id: event.id,
    rememberMs: ONCE_MEMORY_MS,
    field: 'event',
    value: JSON.stringify(event),
  });
}
