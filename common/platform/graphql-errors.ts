import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import mongoose from 'mongoose';
import type { Logger } from './logger';
import { isMongoUnavailable } from './mongo-outage';
import { isRedisUnavailable } from './redis';
import { currentRequestId } from './request-context';

/**
 * How every GraphQL server of ours (the subgraphs, the gateway, the facade's embedded engine)
 * shapes an error for its caller: our own errors (common/platform/errors.ts) and the caller's
 * mistakes pass with their code and status, outages become a 503 the caller may retry, and
 * anything else is logged in full and answered as a bare `INTERNAL_SERVER_ERROR`.
 */

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
  const answer =
    callersMistake(formatted, original) ?? outage(formatted, original, logger, countMongoError);
  if (answer) return answer;
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

/** A request the caller got wrong: answered with its own message, code and 4xx status. */
function callersMistake(
  formatted: GraphQLFormattedError,
  original: unknown,
): GraphQLFormattedError | null {
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
  return null;
}

/** Something behind this service could not be reached: a 503 the caller may retry, warned of once. */
function outage(
  formatted: GraphQLFormattedError,
  original: unknown,
  logger: Logger,
  countMongoError?: () => void,
): GraphQLFormattedError | null {
  const err = (original as Error | undefined)?.message;
  if (isMongoUnavailable(original)) {
    countMongoError?.();
    warnOfOutage(logger, { err }, 'mongodb unavailable: answering 503 service_unavailable');
    return { ...databaseUnavailable(), path: formatted.path };
  }
  if (isRedisUnavailable(original)) {
    warnOfOutage(logger, { err }, 'redis unavailable: answering 503 service_unavailable');
    return {
      message: 'A store this service needs is unavailable; retry shortly',
      path: formatted.path,
      extensions: { code: 'service_unavailable', httpStatus: 503 },
    };
  }
  const code = formatted.extensions?.code;
  if (formatted.extensions?.httpStatus === 503 && code === 'service_unavailable') {
    // An unreachable service behind this one (common/platform/errors.ts, serviceUnavailable).
    warnOfOutage(logger, { err, path: formatted.path }, formatted.message);
    return {
      message: formatted.message,
      path: formatted.path,
      extensions: { code, httpStatus: 503 },
    };
  }
  return null;
}
