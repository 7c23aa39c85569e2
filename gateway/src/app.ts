import { expressMiddleware } from '@as-integrations/express5';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import express from 'express';
import type { Redis } from 'ioredis';
import { healthRouter, upstreamChecks } from '../../common/health';
import { jsonErrorHandler, jsonNotFound } from '../../common/json-errors';
import { listen } from '../../common/http-server';
import { requestContext } from '../../common/request-context';
import type { Logger } from '../../common/logger';
import { readManifest, type OperationManifest } from '../../common/persisted-operations';
import { createRedis, logRedisErrors, pingRedis, waitForRedis } from '../../common/redis';
import { API_KEY_PREFIX } from '../../common/secrets';
import { apiKeysAtTheRestApi, presentedCredential } from './authenticate';
import type { GatewayConfig } from './config';
import { paymentWebhookRouter } from './payment-webhook';
import { startGatewayEngine } from './engine';
import { dashboardRouter } from './dashboard';
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
  const redis = createRedis(config.redisUrl);
  logRedisErrors(redis, logger);
  await waitForRedis(redis);
  let ownUrl = '';
  const { app, engine } = await createGatewayApp(config, logger, redis, manifest, () => ownUrl);
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
      redis.disconnect();
    },
  };
}

export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger,
  redis: Redis,
  manifest: OperationManifest,
  /** This gateway's own address, once it listens: the dashboard's unless DASHBOARD_URL says. */
  ownUrl: () => string = () => '',
) {
  const engine = await startGatewayEngine(config, logger, redis, manifest);
  const { apollo, authenticator } = engine;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext({ trustIncoming: true, expose: true }));
  app.use(
    healthRouter([
      { name: 'redis', check: () => pingRedis(redis) },
      // Alive, not ready: a subgraph's database outage or stalled consumer must not take the
      // public GraphQL (and the dashboard) out of a balancer's rotation; each subgraph says so.
      ...upstreamChecks(config.subgraphUrls, '/healthz'),
    ]),
  );
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
  if (config.introspection) {
    // The schema explorer: GraphiQL inlined by the package, so nothing is loaded from a CDN.
    app.get('/graphql', (req, res, next) => {
      if (!req.accepts('html') || req.query.query || req.query.extensions) return next();
      res
        .type('html')
        .send(renderGraphiQL({ endpoint: '/graphql', title: 'Web Analytics supergraph' }));
    });
  }
  app.use(
    '/graphql',
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
