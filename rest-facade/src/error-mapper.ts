import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from '../../common/platform/logger';
import {
  ApiError,
  internalError,
  invalidJson,
  invalidParameters,
  unreadableBody,
  upstreamUnavailable,
  payloadTooLarge,
  unsupportedEncoding,
} from './errors';
import { errorBody } from './envelope';
import type { GraphQLErrorPayload } from './gateway-client';
import { requestIdOf } from '../../common/platform/request-context';

/** Codes whose body the spec fixes as `{error:{code,message}}`. */
const AUTH_CODES = new Set([
  'invalid_api_key',
  'key_expired',
  'forbidden',
  'API_PAID_PLAN_REQUIRED',
  'invalid_access_token',
  'UNAUTHENTICATED',
]);

/** The gateway's errors carry `extensions.code` and `extensions.httpStatus`; they become REST errors. */
export function fromGraphQLErrors(errors: GraphQLErrorPayload[]): ApiError {
  const clientError = errors.find((e) => {
    const status = e.extensions?.httpStatus;
    return status !== undefined && status >= 400 && status < 500;
  });
  if (clientError) {
    const code = clientError.extensions?.code ?? 'bad_request';
    const status = clientError.extensions?.httpStatus ?? 400;
    const details = clientError.extensions?.details;
    // A subgraph's 429 says how long to wait in details.retryAfterSeconds; HTTP, in Retry-After.
    const retryAfter = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    return new ApiError({
      status,
      code,
      message: clientError.message,
      shape: AUTH_CODES.has(code) ? 'auth' : 'envelope',
      headers:
        status === 429 && typeof retryAfter === 'number'
          ? { 'Retry-After': String(retryAfter) }
          : {},
      details,
    });
  }
  // A service behind the gateway could not be reached: retryable, like the gateway being down.
  const unavailable = errors.find((e) => e.extensions?.httpStatus === 503);
  if (unavailable) return upstreamUnavailable({ gatewayErrors: errors });
  return internalError({ gatewayErrors: errors });
}

/** The one place that turns any failure into an HTTP response. Never leaks a stack. */
export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error);
    logFailure(logger, apiError, error, req, res);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    if (apiError.status === 401) res.setHeader('WWW-Authenticate', authenticationChallenge(req));
    res.status(apiError.status).json(errorBody(apiError));
  };
}

/**
 * HTTP requires a 401 to say how to authenticate (RFC 9110 §11.6.1): a bearer credential, which
 * is what both the key (also accepted as `Authorization: Bearer`) and the access token are. When
 * one was presented, RFC 6750 §3.1's `invalid_token` says that it, not its absence, was the problem.
 */
function authenticationChallenge(req: Request): string {
  const presented =
    req.headers.authorization !== undefined || req.headers['x-api-key'] !== undefined;
  return presented ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
}

/** Failures on our side (5xx) are logged with the request id the client got; 4xx are not. */
function logFailure(
  logger: Logger,
  apiError: ApiError,
  original: unknown,
  req: Request,
  res: Response,
): void {
  if (apiError.status < 500) return;
  const cause = original === apiError ? apiError.cause : original;
  const fields = {
    requestId: requestIdOf(res),
    method: req.method,
    path: req.path,
    code: apiError.code,
    ...(cause instanceof Error ? { err: cause } : { cause }),
  };
  if (apiError.status !== 503) logger.error(fields, 'request failed');
  else if (!apiError.outageLogged) logger.warn(fields, 'upstream unavailable');
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return invalidJson();
  // The router could not decode a path segment (`%E0%A4%A`): the caller's mistake.
  if (error instanceof URIError) {
    return invalidParameters('The request path is not valid percent-encoding');
  }
  // Any other 400 from the body parser: the bytes did not match their Content-Encoding or
  // Content-Length, so there is no JSON to read.
  if ((error as { status?: number } | null)?.status === 400) return unreadableBody();
  if (type === 'entity.too.large') return payloadTooLarge();
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return unsupportedEncoding();
  }
  return internalError(error);
}
