import type { RedisClient } from '../../common/platform/redis';
import { deleteKeysMatching, openTestRedis } from '../support/redis';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { analyticsAccount, api, collect, IP, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

type Overview = { data: { summary: { pageviews: number } } };

/**
 * The collector keeps each accepted event until the analytics consumer has applied it and appends
 * it again when Redis lost it first; the consumer counts an event id once (docs/analytics.md,
 * "Durability").
 */
describe('POST /api/collect when Redis loses its data', () => {
  let stack: Stack;
  let redis: RedisClient;

  beforeAll(async () => {
    stack = await startStack('collect-durability', { TRUSTED_PROXIES: 'loopback' });
    redis = await openTestRedis(stack.env.REDIS_URL!);
  });
  afterAll(async () => {
    redis.disconnect();
    await stack.stop();
  });

  const ingest = () => stack.analytics.services.ingest;

  /** Everything the stack keeps in Redis goes, as when Redis restarts without persistence. */
  const loseRedisData = () => deleteKeysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);

  async function pageviews(site: { trackingCode: string }, count: number, from: string) {
    for (let n = 0; n < count; n += 1) {
      const response = await collect(
        stack,
        { ip: IP.us, ua: UA.chromeWindows },
        {
          trackingCode: site.trackingCode,
          type: 'pageview',
          url: `https://shop.example/${from}-${n}`,
        },
      );
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ accepted: true });
    }
  }

  /**
   * The website's page views once ingestion has caught up (watched in the analytics store, which
   * costs no quota), as the External API reports them.
   */
  async function countedOnceSettled(siteId: string, key: string, expected: number) {
    const stored = async () => (await stack.analytics.services.totals.pageviewsOf([siteId]))[0]!;
    await waitFor(async () => (await stored()) >= expected, 20_000);
    await waitUntilIdle(ingest(), 20_000);
    const overview = await api<Overview>(stack, key, `/analytics/${siteId}?range=24h`);
    expect(overview.status).toBe(200);
    return overview.body.data.summary.pageviews;
  }

  it('DATA-2: when Redis loses its data while accepted page views wait for the stopped analytics consumer, then each accepted page view is counted exactly once', async () => {
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    const apiKey = await key();
    await pageviews(site, 5, 'applied');
    await waitUntilIdle(ingest());

    await ingest().stop();
    try {
      await pageviews(site, 10, 'waiting');
      await loseRedisData();
    } finally {
      await ingest().start();
    }

    expect(await countedOnceSettled(site.id, apiKey, 15)).toBe(15);
  });

  it('DATA-2: when Redis loses its data twice in a row while page views wait, then each accepted page view is counted exactly once', async () => {
    const { account, key } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    const apiKey = await key();

    await ingest().stop();
    try {
      await pageviews(site, 6, 'first');
      await loseRedisData();
      await pageviews(site, 4, 'second');
      await loseRedisData();
    } finally {
      await ingest().start();
    }

    expect(await countedOnceSettled(site.id, apiKey, 10)).toBe(10);
  });
});
