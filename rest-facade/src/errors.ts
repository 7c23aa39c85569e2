/**
 * The spec gives two error bodies: authentication and permission errors are `{error:{code,message}}`;
 * rate and quota errors (and, by our decision, every other API error) are
 * `{success:false, error:{code,message,timestamp}}`.
 */
export type ErrorShape = 'auth' | 'envelope';

export interface ApiErrorFields {
  status: number;
  /** Stable and documented: what a client branches on. */
  code: string;
  message: string;
  /** Which of the spec's two bodies it is answered with (default `envelope`). */
  shape?: ErrorShape;
  /** Headers of the answer (Retry-After, Allow). */
  headers?: Record<string, string>;
  /** Sent in the body's `error.details` (envelope shape only). */
  details?: unknown;
  /** Logged with the request id by the error mapper, never sent to the client. */
  cause?: unknown;
}

export class ApiError extends Error {
  /** The outage behind this 503 is already logged (once per outage): no line per call. */
  outageLogged = false;
  readonly status: number;
  readonly code: string;
  readonly shape: ErrorShape;
  readonly headers: Record<string, string>;
  readonly details?: unknown;

  constructor({
    status,
    code,
    message,
    shape = 'envelope',
    headers = {},
    details,
    cause,
  }: ApiErrorFields) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.shape = shape;
    this.headers = headers;
    this.details = details;
  }
}

export const invalidParameters = (message: string, details?: unknown) =>
  new ApiError({ status: 400, code: 'invalid_parameters', message, details });
export const notJsonBody = () =>
  new ApiError({
    status: 415,
    code: 'unsupported_media_type',
    message: 'Send the body as JSON with Content-Type: application/json',
  });
export const invalidJson = () =>
  new ApiError({
    status: 400,
    code: 'invalid_json',
    message: 'The request body is not valid JSON',
  });
export const unreadableBody = () =>
  new ApiError({
    status: 400,
    code: 'invalid_json',
    message:
      'The request body could not be read: it does not match its Content-Encoding (gzip, deflate and br are accepted) or its Content-Length',
  });
/** A 429 of a per-minute limit the facade keeps: a key's, or a key-less route's per IP. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ApiError({
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    message,
    headers: {
      'Retry-After': String(retryAfterSeconds),
    },
  });
export const monthlyLimitExceeded = (message: string) =>
  new ApiError({ status: 429, code: 'MONTHLY_LIMIT_EXCEEDED', message });
export const notFound = (message = 'No such endpoint') =>
  new ApiError({ status: 404, code: 'not_found', message });
export const methodNotAllowed = (allow: string[]) =>
  new ApiError({
    status: 405,
    code: 'method_not_allowed',
    message: `This endpoint accepts ${allow.join(', ')} only`,
    headers: { Allow: allow.join(', ') },
  });
/** Mounted after a path's routes: any other method gets 405 with the `Allow` header. */
export const rejectOtherMethods =
  (allow: string[]) => (_req: unknown, _res: unknown, next: (error: ApiError) => void) =>
    next(methodNotAllowed(allow));
export const upstreamUnavailable = (cause?: unknown) =>
  new ApiError({
    status: 503,
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable; retry shortly',
    cause,
  });
/** `cause` is logged with the request id by the error mapper, never sent to the client. */
export const internalError = (cause?: unknown) =>
  new ApiError({
    status: 500,
    code: 'internal_error',
    message: 'Something went wrong on our side',
    cause,
  });

/** The API key is missing, malformed, unknown or revoked (the auth-shaped body). */
export const invalidApiKey = (
  message = 'The API key is missing, malformed, unknown or no longer valid',
) => new ApiError({ status: 401, code: 'invalid_api_key', message, shape: 'auth' });

/** `keyId` is for the call log (the auth-shaped body carries no details). */
export const keyExpired = (keyId: string) =>
  new ApiError({
    status: 401,
    code: 'key_expired',
    message: 'The API key has expired; create a new key in the dashboard',
    shape: 'auth',
    details: { keyId },
  });

export const forbidden = (message: string) =>
  new ApiError({ status: 403, code: 'forbidden', message, shape: 'auth' });

export const accessTokenRequired = () =>
  new ApiError({
    status: 401,
    code: 'invalid_access_token',
    message: 'Send an access token in the Authorization header: Bearer wat_…',
    shape: 'auth',
  });

export const apiKeyNotAccepted = () =>
  new ApiError({
    status: 401,
    code: 'invalid_access_token',
    message:
      'Webhook management requires an access token (Authorization: Bearer wat_…), not an API key',
    shape: 'auth',
  });

export const unknownTrackingCode = () =>
  new ApiError({
    status: 404,
    code: 'unknown_tracking_code',
    message: 'No website has this tracking code',
  });

/** 503 with Retry-After: Redis cannot take events now and this facade cannot hold more. */
export const collectionUnavailable = (message: string, retryAfterSeconds: number) => {
  const error = new ApiError({
    status: 503,
    code: 'service_unavailable',
    message,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
  // The writer warns once per outage; refused beacons are not logged one by one.
  error.outageLogged = true;
  return error;
};
export const payloadTooLarge = () =>
  new ApiError({
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is too large',
  });
export const unsupportedEncoding = () =>
  new ApiError({
    status: 415,
    code: 'unsupported_media_type',
    message: 'The request body encoding is not supported',
  });
