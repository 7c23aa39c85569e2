import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../platform/redis';
import { appendOnce } from '../platform/stream-append';

/** The catalogue of platform events delivered to webhooks (payload schemas in docs/webhooks.md). */
export const EVENT_TYPES = [
  'api_key.created',
  'api_key.regenerated',
  'api_key.deleted',
  'api_key.expiring',
  'api_key.expired',
  'usage.threshold_reached',
  'traffic.spike',
  'traffic.drop',
  'report.daily',
  'goal.reached',
  'webhook.disabled',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface PlatformEvent {
  /** Unique and stable: the same id on every delivery attempt, so receivers can deduplicate. */
  id: string;
  type: EventType;
  createdAt: string;
  /** The user whose webhooks receive the event. */
  userId: string;
  organizationId: string | null;
  data: Record<string, unknown>;
}

export const platformEventStream = (prefix: string) => `${prefix}{events:platform}`;

/**
 * Cap on the stream's backlog: the webhooks consumer deletes entries once applied, so the cap
 * only bounds a long consumer outage (past it the oldest unconsumed events would be dropped).
 */
const STREAM_MAX_LENGTH = 1_000_000;

export function buildEvent(
  type: EventType,
  userId: string,
  organizationId: string | null,
  data: Record<string, unknown>,
  id: string = `evt_${randomUUID()}`,
): PlatformEvent {
  return { id, type, createdAt: new Date().toISOString(), userId, organizationId, data };
}

/** How long an event published `once` is remembered, so a second publication is dropped. */
const ONCE_MEMORY_MS = 400 * 86_400_000;

/**
 * Appends an event to the durable platform-event stream (a Redis stream read by the webhooks
 * subgraph through a consumer group). Never a synchronous call to another service. With `once`,
 * an event whose id was already published that way is dropped, atomically in Redis: for events
 * with a stable id that more than one instance may try to publish (expiry warnings). Resolves
 * with whether the event was appended.
 */
export async function publishPlatformEvent(
  redis: RedisClient,
  prefix: string,
  event: PlatformEvent,
  options: { once?: boolean } = {},
): Promise<boolean> {
  if (options.once)
    return appendOnce(redis, {
      stream: platformEventStream(prefix),
      maxLength: STREAM_MAX_LENGTH,
      id: event.id,
      rememberMs: ONCE_MEMORY_MS,
      field: 'event',
      value: JSON.stringify(event),
    });
  await redis.xadd(
    platformEventStream(prefix),
    'MAXLEN',
    '~',
    String(STREAM_MAX_LENGTH),
    '*',
    'event',
    JSON.stringify(event),
  );
  return true;
}
