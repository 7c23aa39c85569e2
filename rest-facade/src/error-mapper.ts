import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../common/logger';
import { ApiError, internalError, invalidJson, invalidParameters } from './api-error';
import { errorBody } from './envelope';
import type { GraphQLErrorPayload } from './gateway-client';

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
export function fromGraphQLErrors(errors: GraphQLErrorPayload[], logger: Logger): ApiError {
  const clientError = errors.find((e) => {
    const status = e.extensions?.httpStatus;
    return status !== undefined && status >= 400 && status < 500;
  });
  if (clientError) {
    const code = clientError.extensions?.code ?? 'bad_request';
    const status = clientError.extensions?.httpStatus ?? 400;
    return new ApiError(
      status,
      code,
      clientError.message,
      AUTH_CODES.has(code) ? 'auth' : 'envelope',
      {},
      clientError.extensions?.details,
    );
  }
  logger.error({ errors }, 'gateway returned errors');
  return internalError();
}

/** The one place that turns any failure into an HTTP response. Never leaks a stack. */
export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const apiError = toApiError(error, logger);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(apiError.status).json(errorBody(apiError));
  };
}

function toApiError(error: unknown, logger: Logger): ApiError {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return invalidJson();
  // The router could not decode a path segment (`%E0%A4%A`): the caller's mistake.
  if (error instanceof URIError || (error as { status?: number } | null)?.status === 400) {
    return invalidParameters('The request path is not valid percent-encoding');
  }
  if (type === 'entity.too.large')
    return new ApiError(413, 'payload_too_large', 'The request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(
      415,
      'unsupported_media_type',
      'The request body encoding is not supported',
    );
  }
  logger.error({ err: error }, 'unhandled error');
  return internalError();
}
