/**
 * The answers routes share: the error bodies, the documented headers and the error responses
 * every route of a family can give. A route lists its error answers by status, from these or its
 * own (`errorResponse`); the OpenAPI document is generated from those lists.
 */
import { z } from 'zod';

/** OpenAPI header objects or references, by header name. */
export type DocumentedHeaders = Record<string, Record<string, unknown>>;

/** An error answer of a route: which body shape, which codes, which headers. */
export interface ErrorResponse {
  /** Published once as `#/components/responses/<component>` and referenced; absent: inline. */
  component?: string;
  description: string;
  shape: 'AuthError' | 'EnvelopeError';
  codes: readonly string[];
  headers?: DocumentedHeaders;
}

export const errorResponse = (
  description: string,
  codes: readonly string[],
  headers?: DocumentedHeaders,
): ErrorResponse => ({
  description,
  shape: 'EnvelopeError',
  codes,
  ...(headers ? { headers } : {}),
});

/** The spec's two error bodies (envelope.ts writes them). */
export const AuthErrorSchema = z
  .strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) })
  .meta({
    id: 'AuthError',
    description:
      'Authentication and permission errors (invalid_api_key, key_expired, forbidden, API_PAID_PLAN_REQUIRED; invalid_access_token for webhook management).',
  });
export const EnvelopeErrorSchema = z
  .strictObject({
    success: z.literal(false),
    error: z.strictObject({
      code: z.string(),
      message: z.string(),
      timestamp: z.iso.datetime(),
      details: z
        .unknown()
        .optional()
        .meta({ description: 'Machine-readable detail of what was wrong, where available.' }),
    }),
  })
  .meta({ id: 'EnvelopeError', description: 'Rate-limit, quota and every other error.' });

/** Header components, referenced by name. */
export const HEADER_COMPONENTS = {
  'X-Request-Id': {
    description:
      'A UUID unique to this response, on every response of the facade; quote it when reporting a problem (our logs carry it for every 5xx).',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  'X-RateLimit-Limit': { description: 'Per-minute request limit.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in this minute window; absent when no exact count is available.',
    schema: { type: 'integer' },
  },
  'X-Usage-Monthly': { description: 'Requests used this month.', schema: { type: 'integer' } },
  'X-Usage-Limit': { description: 'Monthly request limit.', schema: { type: 'integer' } },
  'X-Usage-Reset': {
    description: 'ISO 8601 time when monthly usage resets.',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-Usage-Total': {
    description: 'Total requests ever made with this key.',
    schema: { type: 'integer' },
  },
  'Retry-After': {
    description: 'Seconds until the per-minute window resets (RATE_LIMIT_EXCEEDED only).',
    schema: { type: 'integer' },
  },
  'WWW-Authenticate': {
    description:
      'On every 401: `Bearer realm="api"`, with `error="invalid_token"` when a credential was sent (RFC 6750).',
    required: true,
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the path accepts.', schema: { type: 'string' } },
  'X-Cache': {
    description:
      'How the read cache answered (not in the spec; for debugging): HIT (a cached answer, current for the data behind it), MISS (computed and stored), BYPASS (computed; Redis could not tell whether a cached answer was current).',
    required: true,
    schema: { type: 'string', enum: ['HIT', 'MISS', 'BYPASS'] as string[] },
  },
} as const;
type HeaderName = keyof typeof HEADER_COMPONENTS;

export const headerRefs = (...names: HeaderName[]): DocumentedHeaders =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** The spec's header table, on every answer to an identified key. */
export const USAGE_HEADERS = headerRefs(
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-Usage-Monthly',
  'X-Usage-Limit',
  'X-Usage-Reset',
  'X-Usage-Total',
);
export const RETRY_AFTER = headerRefs('Retry-After');
export const WWW_AUTHENTICATE = headerRefs('WWW-Authenticate');
/** Public routes are readable from any origin. */
export const CORS_HEADERS: DocumentedHeaders = {
  'Access-Control-Allow-Origin': { schema: { const: '*' } },
};

const shared = (
  component: string,
  description: string,
  shape: ErrorResponse['shape'],
  codes: readonly string[],
  headers: DocumentedHeaders,
): ErrorResponse => ({ component, description, shape, codes, headers });

export const BAD_REQUEST = shared(
  'BadRequest',
  'invalid_parameters: a bad value, a path segment that is not valid percent-encoding, or a query parameter this operation does not list (such parameters are refused, not ignored; details.unknown and details.accepted name them).',
  'EnvelopeError',
  ['invalid_parameters'],
  USAGE_HEADERS,
);
export const BAD_REQUEST_BODY = shared(
  'BadRequestBody',
  'invalid_parameters (a bad value in the body or the query, or a query parameter this operation does not list) or invalid_json (the body is not JSON, or its bytes do not match their Content-Encoding or length).',
  'EnvelopeError',
  ['invalid_parameters', 'invalid_json'],
  USAGE_HEADERS,
);
export const UNAUTHORIZED = shared(
  'Unauthorized',
  'invalid_api_key or key_expired. Not counted.',
  'AuthError',
  ['invalid_api_key', 'key_expired'],
  WWW_AUTHENTICATE,
);
export const FORBIDDEN = shared(
  'Forbidden',
  'forbidden (permission or website access) or API_PAID_PLAN_REQUIRED.',
  'AuthError',
  ['forbidden', 'API_PAID_PLAN_REQUIRED'],
  USAGE_HEADERS,
);
export const NOT_FOUND = shared(
  'NotFound',
  'not_found: unknown website or path.',
  'EnvelopeError',
  ['not_found'],
  USAGE_HEADERS,
);
/** Every route's other methods (the wiring answers them from the declarations). */
export const METHOD_NOT_ALLOWED = shared(
  'MethodNotAllowed',
  'method_not_allowed; the Allow header lists the methods.',
  'EnvelopeError',
  ['method_not_allowed'],
  headerRefs('Allow'),
);
export const PAYLOAD_TOO_LARGE = shared(
  'PayloadTooLarge',
  'payload_too_large: the body exceeds 64 KiB.',
  'EnvelopeError',
  ['payload_too_large'],
  USAGE_HEADERS,
);
export const UNSUPPORTED_MEDIA_TYPE = shared(
  'UnsupportedMediaType',
  'unsupported_media_type: the body is not sent as application/json (curl -d sends a form unless told otherwise), or in a Content-Encoding or charset the server does not read.',
  'EnvelopeError',
  ['unsupported_media_type'],
  USAGE_HEADERS,
);
export const TOO_MANY_REQUESTS = shared(
  'TooManyRequests',
  'RATE_LIMIT_EXCEEDED (with Retry-After) or MONTHLY_LIMIT_EXCEEDED (without; see X-Usage-Reset).',
  'EnvelopeError',
  ['RATE_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED'],
  { ...USAGE_HEADERS, ...RETRY_AFTER },
);
export const INTERNAL_ERROR = shared(
  'InternalError',
  'internal_error.',
  'EnvelopeError',
  ['internal_error'],
  USAGE_HEADERS,
);
export const UNAVAILABLE = shared(
  'Unavailable',
  'service_unavailable: the gateway or a service behind it cannot be reached; retry shortly.',
  'EnvelopeError',
  ['service_unavailable'],
  USAGE_HEADERS,
);

/** The error answers every API-key route can give. */
export const API_KEY_ERRORS = {
  400: BAD_REQUEST,
  401: UNAUTHORIZED,
  403: FORBIDDEN,
  404: NOT_FOUND,
  405: METHOD_NOT_ALLOWED,
  429: TOO_MANY_REQUESTS,
  500: INTERNAL_ERROR,
  503: UNAVAILABLE,
};

/** Further answers of the API-key routes that take a body (POST /query). */
export const API_KEY_BODY_ERRORS = {
  400: BAD_REQUEST_BODY,
  413: PAYLOAD_TOO_LARGE,
  415: UNSUPPORTED_MEDIA_TYPE,
};
