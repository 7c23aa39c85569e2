import { randomBytes } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../common/platform/logger';
import { startAnalyticsSubgraph } from '../../subgraphs/analytics/src/app';
import { loadAnalyticsConfig } from '../../subgraphs/analytics/src/config';
import { startKeysSubgraph } from '../../subgraphs/keys/src/app';
import { loadKeysConfig } from '../../subgraphs/keys/src/config';
import { startWebhooksSubgraph } from '../../subgraphs/webhooks/src/app';
import { loadWebhooksConfig } from '../../subgraphs/webhooks/src/config';
import { startGateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { startFacade } from '../../rest-facade/src/app';
import { loadFacadeConfig } from '../../rest-facade/src/config';
import { testKeyPrefix } from './redis';

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** A database URI for `name` on the engine the global setup started (or MONGODB_URI). */
export function testMongoUri(name: string): string {
  const base = process.env.TEST_MONGODB_URI;
  if (!base)
    throw new Error('TEST_MONGODB_URI is not set: run the tests through jest (global setup)');
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The real five services, in this process, on ephemeral ports, with their own databases and
 * Redis key prefix so test files can run in parallel.
 */
export async function startStack(
  label: string,
  extraEnv: Record<string, string> = {},
  logSink?: DestinationStream,
) {
  const id = `${label.replace(/\W/g, '_').slice(0, 20)}_${randomBytes(3).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: testKeyPrefix(id),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    ANALYTICS_PORT: '0',
    KEYS_PORT: '0',
    WEBHOOKS_PORT: '0',
    GATEWAY_PORT: '0',
    FACADE_PORT: '0',
    ...extraEnv,
  };
  const logger = (name: string) => createLogger(name, env.LOG_LEVEL ?? 'silent', logSink);
  const [analytics, keys, webhooks] = await Promise.all([
    startAnalyticsSubgraph(
      loadAnalyticsConfig({ ...env, MONGODB_URI: testMongoUri(`${id}_analytics`) }),
      logger('analytics'),
    ),
    startKeysSubgraph(
      loadKeysConfig({ ...env, MONGODB_URI: testMongoUri(`${id}_keys`) }),
      logger('keys'),
    ),
    startWebhooksSubgraph(
      loadWebhooksConfig({ ...env, MONGODB_URI: testMongoUri(`${id}_webhooks`) }),
      logger('webhooks'),
    ),
  ]);
  /** Where the gateway and the facade (which runs the gateway's engine) reach the subgraphs. */
  const subgraphEnv = {
    ANALYTICS_URL: analytics.graphqlUrl,
    KEYS_URL: keys.graphqlUrl,
    WEBHOOKS_URL: webhooks.graphqlUrl,
  };
  const gateway = await startGateway(
    loadGatewayConfig({ ...env, ...subgraphEnv }),
    logger('gateway'),
  );
  const facade = await startFacade(
    loadFacadeConfig({ ...env, ...subgraphEnv }),
    logger('rest-facade'),
  );
  return {
    id,
    env,
    subgraphEnv,
    analytics,
    keys,
    webhooks,
    gateway,
    facade,
    async stop() {
      await facade.stop();
      await gateway.stop();
      await Promise.all([analytics.stop(), keys.stop(), webhooks.stop()]);
    },
  };
}
