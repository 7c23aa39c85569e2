/**
 * The shared parts of the OpenAPI document: envelopes, errors, usage headers, and the account
 * routes (/websites, /usage). Other route families add their paths beside these.
 */
import { EXAMPLE_NOW, OPENAPI_EXAMPLE, USAGE_EXAMPLE, WEBSITE_EXAMPLE } from './examples';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const usageHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-Usage-Monthly': { $ref: '#/components/headers/X-Usage-Monthly' },
  'X-Usage-Limit': { $ref: '#/components/headers/X-Usage-Limit' },
  'X-Usage-Reset': { $ref: '#/components/headers/X-Usage-Reset' },
  'X-Usage-Total': { $ref: '#/components/headers/X-Usage-Total' },
};

/** The success envelope around `dataSchema`, with `data` as its example. */
export function successContent(dataSchema: Record<string, unknown>, data: unknown) {
  return {
    'application/json': {
      schema: {
        type: 'object',
        required: ['success', 'data', 'timestamp'],
        additionalProperties: false,
        properties: {
          success: { const: true },
          data: dataSchema,
          timestamp: { type: 'string', format: 'date-time' },
        },
      },
      example: { success: true, data, timestamp: EXAMPLE_NOW },
    },
  };
}

/** A success response of an External API call whose `data` matches `dataSchema`. */
export function successResponse(
  description: string,
  dataSchema: Record<string, unknown>,
  data: unknown,
) {
  return { description, headers: usageHeaders, content: successContent(dataSchema, data) };
}

/**
 * An error body in one of the spec's two shapes (`AuthError`: authentication and permission;
 * `EnvelopeError`: every other), narrowed to the codes this response can carry.
 */
export function errorContent(shape: 'AuthError' | 'EnvelopeError', codes: readonly string[]) {
  return {
    'application/json': {
      schema: {
        allOf: [
          ref(shape),
          { properties: { error: { properties: { code: { enum: [...codes] } } } } },
        ],
      },
    },
  };
}

/** The error responses every authenticated External API route can give. */
export const STANDARD_ERRORS = {
  '400': responseRef('BadRequest'),
  '401': responseRef('Unauthorized'),
  '403': responseRef('Forbidden'),
  '404': responseRef('NotFound'),
  '405': responseRef('MethodNotAllowed'),
  '429': responseRef('TooManyRequests'),
  '500': responseRef('InternalError'),
  '503': responseRef('Unavailable'),
};

/** Further answers of the routes that take a body (POST /query). */
export const BODY_ERRORS = {
  '400': responseRef('BadRequestBody'),
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
};

export const websiteIdParameter = {
  name: 'websiteId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'Website id (from GET /websites)',
};

export const CORE_SCHEMAS = {
  AuthError: {
    type: 'object',
    description:
      'Authentication and permission errors (invalid_api_key, key_expired, forbidden, API_PAID_PLAN_REQUIRED; invalid_access_token for webhook management).',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  EnvelopeError: {
    type: 'object',
    description: 'Rate-limit, quota and every other error.',
    required: ['success', 'error'],
    additionalProperties: false,
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message', 'timestamp'],
        additionalProperties: false,
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          timestamp: { type: 'string', format: 'date-time' },
          details: { description: 'Machine-readable detail of what was wrong, where available.' },
        },
      },
    },
  },
  Website: {
    type: 'object',
    required: ['id', 'name', 'domain', 'tracking_code', 'created_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      domain: { type: 'string' },
      tracking_code: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  Usage: {
    type: 'object',
    required: [
      'tier',
      'monthly_requests',
      'monthly_limit',
      'remaining_requests',
      'requests_per_minute',
      'reset_at',
      'total_requests',
    ],
    additionalProperties: false,
    properties: {
      tier: { enum: ['pro', 'scale', 'enterprise'] },
      monthly_requests: {
        type: ['integer', 'null'],
        description:
          'Requests counted this month, this one included; null while the counter store is unavailable.',
      },
      monthly_limit: { type: 'integer' },
      remaining_requests: { type: ['integer', 'null'] },
      requests_per_minute: { type: 'integer' },
      reset_at: {
        type: 'string',
        format: 'date-time',
        description: '00:00 UTC on the first day of next month.',
      },
      total_requests: {
        type: ['integer', 'null'],
        description: 'All requests ever made with this key.',
      },
    },
  },
};

export const CORE_COMPONENTS = {
  securitySchemes: {
    ApiKeyHeader: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'Recommended. The key starts with svc_.',
    },
    BearerApiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_…' },
    AccessToken: {
      type: 'http',
      scheme: 'bearer',
      description: 'Webhook management: Authorization: Bearer wat_…',
    },
  },
  headers: {
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
    Allow: {
      description: 'The methods the path accepts.',
      schema: { type: 'string' },
    },
  },
  responses: {
    BadRequest: {
      description:
        'invalid_parameters: a bad value, a path segment that is not valid percent-encoding, or a query parameter this operation does not list (such parameters are refused, not ignored; details.unknown and details.accepted name them).',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['invalid_parameters']),
    },
    BadRequestBody: {
      description:
        'invalid_parameters (a bad value in the body or the query, or a query parameter this operation does not list) or invalid_json (the body is not JSON, or its bytes do not match their Content-Encoding or length).',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['invalid_parameters', 'invalid_json']),
    },
    Unauthorized: {
      description: 'invalid_api_key or key_expired. Not counted.',
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
      content: errorContent('AuthError', ['invalid_api_key', 'key_expired']),
    },
    Forbidden: {
      description: 'forbidden (permission or website access) or API_PAID_PLAN_REQUIRED.',
      headers: usageHeaders,
      content: errorContent('AuthError', ['forbidden', 'API_PAID_PLAN_REQUIRED']),
    },
    NotFound: {
      description: 'not_found: unknown website or path.',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['not_found']),
    },
    MethodNotAllowed: {
      description: 'method_not_allowed; the Allow header lists the methods.',
      headers: { Allow: { $ref: '#/components/headers/Allow' } },
      content: errorContent('EnvelopeError', ['method_not_allowed']),
    },
    PayloadTooLarge: {
      description: 'payload_too_large: the body exceeds 64 KiB.',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['payload_too_large']),
    },
    UnsupportedMediaType: {
      description:
        'unsupported_media_type: the body is not sent as application/json (curl -d sends a form unless told otherwise), or in a Content-Encoding or charset the server does not read.',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['unsupported_media_type']),
    },
    TooManyRequests: {
      description:
        'RATE_LIMIT_EXCEEDED (with Retry-After) or MONTHLY_LIMIT_EXCEEDED (without; see X-Usage-Reset).',
      headers: { ...usageHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: errorContent('EnvelopeError', ['RATE_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED']),
    },
    InternalError: {
      description: 'internal_error.',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['internal_error']),
    },
    Unavailable: {
      description:
        'service_unavailable: the gateway or a service behind it cannot be reached; retry shortly.',
      headers: usageHeaders,
      content: errorContent('EnvelopeError', ['service_unavailable']),
    },
  },
};

/** Said of every authenticated External API operation (the spec's Limits: each call counts). */
export const COUNTED_CALL =
  'Counts as one request against the monthly quota and the per-minute limit; the usage headers say where the key stands.';

export const CORE_PATHS = {
  '/api/external/v1/websites': {
    get: {
      operationId: 'listWebsites',
      tags: ['Account'],
      summary: 'Websites the key may access',
      description: `The websites of the key's organization that the key may read: all of them, or the ones it was limited to at creation. ${COUNTED_CALL}`,
      responses: {
        '200': successResponse(
          'The websites',
          {
            type: 'object',
            required: ['websites'],
            additionalProperties: false,
            properties: { websites: { type: 'array', items: ref('Website') } },
          },
          { websites: [WEBSITE_EXAMPLE] },
        ),
        ...STANDARD_ERRORS,
      },
    },
  },
  '/api/external/v1/websites/{websiteId}': {
    get: {
      operationId: 'getWebsite',
      tags: ['Account'],
      summary: 'One website',
      description: `One website the key may read. A website outside the key's reach is 403 forbidden; an unknown id is 404. ${COUNTED_CALL}`,
      parameters: [websiteIdParameter],
      responses: {
        '200': successResponse('The website', ref('Website'), WEBSITE_EXAMPLE),
        ...STANDARD_ERRORS,
      },
    },
  },
  '/api/external/v1/usage': {
    get: {
      operationId: 'getUsage',
      tags: ['Account'],
      summary: 'Monthly request count, remaining quota, per-minute limit and tier',
      description: `Usage of the key's billing organization this month, this call included, and its plan's limits. The monthly quota resets at reset_at. ${COUNTED_CALL}`,
      responses: {
        '200': successResponse(
          'Usage of the key’s billing organization',
          ref('Usage'),
          USAGE_EXAMPLE,
        ),
        ...STANDARD_ERRORS,
      },
    },
  },
  '/api/external/v1/openapi.json': {
    get: {
      operationId: 'getOpenApi',
      tags: ['OpenAPI'],
      summary: 'This document',
      description:
        'The OpenAPI 3.1 document of the whole REST surface. Public: no key, not counted, no usage headers.',
      security: [],
      responses: {
        '200': {
          description: 'OpenAPI 3.1 document',
          content: {
            'application/json': { schema: { type: 'object' }, example: OPENAPI_EXAMPLE },
          },
        },
      },
    },
  },
};
