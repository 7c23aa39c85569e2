/**
 * OpenAPI 3.1 path items and component schemas of webhook management (`/v1/cli/mutate/webhooks`).
 * Payloads of the events themselves are described in docs/webhooks.md.
 */
import { EVENT_TYPES } from '../../../common/platform-events';
import { createWebhookBody } from '../webhooks/webhooks.router';
import { errorContent, responseRef, successContent } from './core.openapi';
import {
  CREATE_WEBHOOK_REQUEST_EXAMPLE,
  ROTATED_SECRET_EXAMPLE,
  WEBHOOK_EXAMPLE,
  WEBHOOK_TEST_RESULT_EXAMPLE,
  WEBHOOK_WITH_SECRET_EXAMPLE,
} from './examples';
import { jsonSchemaOf } from './json-schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const envelope = (description: string, data: Record<string, unknown>, example: unknown) => ({
  description,
  content: successContent(data, example),
});
const error = (description: string, codes: readonly string[]) => ({
  description,
  content: errorContent('EnvelopeError', codes),
});

const unauthorized = {
  description:
    'invalid_access_token: no bearer token, or an unknown, revoked or non-access token (an API key).',
  headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
  content: errorContent('AuthError', ['invalid_access_token']),
};
const badId = error('invalid_parameters: the id is not valid percent-encoding.', [
  'invalid_parameters',
]);
const notFound = error(
  'not_found: unknown, deleted or another user’s webhook (indistinguishable).',
  ['not_found'],
);
const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'Webhook id (from creation or the list)',
};
const security = [{ AccessToken: [] }];
const common = {
  '401': unauthorized,
  '405': responseRef('MethodNotAllowed'),
  '500': error('internal_error', ['internal_error']),
  '503': error('service_unavailable: a service behind this one cannot be reached; retry shortly.', [
    'service_unavailable',
  ]),
};
const conflict = error(
  'conflict: another change of this webhook held it for over 10 s; nothing changed, retry.',
  ['conflict'],
);

export const WEBHOOKS_PATHS: Record<string, unknown> = {
  '/v1/cli/mutate/webhooks': {
    post: {
      operationId: 'createWebhook',
      tags: ['Webhooks'],
      summary: 'Create a webhook; the signing secret is returned only here',
      description:
        'The URL must be absolute http(s); in production only https. Destinations resolving to loopback, private, link-local (cloud metadata), CGNAT, multicast or other reserved addresses are refused, before and again at each delivery. At most 20 webhooks per user.',
      security,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('CreateWebhookRequest'),
            example: CREATE_WEBHOOK_REQUEST_EXAMPLE,
          },
        },
      },
      responses: {
        '201': envelope(
          'The webhook and its signing secret (shown once)',
          ref('WebhookWithSecret'),
          WEBHOOK_WITH_SECRET_EXAMPLE,
        ),
        '400': error(
          'invalid_json, invalid_parameters (body shape, unknown event type) or invalid_webhook_url (details.reason: not_absolute_http_url, https_required, credentials_in_url, invalid_port, url_too_long, forbidden_address, unresolvable_host).',
          ['invalid_json', 'invalid_parameters', 'invalid_webhook_url'],
        ),
        '409': error(
          'webhook_limit_reached: the user already has 20 webhooks; or conflict: another creation by the same user held the count for over 10 s (nothing changed, retry).',
          ['webhook_limit_reached', 'conflict'],
        ),
        '413': error('payload_too_large: the body exceeds 16 KiB.', ['payload_too_large']),
        '415': error(
          'unsupported_media_type: the body is not application/json, or is in a Content-Encoding or charset the server does not read.',
          ['unsupported_media_type'],
        ),
        ...common,
      },
    },
    get: {
      operationId: 'listWebhooks',
      tags: ['Webhooks'],
      summary: 'The caller’s webhooks, oldest first (never a secret)',
      description:
        'Every live webhook of the user the access token belongs to, with its status; a revoked webhook is no longer listed. Signing secrets are never returned here.',
      security,
      responses: {
        '200': envelope(
          'The webhooks',
          {
            type: 'object',
            required: ['webhooks'],
            additionalProperties: false,
            properties: { webhooks: { type: 'array', items: ref('Webhook') } },
          },
          { webhooks: [WEBHOOK_EXAMPLE] },
        ),
        ...common,
      },
    },
  },
  '/v1/cli/mutate/webhooks/{id}': {
    delete: {
      operationId: 'deleteWebhook',
      tags: ['Webhooks'],
      summary: 'Revoke a webhook for good: nothing more is delivered, queued retries included',
      description:
        'Takes effect at once and cannot be undone. An unknown, already revoked or another user’s webhook is 404.',
      security,
      parameters: [idParameter],
      responses: {
        '204': { description: 'Revoked' },
        '400': badId,
        '404': notFound,
        '409': conflict,
        ...common,
      },
    },
  },
  '/v1/cli/mutate/webhooks/{id}/test': {
    post: {
      operationId: 'testWebhook',
      tags: ['Webhooks'],
      summary: 'Send a synthetic webhook.test event now and report the receiver’s answer',
      description:
        'Sent once, without retries. A receiver that does not answer still gives 200, with success false and error set. At most 10 tests per minute per user, however they are asked for (REST or GraphQL; 429 RATE_LIMIT_EXCEEDED with Retry-After).',
      security,
      parameters: [idParameter],
      responses: {
        '200': envelope(
          'Outcome of the test delivery',
          ref('WebhookTestResult'),
          WEBHOOK_TEST_RESULT_EXAMPLE,
        ),
        '400': badId,
        '404': notFound,
        '429': {
          ...error('RATE_LIMIT_EXCEEDED: more than 10 tests in a minute; see Retry-After.', [
            'RATE_LIMIT_EXCEEDED',
          ]),
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        },
        ...common,
      },
    },
  },
  '/v1/cli/mutate/webhooks/{id}/rotate': {
    post: {
      operationId: 'rotateWebhookSecret',
      tags: ['Webhooks'],
      summary: 'Replace the signing secret; only the new one validates from now on (no overlap)',
      description:
        'The new secret is returned only in this answer. Deliveries from now on are signed with it; signatures made with the old one stop validating at once.',
      security,
      parameters: [idParameter],
      responses: {
        '200': envelope(
          'The new secret (shown once)',
          {
            type: 'object',
            required: ['id', 'secret', 'secret_rotated_at'],
            additionalProperties: false,
            properties: {
              id: { type: 'string' },
              secret: { type: 'string', pattern: '^whsec_' },
              secret_rotated_at: { type: 'string', format: 'date-time' },
            },
          },
          ROTATED_SECRET_EXAMPLE,
        ),
        '400': badId,
        '404': notFound,
        '409': conflict,
        ...common,
      },
    },
  },
};

const eventType = {
  type: 'string',
  // Every subscribable type: the synthetic test event is sent on request only.
  enum: EVENT_TYPES.filter((type) => type !== 'webhook.test'),
};

const webhookProperties = {
  id: { type: 'string' },
  url: { type: 'string', format: 'uri' },
  description: { type: ['string', 'null'] },
  event_types: { type: 'array', items: eventType, description: 'Empty: every event type.' },
  status: {
    type: 'string',
    enum: ['active', 'disabled'],
    description: 'disabled: the receiver answered 410 Gone; nothing more is delivered.',
  },
  disabled_reason: { type: ['string', 'null'] },
  created_at: { type: 'string', format: 'date-time' },
  secret_rotated_at: { type: ['string', 'null'], format: 'date-time' },
};

/** The bounds are the router's (zod); event types are the subscribable ones the service takes. */
function createWebhookRequest(): Record<string, unknown> {
  const schema = jsonSchemaOf(createWebhookBody);
  const {
    url,
    event_types: eventTypes,
    ...properties
  } = schema.properties as Record<string, Record<string, unknown>>;
  return {
    ...schema,
    properties: {
      url: {
        ...url,
        description: 'Absolute https URL of the receiver (http allowed outside production).',
      },
      ...properties,
      event_types: {
        ...eventTypes,
        items: eventType,
        description: 'Event types to deliver; omitted or empty: all.',
      },
    },
  };
}

export const WEBHOOKS_SCHEMAS: Record<string, unknown> = {
  CreateWebhookRequest: createWebhookRequest(),
  Webhook: {
    type: 'object',
    required: Object.keys(webhookProperties),
    additionalProperties: false,
    properties: webhookProperties,
  },
  WebhookWithSecret: {
    type: 'object',
    required: [...Object.keys(webhookProperties), 'secret'],
    additionalProperties: false,
    properties: {
      ...webhookProperties,
      secret: {
        type: 'string',
        pattern: '^whsec_',
        description: 'Signing secret; shown only now.',
      },
    },
  },
  WebhookTestResult: {
    type: 'object',
    required: [
      'delivery_id',
      'event_id',
      'success',
      'status_code',
      'response_body',
      'response_body_truncated',
      'duration_ms',
      'error',
    ],
    additionalProperties: false,
    properties: {
      delivery_id: { type: 'string' },
      event_id: { type: 'string', description: 'id of the synthetic webhook.test event' },
      success: { type: 'boolean', description: 'The receiver answered 2xx.' },
      status_code: {
        type: ['integer', 'null'],
        description: 'null when the receiver did not answer.',
      },
      response_body: {
        type: 'string',
        description: 'The receiver’s answer, truncated to 2048 bytes.',
      },
      response_body_truncated: { type: 'boolean' },
      duration_ms: {
        type: 'integer',
        description: 'From sending the request to reading the answer.',
      },
      error: {
        type: ['string', 'null'],
        description:
          'Why there was no answer: timeout, a connection error code, destination refused…',
      },
    },
  },
};
