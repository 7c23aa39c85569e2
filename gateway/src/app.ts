import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { expressMiddleware } from '@as-integrations/express5';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
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
  // A public port: in production only with METRICS_TOKEN (docs/scaling.md, "Observability").
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

/** What the schema explorer opens with: how to be a caller here, then a query that runs as one. */
const SCHEMA_EXPLORER_QUERY = `# Every operation here runs as a caller. Signed in to the dashboard on this
# origin, its session cookie is sent by itself. Otherwise, put an access token
# in the Headers tab below:
#
#   {"Authorization": "Bearer wat_…"}
#
# Make one with: npm run --silent admin -- token:create --user USER
# (USER is a user's id, as admin user:create prints it).
# API keys (svc_…) are for the REST API and are refused here.

query Me {
  me {
    email
  }
}
`;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * GET /graphql from a browser: GraphiQL, which its package inlines (about 9 MB, nothing from a
 * CDN). Rendered once; compressed once per encoding on first demand (brotli about 2 MB, gzip 2.4);
 * revalidated by ETag. Other GETs of /graphql (a `query` or `extensions` parameter) pass on.
 */
function schemaExplorer(): express.RequestHandler {
  const html = Buffer.from(
    renderGraphiQL({
      endpoint: '/graphql',
      title: 'Web Analytics supergraph',
      defaultQuery: SCHEMA_EXPLORER_QUERY,
    }),
  );
  const tag = createHash('sha256').update(html).digest('base64url').slice(0, 24);
  const bodies = new Map<string, Promise<Buffer>>([['identity', Promise.resolve(html)]]);
  const compressed = (encoding: 'br' | 'gzip' | 'identity') => {
    let body = bodies.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotli(html, {
              params: {
                // Quality 5: a tenth of a second once, 1.9 MB; 11 would take seconds for 1.7.
                [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
              },
            })
          : gzip(html);
      bodies.set(encoding, body);
    }
    return body;
  };
  return async (req, res, next) => {
    if (!req.accepts('html') || req.query.query || req.query.extensions) return next();
    const accepted = req.acceptsEncodings('br', 'gzip', 'identity');
    const encoding = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
    res.vary('Accept-Encoding');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', `"${tag}${encoding === 'identity' ? '' : `-${encoding}`}"`);
    res.type('html');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const body = await compressed(encoding);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };
}
