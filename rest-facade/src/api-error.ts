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
