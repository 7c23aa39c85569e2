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
import mongoose from 'mongoose';
import { readFileSync } from 'node:fs';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import gql from 'graphql-tag';
import { healthRouter, type ReadinessCheck } from './health';
import { jsonErrorHandler, jsonNotFound } from './json-errors';
import type { ServiceMetrics } from './metrics';
import { isMongoUnavailable } from './mongo-outage';
import { isRedisUnavailable } from './redis';
import {
  verifyIdentity,
  type Audience,
  type CallerIdentity,
  type GraphQLBody,
} from '../contracts/identity';
import { currentRequestId, requestContext } from './request-context';
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

/** Apollo Server's codes for requests that are the caller's fault; their messages are safe to show. */
const APOLLO_CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

const OUTAGE_WARNING_INTERVAL_MS = 30_000;
const lastOutageWarning = new WeakMap<Logger, Map<string, number>>();

/**
 * One warning per service and message every 30 s while something behind it is unreachable, not
 * one per failed call or field.
 */
function warnOfOutage(logger: Logger, fields: Record<string, unknown>, message: string): void {
  const now = Date.now();
  let last = lastOutageWarning.get(logger);
  if (!last) lastOutageWarning.set(logger, (last = new Map()));
  if (now - (last.get(message) ?? 0) < OUTAGE_WARNING_INTERVAL_MS) return;
  last.set(message, now);
  logger.warn({ ...fields, requestId: currentRequestId() }, message);
}

export const databaseUnavailable = () => ({
  message: 'The database is unavailable; retry shortly',
  extensions: { code: 'service_unavailable', httpStatus: 503 },
});

/**
 * Errors we did not raise on purpose are logged in full and reach callers only as a code.
 * `countMongoError` is told of each answered 503 because MongoDB did not answer.
 */
export function hideInternalErrors(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Logger,
  countMongoError?: () => void,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (
    original instanceof mongoose.Error.ValidationError ||
    original instanceof mongoose.Error.CastError
  ) {
    // Input the schema let through but the model refuses (a too-long name, say) is the caller's.
    return {
      message: original.message,
      path: formatted.path,
      extensions: { code: 'invalid_parameters', httpStatus: 400 },
    };
  }
  const status = formatted.extensions?.httpStatus;
  const code = formatted.extensions?.code;
  const isClientError =
    (typeof status === 'number' && status < 500) ||
    (typeof code === 'string' && APOLLO_CLIENT_ERROR_CODES.has(code));
  if (isClientError)
    return { message: formatted.message, path: formatted.path, extensions: formatted.extensions };
  // Apollo's own refusals of a request (e.g. an unsupported persisted-query version) carry an
  // HTTP 4xx but no code of their own.
  const apolloStatus =
    original instanceof GraphQLError
      ? (original.extensions?.http as { status?: number } | undefined)?.status
      : undefined;
  if (typeof apolloStatus === 'number' && apolloStatus < 500)
    return {
      message: formatted.message,
      path: formatted.path,
      extensions: { code: 'BAD_REQUEST', httpStatus: apolloStatus },
    };
  if (isMongoUnavailable(original)) {
    countMongoError?.();
    warnOfOutage(
      logger,
      { err: (original as Error)?.message },
      'mongodb unavailable: answering 503 service_unavailable',
    );
    return { ...databaseUnavailable(), path: formatted.path };
  }
  if (isRedisUnavailable(original)) {
    warnOfOutage(
      logger,
      { err: (original as Error)?.message },
      'redis unavailable: answering 503 service_unavailable',
    );
    return {
      message: 'A store this service needs is unavailable; retry shortly',
      path: formatted.path,
      extensions: { code: 'service_unavailable', httpStatus: 503 },
    };
  }
  if (status === 503 && code === 'service_unavailable') {
    // An unreachable service behind this one (common/errors.ts serviceUnavailable): the caller
    // may retry; logged as a warning, not as a bug.
    warnOfOutage(
      logger,
      { err: (original as Error)?.message, path: formatted.path },
      formatted.message,
    );
    return {
      message: formatted.message,
      path: formatted.path,
      extensions: { code, httpStatus: 503 },
    };
  }
  logger.error(
    { err: original, path: formatted.path, requestId: currentRequestId() },
    'unexpected resolver error',
  );
  return {
    message: 'Internal error',
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
