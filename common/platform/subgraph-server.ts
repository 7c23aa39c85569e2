import { ApolloServer, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginInlineTrace } from '@apollo/server/plugin/inlineTrace';
import { expressMiddleware } from '@as-integrations/express5';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import express, { type Express } from 'express';
import { readFileSync } from 'node:fs';
import gql from 'graphql-tag';
import { healthRouter, type ReadinessCheck } from './health';
import { hideInternalErrors } from './graphql-errors';
import { jsonErrorHandler, jsonNotFound } from './json-errors';
import type { ServiceMetrics } from './metrics';
import {
  verifyIdentity,
  type Audience,
  type CallerIdentity,
  type GraphQLBody,
} from '../contracts/identity';
import { requestContext } from './request-context';
import type { Logger } from './logger';

export interface SubgraphContext<Deps> extends BaseContext {
  identity: CallerIdentity;
  deps: Deps;
  /** Per-request caches (DataLoaders) built by the subgraph's own factory. */
  loaders: Record<string, unknown>;
}

export interface SubgraphOptions<Deps> {
  name: Audience;
  schemaPath: string;
  /**
   * The subgraph's resolver map, typed by its generated `Resolvers` (GraphQL Code Generator,
   * `subgraphs/<name>/codegen.ts`), which checks every field against the schema.
   */
  resolvers: object;
  deps: Deps;
  internalSecret: string;
  logger: Logger;
  readiness: ReadinessCheck[];
  /** Inline tracing costs time on every request and nothing reads it unless GraphOS is wired. */
  inlineTrace?: boolean;
  createLoaders?: (deps: Deps, identity: CallerIdentity) => Record<string, unknown>;
  /** Counts MongoDB outages answered as errors (`mongodb_errors_total`). */
  metrics?: ServiceMetrics;
}

export function loadSchema(path: string) {
  return gql(readFileSync(path, 'utf8'));
}

/**
 * Builds a federated subgraph as an Express app. `/graphql` answers only requests whose identity
 * headers were signed by the gateway with the internal secret: nothing else may reach the data.
 */
export async function createSubgraphApp<Deps>(
  options: SubgraphOptions<Deps>,
): Promise<{ app: Express; apollo: ApolloServer<SubgraphContext<Deps>> }> {
  const { logger } = options;
  const countMongoError = options.metrics?.mongoErrors();
  const plugins: ApolloServerPlugin<SubgraphContext<Deps>>[] = [
    options.inlineTrace ? ApolloServerPluginInlineTrace() : ApolloServerPluginInlineTraceDisabled(),
    // No cache hints are declared: the plugin would only cost a hook on every resolved field
    // (a heatmap list resolves tens of thousands).
    ApolloServerPluginCacheControlDisabled(),
  ];
  const apollo = new ApolloServer<SubgraphContext<Deps>>({
    schema: buildSubgraphSchema({
      typeDefs: loadSchema(options.schemaPath),
      // buildSubgraphSchema's map type has no context parameter nor the generated field types.
      resolvers: options.resolvers as GraphQLResolverMap<unknown>,
    }),
    plugins,
    includeStacktraceInErrorResponses: false,
    // main() owns signal handling and stops Apollo in order with everything else.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) =>
      hideInternalErrors(formatted, error, logger, countMongoError),
  });
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext({ trustIncoming: true, expose: true }));
  app.use(healthRouter(options.readiness));
  app.use(
    '/graphql',
    express.json({ limit: '1mb' }),
    (req, res, next) => {
      // Signed for this subgraph and this very request (common/identity.ts), so the body first.
      const identity = verifyIdentity(options.internalSecret, req.headers, {
        audience: options.name,
        request: req.body as GraphQLBody | undefined,
      });
      if (!identity) {
        res.status(401).json({
          errors: [
            {
              message: 'This subgraph only answers the gateway',
              extensions: { code: 'UNAUTHENTICATED_INTERNAL' },
            },
          ],
        });
        return;
      }
      res.locals.identity = identity;
      next();
    },
    expressMiddleware(apollo, {
      context: async ({ res }) => {
        const identity = res.locals.identity as CallerIdentity;
        return {
          identity,
          deps: options.deps,
          loaders: options.createLoaders ? options.createLoaders(options.deps, identity) : {},
        };
      },
    }),
  );
  app.use(jsonNotFound);
  app.use(jsonErrorHandler(logger));
  return { app, apollo };
}
