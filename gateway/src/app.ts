import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import type { RedisClient } from '../../common/platform/redis';
import { healthRouter, upstreamChecks } from '../../common/platform/health';
import { jsonErrorHandler, jsonNotFound } from '../../common/platform/json-errors';
import { listen } from '../../common/platform/http-server';
import { requestContext } from '../../common/platform/request-context';
import type { Logger } from '../../common/platform/logger';
import { metricsAccess, metricsRouter, ServiceMetrics } from '../../common/platform/metrics';
import { readManifest, type OperationManifest } from '../../common/contracts/persisted-operations';
import { connectRedis, pingRedis } from '../../common/platform/redis';
import { API_KEY_PREFIX } from '../../common/platform/secrets';
import { trustProxySetting } from '../../common/platform/trusted-proxies';
import { presentedCredential } from './authenticate';
import { apiKeysAtTheRestApi } from './errors';
import type { GatewayConfig } from './config';
import { paymentWebhookRouter } from './payment-webhook';
import { startGatewayEngine } from './engine';
import { dashboardRouter } from './dashboard';
import { schemaExplorer } from './schema-explorer';
import { createMailer } from './mailer';
import { sessionFromCookie, signInRouter } from './sign-in';

export interface RunningGateway {
  url: string;
  graphqlUrl: string;
  stop(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  logger: Logger,
  manifest: OperationManifest = readManifest(),
): Promise<RunningGateway> {
  const metrics = new ServiceMetrics('gateway', { processMetrics: config.nodeEnv !== 'test' });
  const { redis, close: closeRedis } = await connectRedis(
    config.redisUrl,
    logger,
    metrics.countRedisError,
  );
  let ownUrl = '';
  const { app, engine } = await createGatewayApp(
    config,
    logger,
    redis,
    manifest,
    () => ownUrl,
    metrics,
  );
  const server = await listen(app, config.port, config.host, {
    drainMs: config.shutdownDrainMs,
  });
  ownUrl = server.url;
  logger.info({ url: server.url }, 'listening');
  return {
    url: server.url,
    graphqlUrl: `${server.url}/graphql`,
    async stop() {
      await server.close();
      await engine.stop();
      closeRedis();
    },
  };
}

export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger,
  redis: RedisClient,
  manifest: OperationManifest,
  /** This gateway's own address, once it listens: the dashboard's unless DASHBOARD_URL says. */
  ownUrl: () => string,
  metrics: ServiceMetrics,
) {
  const engine = await startGatewayEngine(config, logger, redis, manifest);
  const { apollo, authenticator } = engine;
  const app = express();
  app.disable('x-powered-by');
  // Off by default: X-Forwarded-For is believed only from configured proxies.
  app.set('trust proxy', trustProxySetting(config.trustedProxies));
  app.use(metrics.httpRequests);
  app.use(requestContext({ trustIncoming: true, expose: true }));
  app.use(
    healthRouter([
      { name: 'redis', check: () => pingRedis(redis) },
      // Alive, not ready: a subgraph's database outage or stalled consumer must not take the
      // public GraphQL (and the dashboard) out of a balancer's rotation; each subgraph says so.
      ...upstreamChecks(config.subgraphUrls, '/healthz'),
    ]),
  );
  // A public port: in production only with METRICS_TOKEN
  // (docs/scaling.md, "Observability: metrics").
  app.use(metricsRouter(metrics, metricsAccess(config, 'public')));
  app.use(
    paymentWebhookRouter({
      secret: config.paymentWebhookSecret,
      keysUrl: config.subgraphUrls.keys,
      internalSecret: config.internalSecret,
      dispatcher: engine.dispatcher,
      logger,
    }),
  );
  app.use(
    signInRouter({
      keysUrl: config.subgraphUrls.keys,
      internalSecret: config.internalSecret,
      dispatcher: engine.dispatcher,
      redis,
      redisKeyPrefix: config.redisKeyPrefix,
      mailer: createMailer(
        config.smtpUrl,
        config.mailFrom,
        logger,
        config.nodeEnv === 'production',
      ),
      dashboardUrl: () => config.dashboardUrl ?? ownUrl(),
      secureCookie: config.nodeEnv === 'production',
      logger,
    }),
  );
  if (config.introspection) app.get('/graphql', schemaExplorer());
  app.use(
    '/graphql',
    metrics.graphqlOperations(),
    express.json({ limit: '1mb' }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        // Dashboards sign in with a session cookie; other clients send a bearer token.
        const presented = presentedCredential(req.headers) ?? sessionFromCookie(req);
        // API keys count against limits and quotas, which only the REST facade applies (it runs
        // this engine in its own process): the gateway service takes keys only when told.
        if (presented?.startsWith(API_KEY_PREFIX) && !config.directApiKeys)
          throw apiKeysAtTheRestApi();
        return { identity: await authenticator.identify(presented) };
      },
    }),
  );
  app.use(dashboardRouter({ publicApiUrl: config.publicApiUrl }));
  app.use(jsonNotFound);
  app.use(jsonErrorHandler(logger));
  return { app, engine };
}
