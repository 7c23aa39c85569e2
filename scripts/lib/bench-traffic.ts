/** Traffic for the analytics benchmarks: generated, enriched as the collector does, appended. */
import { randomBytes } from 'node:crypto';
import type { SingleBar } from 'cli-progress';
import type { RedisClient } from '../../common/platform/redis';
import {
  ANALYTICS_STREAM_MAX_LENGTH,
  analyticsEventStream,
  type CollectedEvent,
} from '../../common/contracts/collected-event';
import { collectPayloadSchema } from '../../rest-facade/src/collect/collect.schema';
import { demoTraffic, type DemoEvent } from './demo-traffic';
import { enrich, normalizeIp } from '../../rest-facade/src/collect/enrich';
import { DAY_MS, floorDay } from '../../subgraphs/analytics/src/ingest/time-buckets';

export type Site = { id: string; trackingCode: string; domain: string };

/** Enriches generated traffic as the collector would, with a random salt per UTC day. */
export function enriched(site: Site, traffic: Iterable<DemoEvent>): CollectedEvent[] {
  const salts = new Map<number, string>();
  const events: CollectedEvent[] = [];
  for (const e of traffic) {
    const day = floorDay(e.ts);
    if (!salts.has(day)) salts.set(day, randomBytes(16).toString('hex'));
    events.push(
      enrich(collectPayloadSchema.parse(e.payload), {
        websiteId: site.id,
        ip: normalizeIp(e.ip),
        userAgent: e.userAgent,
        countryHeader: undefined,
        salt: salts.get(day)!,
        now: e.ts,
      }),
    );
  }
  return events;
}

/** Appends to the analytics stream as the collector does, a thousand entries per round trip. */
export async function appendToStream(
  redis: RedisClient,
  prefix: string,
  events: CollectedEvent[],
  bar?: SingleBar,
): Promise<void> {
  const stream = analyticsEventStream(prefix);
  for (let i = 0; i < events.length; i += 1_000) {
    const pipeline = redis.pipeline();
    for (const event of events.slice(i, i + 1_000))
      pipeline.xadd(
        stream,
        'MAXLEN',
        '~',
        String(ANALYTICS_STREAM_MAX_LENGTH),
        '*',
        'event',
        JSON.stringify(event),
      );
    await pipeline.exec();
    bar?.increment(Math.min(1_000, events.length - i));
  }
}

/** `count` page views of today on one website (a later batch of live traffic). */
export function todaysPageviews(site: Site, count: number, seed: number): CollectedEvent[] {
  const now = Date.now();
  return enriched(
    site,
    demoTraffic({
      trackingCode: site.trackingCode,
      host: site.domain,
      days: 1,
      visitorsPerDay: count,
      now,
      seed,
      pages: 5_000,
    }),
  )
    .filter((e) => e.type === 'pageview')
    .slice(0, count)
    .map((e) => ({ ...e, ts: now - 60_000 }));
}

/** Today's traffic of several websites, scattered over a long tail of pages and many visitors. */
export function scatteredTraffic(sites: Site[], visitorsPerDay = 14_000): CollectedEvent[] {
  const endOfToday = floorDay(Date.now()) + DAY_MS - 1;
  return sites
    .flatMap((site, i) =>
      enriched(
        site,
        demoTraffic({
          trackingCode: site.trackingCode,
          host: site.domain,
          days: 1,
          visitorsPerDay,
          now: endOfToday,
          seed: 1_000 + i,
          pages: 5_000,
          replayShare: 0.05,
        }),
      ),
    )
    .sort((a, b) => a.ts - b.ts);
}

/** The median, to two decimals. */
export function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100;
}
