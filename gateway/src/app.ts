import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import express from 'express';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { healthRouter } from '../../common/health';
import { jsonErrorHandler } from '../../common/json-errors';
import { listen } from '../../common/http-server';
import { signIdentity, type GraphQLBody } from '../../common/identity';
import { requestContext } from '../../common/request-context';
import type { Logger } from '../../common/logger';
import { readManifest, type OperationManifest } from '../../common/persisted-operations';
import { createRedis, logRedisErrors, pingRedis, waitForRedis } from '../../common/redis';
import { hideInternalErrors } from '../../common/subgraph-server';
import { API_KEY_PREFIX } from '../../common/secrets';
import {
  apiKeysAtTheRestApi,
  Authenticator,
  facadeIdentity,
  presentedCredential,
} from './authenticate';
import type { GatewayConfig } from './config';
import type { GatewayContext } from './context';
import { ManifestCache, manifestOnlyForApiKeys } from './persisted-operations';
import { paymentWebhookRouter } from './payment-webhook';
import { queryLimits } from './query-limits';
import { SubgraphDataSource } from './subgraph-data-source';
import { createSubgraphAgent } from './subgraph-fetch';
import type { Dispatcher } from 'undici';

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
  const agent = createSubgraphAgent();
  const { app, apollo } = await createGatewayApp(config, logger, redis, manifest, agent);
  const server = await listen(app, config.port, config.host);
  logger.info({ url: server.url }, 'listening');
  return {
    url: server.url,
    graphqlUrl: `${server.url}/graphql`,
    async stop() {
      await server.close();
      await apollo.stop();
      await agent.close();
      redis.disconnect();
    },
  };
}

export async function createGatewayApp(
  config: GatewayConfig,
  logger: Logger,
  redis: Redis,
  manifest: OperationManifest,
  agent: Dispatcher,
) {
  const gateway = new ApolloGateway({
    supergraphSdl: readFileSync(config.supergraphPath, 'utf8'),
    buildService: ({ name, url: composedUrl }) => {
      const subgraph = name as keyof GatewayConfig['subgraphUrls'];
      const url = config.subgraphUrls[subgraph] ?? composedUrl!;
      if (config.fastFetch)
        return new SubgraphDataSource(url, subgraph, config.internalSecret, agent);
      // @apollo/gateway's defaults, kept for comparison (GATEWAY_FAST_FETCH=false).
      return new RemoteGraphQLDataSource<GatewayContext>({
        url,
        willSendRequest({ request, context }) {
          const identity = context.identity ?? { kind: 'anonymous' };
          const { query, operationName, variables, extensions } = request;
          for (const [header, value] of Object.entries(
            signIdentity(config.internalSecret, identity, {
              audience: subgraph,
              request: { query, operationName, variables, extensions },
            }),
          )) {
            request.http?.headers.set(header, value);
          }
        },
      });
    },
    logger,
  });
  const manifestCache = new ManifestCache(manifest);
  const limits = queryLimits({ suggestFields: config.introspection });
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: config.introspection,
    persistedQueries: { cache: manifestCache, ttl: null },
    includeStacktraceInErrorResponses: false,
    // main() owns signal handling and stops Apollo in order with everything else.
    stopOnTerminationSignals: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    plugins: [
      manifestOnlyForApiKeys(manifestCache),
      ApolloServerPluginLandingPageDisabled(),
      ...limits.plugins,
    ],
    formatError: (formatted, error) => hideInternalErrors(formatted, error, logger),
  });
  await apollo.start();

  const authenticator = new Authenticator(
    config.subgraphUrls.keys,
    config.internalSecret,
    agent,
    redis,
    config.redisKeyPrefix,
    logger,
  );
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext({ trustIncoming: true, expose: true }));
  app.use(
    healthRouter([
      { name: 'redis', check: () => pingRedis(redis) },
      ...Object.entries(config.subgraphUrls).map(([name, url]) => ({
        name,
        check: async () => {
          const response = await fetch(new URL('/readyz', url));
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
        },
      })),
    ]),
  );
  app.use(
    paymentWebhookRouter({
      secret: config.paymentWebhookSecret,
      keysUrl: config.subgraphUrls.keys,
      internalSecret: config.internalSecret,
      dispatcher: agent,
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
        const signed = facadeIdentity(config.internalSecret, req.headers, req.body as GraphQLBody);
        if (signed?.kind === 'apiKey') return { identity: signed };
        const presented = presentedCredential(req.headers);
        // The facade on its own behalf (the collector resolving tracking codes).
        if (signed && presented === null) return { identity: signed };
        // API keys count against limits and quotas, which only the REST facade applies: the
        // gateway resolves a key for the facade, and takes keys from anyone else only when told.
        if (presented?.startsWith(API_KEY_PREFIX) && !signed && !config.directApiKeys)
          throw apiKeysAtTheRestApi();
        return { identity: await authenticator.identify(presented) };
      },
    }),
  );
  app.use(jsonErrorHandler(logger));
  return { app, apollo };
}
