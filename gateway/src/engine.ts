import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { readFileSync } from 'node:fs';
import type { RedisClient } from '../../common/platform/redis';
import type { Dispatcher } from 'undici';
import { signIdentity } from '../../common/contracts/identity';
import type { Logger } from '../../common/platform/logger';
import type { OperationManifest } from '../../common/contracts/persisted-operations';
import { hideInternalErrors } from '../../common/platform/graphql-errors';
import { Authenticator } from './authenticate';
import type { GatewayContext } from './context';
import type { EngineConfig } from './engine-config';
import { operationResolution } from './operation-resolution';
import { ManifestCache, manifestOnlyForApiKeys } from './persisted-operations';
import { queryLimits } from './query-limits';
import { withoutSchemaHints } from './schema-hints';
import { SubgraphDataSource } from './subgraph-data-source';
import { createSubgraphAgent } from './subgraph-fetch';

export interface EngineOptions extends EngineConfig {
  internalSecret: string;
  redisKeyPrefix: string;
  /** Introspection, and schema names and suggestions in validation errors (schema-hints.ts). */
  introspection: boolean;
}

/**
 * The supergraph engine: Apollo Server over @apollo/gateway with the persisted-operation
 * manifest, the query limits and the credential authenticator. The gateway service serves it
 * over HTTP; the REST facade runs one in its own process (rest-facade/src/gateway-client.ts).
 */
export interface GatewayEngine {
  apollo: ApolloServer<GatewayContext>;
  authenticator: Authenticator;
  /** The keep-alive pool to the subgraphs, for the gateway's other calls to them. */
  dispatcher: Dispatcher;
  stop(): Promise<void>;
}

export async function startGatewayEngine(
  options: EngineOptions,
  logger: Logger,
  redis: RedisClient,
  manifest: OperationManifest,
): Promise<GatewayEngine> {
  const agent = createSubgraphAgent();
  const gateway = new ApolloGateway({
    supergraphSdl: readFileSync(options.supergraphPath, 'utf8'),
    buildService: ({ name, url: composedUrl }) => {
      const subgraph = name as keyof EngineConfig['subgraphUrls'];
      const url = options.subgraphUrls[subgraph] ?? composedUrl!;
      if (options.fastFetch)
        return new SubgraphDataSource(url, subgraph, options.internalSecret, agent);
      // @apollo/gateway's defaults, kept for comparison (GATEWAY_FAST_FETCH=false).
      return new RemoteGraphQLDataSource<GatewayContext>({
        url,
        willSendRequest({ request, context }) {
          const identity = context.identity ?? { kind: 'anonymous' };
          const { query, operationName, variables, extensions } = request;
          for (const [header, value] of Object.entries(
            signIdentity(options.internalSecret, identity, {
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
  const limits = queryLimits();
  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: options.introspection,
    persistedQueries: { cache: manifestCache, ttl: null },
    includeStacktraceInErrorResponses: false,
    // main() owns signal handling and stops Apollo in order with everything else.
    stopOnTerminationSignals: false,
    validationRules: limits.validationRules,
    parseOptions: limits.parseOptions,
    plugins: [
      operationResolution(),
      manifestOnlyForApiKeys(manifestCache),
      ApolloServerPluginLandingPageDisabled(),
      ...limits.plugins,
      // A published schema has nothing left to hide, and its names help whoever writes a query.
      ...(options.introspection ? [] : [withoutSchemaHints()]),
    ],
    formatError: (formatted, error) => hideInternalErrors(formatted, error, logger),
  });
  await apollo.start();
  const authenticator = new Authenticator(
    options.subgraphUrls.keys,
    options.internalSecret,
    agent,
    redis,
    options.redisKeyPrefix,
    logger,
  );
  return {
    apollo,
    authenticator,
    dispatcher: agent,
    async stop() {
      await apollo.stop();
      await agent.close();
    },
  };
}
