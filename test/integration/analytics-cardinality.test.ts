import type { RedisClient } from '../../common/platform/redis';
import { deleteKeysMatching, openTestRedis } from '../support/redis';
import { OTHER_VALUE } from '../../subgraphs/analytics/src/ingest/aggregate';
import { floorDay } from '../../subgraphs/analytics/src/ingest/time-buckets';
import {
  admittedValuesKey,
  DISTINCT_VALUES_PER_DAY,
} from '../../subgraphs/analytics/src/ingest/value-admission';
import { startStack, type Stack } from '../support/stack';
import { analyticsAccount, api, collect, IP, UA } from './analytics-helpers';

type Envelope<T> = { success: boolean; data: T };
type PagesData = { pages: Array<{ path: string; pageviews: number; visitors: number }> };
type OverviewData = { summary: { pageviews: number } };

describe('GET /analytics/:websiteId/pages with more distinct pages than the daily cap', () => {
  let stack: Stack;
  let redis: RedisClient;

  beforeAll(async () => {
    stack = await startStack('analytics-cardinality', { TRUSTED_PROXIES: 'loopback' });
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    await deleteKeysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);
    redis.disconnect();
    await stack.stop();
  });

  it('DATA-6: when a website already has 1,000 distinct pages today, then a new page is counted as (other), the breakdown returns (other) as a row and the overview stays exact', async () => {
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    // As if 999 other pages had been viewed today: the next new page is the last one admitted.
    const admitted = admittedValuesKey(
      stack.env.REDIS_KEY_PREFIX!,
      site.id,
      'page',
      floorDay(Date.now()),
    );
    await redis.sadd(
      admitted,
      Array.from({ length: DISTINCT_VALUES_PER_DAY - 1 }, (_, i) => `/seen-${i}`),
    );
    for (const [ip, path] of [
      [IP.us, '/kept'],
      [IP.gb, '/folded'],
    ] as const) {
      const response = await collect(
        stack,
        { ip, ua: UA.chromeWindows },
        { trackingCode: site.trackingCode, type: 'pageview', url: `https://shop.example${path}` },
      );
      expect(response.status).toBe(202);
    }
    await stack.analytics.services.ingest.waitUntilIdle();
    const apiKey = await key();

    const pages = await api<Envelope<PagesData>>(stack, apiKey, `/analytics/${site.id}/pages`);
    const overview = await api<Envelope<OverviewData>>(stack, apiKey, `/analytics/${site.id}`);

    expect(pages.status).toBe(200);
    expect(pages.body.data.pages.map((p) => [p.path, p.pageviews, p.visitors])).toEqual([
      [OTHER_VALUE, 1, 1], // ties are ordered by value
      ['/kept', 1, 1],
    ]);
    expect(overview.status).toBe(200);
    expect(overview.body.data.summary.pageviews).toBe(2);
    expect(await redis.scard(admitted)).toBe(DISTINCT_VALUES_PER_DAY);
  });
});
