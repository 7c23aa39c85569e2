/**
 * The spec gives two error bodies: authentication and permission errors are `{error:{code,message}}`;
 * rate and quota errors (and, by our decision, every other API error) are
 * `{success:false, error:{code,message,timestamp}}`.
 */
export type ErrorShape = 'auth' | 'envelope';

export class ApiError extends Error {
  /** The outage behind this 503 is already logged (once per outage): no line per call. */
  outageLogged = false;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly shape: ErrorShape = 'envelope',
    readonly headers: Record<string, string> = {},
    readonly details?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

export const invalidParameters = (message: string, details?: unknown) =>
  new ApiError(400, 'invalid_parameters', message, 'envelope', {}, details);
export const notJsonBody = () =>
  new ApiError(
    415,
    'unsupported_media_type',
    'Send the body as JSON with Content-Type: application/json',
  );
export const invalidJson = () =>
  new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
export const unreadableBody = () =>
  new ApiError(
    400,
    'invalid_json',
    'The request body could not be read: it does not match its Content-Encoding (gzip, deflate and br are accepted) or its Content-Length',
  );
/** A 429 of a per-minute limit the facade keeps: a key's, or a key-less route's per IP. */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'RATE_LIMIT_EXCEEDED', message, 'envelope', {
    'Retry-After': String(retryAfterSeconds),
  });
export const monthlyLimitExceeded = (message: string) =>
  new ApiError(429, 'MONTHLY_LIMIT_EXCEEDED', message);
export const notFound = (message = 'No such endpoint') => new ApiError(404, 'not_found', message);
export const methodNotAllowed = (allow: string[]) =>
  new ApiError(
    405,
    'method_not_allowed',
    `This endpoint accepts ${allow.join(', ')} only`,
    'envelope',
    { Allow: allow.join(', ') },
  );
/** Mounted after a path's routes: any other method gets 405 with the `Allow` header. */
export const rejectOtherMethods =
  (allow: string[]) => (_req: unknown, _res: unknown, next: (error: ApiError) => void) =>
    next(methodNotAllowed(allow));
export const upstreamUnavailable = (cause?: unknown) =>
  new ApiError(
    503,
    'service_unavailable',
    'The service is temporarily unavailable; retry shortly',
    'envelope',
    {},
    undefined,
    { cause },
  );
/** `cause` is logged with the request id by the error mapper, never sent to the client. */
export const internalError = (cause?: unknown) =>
  new ApiError(
    500,
    'internal_error',
    'Something went wrong on our side',
    'envelope',
    {},
    undefined,
    {
      cause,
    },
  );
