import { createLogger } from '../../common/platform/logger';
import { startAnalyticsSubgraph } from '../../subgraphs/analytics/src/app';
import { loadAnalyticsConfig } from '../../subgraphs/analytics/src/config';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { analyticsAccount, collect, IP, UA } from './analytics-helpers';
import { waitUntilIdle } from '../support/ingest-idle';

describe('collection across a graceful stop of the analytics subgraph', () => {
  let stack: Stack;
  let restarted: Awaited<ReturnType<typeof startAnalyticsSubgraph>> | null = null;
  beforeAll(async () => {
    stack = await startStack('analytics-stop', {
      TRUSTED_PROXIES: 'loopback',
      WEBHOOK_WORKERS_ENABLED: 'false',
    });
  });
  afterAll(async () => {
    await stack.facade.stop();
    await stack.gateway.stop();
    await Promise.all([stack.keys.stop(), stack.webhooks.stop(), restarted?.stop()]);
  });

  it('DATA-6: when the analytics subgraph stops gracefully while events stream in, then after a restart every accepted event is counted exactly once', async () => {
    const { account } = await analyticsAccount(stack);
    const site = account.websites[0]!;
    const sent = 120;
    const { ingest } = stack.analytics.services;
    const apply = ingest.apply.bind(ingest);
    let applying!: () => void;
    const firstBatch = new Promise<void>((resolve) => (applying = resolve));
    jest.spyOn(ingest, 'apply').mockImplementation((...args) => {
      applying();
      return apply(...args);
    });
    const responses = Promise.all(
      Array.from({ length: sent }, (_, i) =>
        collect(
          stack,
          { ip: IP.us, ua: UA.chromeWindows },
          { trackingCode: site.trackingCode, type: 'pageview', url: `https://shop.example/p/${i}` },
        ),
      ),
    );
    // Stop while the consumer is applying what has arrived so far.
    await firstBatch;
    await stack.analytics.stop();
    expect((await responses).every((r) => r.status === 202 && r.body.accepted === true)).toBe(true);

    const config = loadAnalyticsConfig({
      ...stack.env,
      MONGODB_URI: testMongoUri(`${stack.id}_analytics`),
    });
    restarted = await startAnalyticsSubgraph(config, createLogger('analytics-restarted', 'silent'));
    await waitUntilIdle(restarted.services.ingest, 20_000);
    expect(await restarted.services.totals.pageviewsOf([site.id])).toEqual([sent]);
  });
});
