import { appendEvent } from '../../rest-facade/src/collect/collector.service';
import type { CollectedEvent } from '../../common/contracts/collected-event';
import { openTestRedis } from './redis';
import type { Stack } from './stack';
import { waitUntilIdle } from './ingest-idle';

/** A page view of `path` on a website, as the collector would have enriched it. */
export function buildPageview(
  websiteId: string,
  overrides: Partial<CollectedEvent> = {},
): CollectedEvent {
  return {
    websiteId,
    type: 'pageview',
    ts: Date.now(),
    path: '/',
    visitorId: `visitor-${Math.random().toString(36).slice(2, 10)}`,
    country: 'US',
    device: 'desktop',
    browser: 'Chrome',
    os: 'Windows',
    screenWidth: 1920,
    screenHeight: 1080,
    referrer: null,
    source: 'direct',
    ...overrides,
  } as CollectedEvent;
}

/**
 * Appends events to the stack's analytics stream, the way the collector does, and waits until the
 * analytics subgraph has applied them.
 */
export async function ingestEvents(stack: Stack, events: CollectedEvent[]): Promise<void> {
  const redis = await openTestRedis(stack.env.REDIS_URL!);
  try {
    for (const event of events) await appendEvent(redis, stack.env.REDIS_KEY_PREFIX!, event);
  } finally {
    redis.disconnect();
  }
  await waitUntilIdle(stack.analytics.services.ingest);
}
