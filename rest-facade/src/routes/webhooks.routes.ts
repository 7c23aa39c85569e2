import type { Request } from 'express';
import { z } from 'zod';
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  EnableWebhookDocument,
  WebhookEventCatalogueDocument,
  ListWebhooksDocument,
  RecoverWebhookDeliveriesDocument,
  RedeliverWebhookDeliveryDocument,
  RotateWebhookSecretDocument,
  SetWebhookAlertsDocument,
  TestWebhookDocument,
  WebhookDeliveriesDocument,
} from '../generated/operations';
import {
  ALERTS_REQUEST_EXAMPLE,
  CREATE_WEBHOOK_REQUEST_EXAMPLE,
  EVENT_TYPES_EXAMPLE,
  RECOVER_REQUEST_EXAMPLE,
  RECOVERY_EXAMPLE,
  ROTATED_SECRET_EXAMPLE,
  WEBHOOK_EXAMPLE,
  WEBHOOK_DELIVERY_PAGE_EXAMPLE,
  WEBHOOK_TEST_RESULT_EXAMPLE,
  WEBHOOK_WITH_SECRET_EXAMPLE,
} from '../openapi/examples';
import {
  presentDeliveryPage,
  presentTestResult,
  presentWebhook,
} from '../webhooks/webhook.presenter';
import { DELIVERIES_QUERY, parseDeliveryQuery } from './deliveries-query';
import { param, WEBHOOKS_BASE } from './common';
import { WEBHOOK_ID } from './path-ids';
import { errorResponse, METHOD_NOT_ALLOWED, RETRY_AFTER, WWW_AUTHENTICATE } from './responses';
import { accessTokenRoute, type AccessTokenRoute } from './route';
import {
  alertsBody,
  alertsInput,
  createWebhookBody,
  recoverBody,
  RotatedSecretSchema,
  WebhookDeliveryPageSchema,
  WebhookEventTypesSchema,
  WebhookListSchema,
  WebhookRecoverySchema,
  WebhookSchema,
  WebhookTestResultSchema,
  WebhookWithSecretSchema,
} from './webhooks.schema';

const ID_PARAMS = z.object({
  id: z.string().meta({ param: { description: 'Webhook id (from creation or the list)' } }),
});

const ERRORS = {
  401: {
    description:
      'invalid_access_token: no bearer token, or an unknown, revoked or non-access token (an API key).',
    shape: 'AuthError',
    codes: ['invalid_access_token'],
    headers: WWW_AUTHENTICATE,
  },
  405: METHOD_NOT_ALLOWED,
  500: errorResponse('internal_error', ['internal_error']),
  503: errorResponse(
    'service_unavailable: a service behind this one cannot be reached; retry shortly.',
    ['service_unavailable'],
  ),
} as const;
const BAD_ID = errorResponse('invalid_parameters: the id is not valid percent-encoding.', [
  'invalid_parameters',
]);
const NOT_FOUND = errorResponse(
  'not_found: unknown, deleted or another user’s webhook (indistinguishable).',
  ['not_found'],
);
const CONFLICT = errorResponse(
  'conflict: another change of this webhook held it for over 10 s; nothing changed, retry.',
  ['conflict'],
);

const TOO_MANY_SENDS = errorResponse(
  'RATE_LIMIT_EXCEEDED: more than 10 tests and redeliveries in a minute; see Retry-After.',
  ['RATE_LIMIT_EXCEEDED'],
  RETRY_AFTER,
);

/** What every webhook-management route shares: a dashboard access token, no limits of a key. */
const management = { auth: 'accessToken', counted: false, tag: 'Webhooks' } as const;

const byId = (req: Request) => ({ id: param(req, 'id') });

const DELIVERY_PARAMS = ID_PARAMS.extend({
  deliveryId: z.string().meta({ param: { description: 'Delivery id (from the deliveries list)' } }),
});

/** `/v1/cli/mutate/webhooks`: webhook management with a bearer access token. */
export const WEBHOOK_ROUTES: AccessTokenRoute[] = [
  accessTokenRoute({
    ...management,
    method: 'post',
    path: WEBHOOKS_BASE,
    operation: CreateWebhookDocument,
    body: {
      schema: createWebhookBody,
      component: 'CreateWebhookRequest',
      mediaTypes: ['application/json'],
      example: CREATE_WEBHOOK_REQUEST_EXAMPLE,
      limit: '16kb',
    },
    invalidBody:
      'The body must be {"url": string, "description"?: string, "event_types"?: string[]}',
    variables: (_req, { url, description, event_types: eventTypes, alerts }) => ({
      input: {
        url,
        description: description ?? null,
        eventTypes: eventTypes ?? [],
        ...(alerts ? { alerts: alertsInput(alerts) } : {}),
      },
    }),
    present: (data) => {
      const { webhook, secret } = data.createWebhook;
      return { ...presentWebhook(webhook), secret };
    },
    operationId: 'createWebhook',
    summary: 'Create a webhook; the signing secret is returned only here',
    description:
      'The URL must be absolute http(s); in production only https. Destinations resolving to loopback, private, link-local (cloud metadata), CGNAT, multicast or other reserved addresses are refused, before and again at each delivery. At most 20 webhooks per user.',
    response: {
      status: 201,
      description: 'The webhook and its signing secret (shown once)',
      schema: WebhookWithSecretSchema,
      example: WEBHOOK_WITH_SECRET_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: errorResponse(
        'invalid_json, invalid_parameters (body shape, unknown event type) or invalid_webhook_url (details.reason: not_absolute_http_url, https_required, credentials_in_url, invalid_port, url_too_long, forbidden_address, unresolvable_host).',
        ['invalid_json', 'invalid_parameters', 'invalid_webhook_url'],
      ),
      409: errorResponse(
        'webhook_limit_reached: the user already has 20 webhooks; or conflict: another creation by the same user held the count for over 10 s (nothing changed, retry).',
        ['webhook_limit_reached', 'conflict'],
      ),
      413: errorResponse('payload_too_large: the body exceeds 16 KiB.', ['payload_too_large']),
      415: errorResponse(
        'unsupported_media_type: the body is not application/json, or is in a Content-Encoding or charset the server does not read.',
        ['unsupported_media_type'],
      ),
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'get',
    path: WEBHOOKS_BASE,
    operation: ListWebhooksDocument,
    variables: () => ({}),
    present: (data) => ({ webhooks: data.myWebhooks.map(presentWebhook) }),
    operationId: 'listWebhooks',
    summary: 'The caller’s webhooks, oldest first (never a secret)',
    description:
      'Every live webhook of the user the access token belongs to, with its status; a revoked webhook is no longer listed. Signing secrets are never returned here.',
    response: {
      status: 200,
      description: 'The webhooks',
      schema: WebhookListSchema,
      example: { webhooks: [WEBHOOK_EXAMPLE] },
    },
    errors: ERRORS,
  }),
  accessTokenRoute({
    ...management,
    method: 'get',
    path: `${WEBHOOKS_BASE}/event-types`,
    operation: WebhookEventCatalogueDocument,
    variables: () => ({}),
    present: (data) => ({
      event_types: data.webhookEventCatalogue.map((entry) => ({
        type: entry.type,
        description: entry.description,
        subscribable: entry.subscribable,
        schema: JSON.parse(entry.schema) as Record<string, unknown>,
      })),
    }),
    operationId: 'listWebhookEventTypes',
    summary: 'Every event type, with the JSON Schema of its data',
    description:
      'The catalogue of events a webhook may receive: each type, what it means, whether it can be subscribed to (webhook.test is sent on request only) and the JSON Schema (2020-12) of its data. The envelope every delivery shares is described in docs/webhooks.md.',
    response: {
      status: 200,
      description: 'The event types',
      schema: WebhookEventTypesSchema,
      example: EVENT_TYPES_EXAMPLE,
    },
    errors: ERRORS,
  }),
  accessTokenRoute({
    ...management,
    method: 'get',
    path: `${WEBHOOKS_BASE}/:id/deliveries`,
    operation: WebhookDeliveriesDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    query: DELIVERIES_QUERY,
    variables: (req) => ({ webhookId: param(req, 'id'), ...parseDeliveryQuery(req) }),
    present: (data) => presentDeliveryPage(data.webhookDeliveries),
    operationId: 'listWebhookDeliveries',
    summary: 'A webhook’s deliveries, latest first, each with every attempt',
    description:
      'Every event sent (or to be sent) to the webhook, test deliveries included, kept for the delivery retention period (30 days unless configured): its event id and type, status, next attempt, and each attempt’s status code, duration, error and the start of the answer. Filter by status and by when the delivery was created; page with limit and starting_after (the next_starting_after of the previous page), which is not shifted by deliveries made meanwhile.',
    response: {
      status: 200,
      description: 'A page of deliveries',
      schema: WebhookDeliveryPageSchema,
      example: WEBHOOK_DELIVERY_PAGE_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: errorResponse(
        'invalid_parameters: an unknown query parameter, a status, since, until or limit out of its domain, since not before until, a starting_after that is not a delivery of this webhook, or an id that is not valid percent-encoding.',
        ['invalid_parameters'],
      ),
      404: NOT_FOUND,
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/deliveries/:deliveryId/redeliver`,
    operation: RedeliverWebhookDeliveryDocument,
    params: DELIVERY_PARAMS,
    idParam: WEBHOOK_ID,
    variables: (req) => ({ webhookId: param(req, 'id'), deliveryId: param(req, 'deliveryId') }),
    present: (data) => presentTestResult(data.redeliverWebhookDelivery),
    operationId: 'redeliverWebhookDelivery',
    summary: 'Send a delivery once more, now, and report the receiver’s answer',
    description:
      'For a delivery that succeeded or failed: the same event id and payload (with this attempt’s timestamp, as every attempt has), signed with the current secret, sent once as the delivery’s next attempt (no retries). A 2xx answer makes the delivery succeeded; a failed redelivery leaves it as it was, with the attempt recorded. A receiver answering 410 Gone disables the webhook, as for any delivery. Counted with tests: at most 10 tests and redeliveries per minute per user (429 RATE_LIMIT_EXCEEDED with Retry-After).',
    response: {
      status: 200,
      description: 'Outcome of the redelivery',
      schema: WebhookTestResultSchema,
      example: WEBHOOK_TEST_RESULT_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: BAD_ID,
      404: errorResponse(
        'not_found: unknown, deleted or another user’s webhook, or a delivery that is not one of its deliveries (indistinguishable).',
        ['not_found'],
      ),
      409: errorResponse(
        'conflict: the delivery is still pending; its next attempt comes on its schedule (next_attempt_at).',
        ['conflict'],
      ),
      429: TOO_MANY_SENDS,
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/recover`,
    operation: RecoverWebhookDeliveriesDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    body: {
      schema: recoverBody,
      component: 'RecoverWebhookRequest',
      mediaTypes: ['application/json'],
      example: RECOVER_REQUEST_EXAMPLE,
      limit: '1kb',
    },
    invalidBody: 'The body must be {"since": an ISO 8601 instant with a time zone}',
    variables: (req, { since }) => ({ webhookId: param(req, 'id'), since }),
    present: (data) => data.recoverWebhookDeliveries,
    operationId: 'recoverWebhookDeliveries',
    summary: 'Attempt once more every failed delivery since an instant',
    description:
      'Queues every failed delivery of the webhook created at or after since (test deliveries aside) for one more attempt, now: the same event id and payload, signed with the current secret, final whatever its outcome (no retries). A delivery queued so is pending until that attempt, so recovering twice meanwhile attempts it once. Follow the outcome with the deliveries list. A disabled webhook is 409.',
    response: {
      status: 202,
      description: 'How many deliveries were queued',
      schema: WebhookRecoverySchema,
      example: RECOVERY_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: errorResponse(
        'invalid_json or invalid_parameters: the body is not {"since": an ISO 8601 instant with a time zone}, or the id is not valid percent-encoding.',
        ['invalid_json', 'invalid_parameters'],
      ),
      404: NOT_FOUND,
      409: errorResponse(
        'conflict: the webhook is disabled (its receiver answered 410 Gone): nothing can be delivered to it.',
        ['conflict'],
      ),
      413: errorResponse('payload_too_large: the body exceeds 1 KiB.', ['payload_too_large']),
      415: errorResponse(
        'unsupported_media_type: the body is not application/json, or is in a Content-Encoding or charset the server does not read.',
        ['unsupported_media_type'],
      ),
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/enable`,
    operation: EnableWebhookDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    variables: byId,
    present: (data) => presentWebhook(data.enableWebhook),
    operationId: 'enableWebhook',
    summary: 'Bring a disabled webhook back',
    description:
      'A webhook is disabled when its receiver answers 410 Gone to a delivery. Enabling makes it active again, its disabled_reason cleared: deliveries resume with the next event; what failed meanwhile can be sent again with POST …/{id}/recover. An active webhook is answered as it is.',
    response: {
      status: 200,
      description: 'The webhook, active',
      schema: WebhookSchema,
      example: WEBHOOK_EXAMPLE,
    },
    errors: { ...ERRORS, 400: BAD_ID, 404: NOT_FOUND, 409: CONFLICT },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/alerts`,
    operation: SetWebhookAlertsDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    body: {
      schema: alertsBody,
      component: 'WebhookAlertsRequest',
      mediaTypes: ['application/json'],
      example: ALERTS_REQUEST_EXAMPLE,
      limit: '8kb',
    },
    invalidBody:
      'The body must be {"website_ids"?, "spike_ratio"?, "drop_ratio"?, "report_hour"?} within their bounds',
    variables: (req, body) => ({ id: param(req, 'id'), input: alertsInput(body) }),
    present: (data) => presentWebhook(data.setWebhookAlerts),
    operationId: 'setWebhookAlerts',
    summary: 'Change which analytics findings the webhook gets, and when',
    description:
      "Sets the fields given of the webhook's analytics alert settings; the others keep their values. website_ids: the websites whose traffic.spike, traffic.drop and report.daily are delivered (null: every website the owner may read; a website the owner cannot read gets nothing). spike_ratio and drop_ratio: the change from the hour's baseline that is worth a delivery. report_hour: the UTC hour report.daily goes out. The webhook must also subscribe to those event types (or to all).",
    response: {
      status: 200,
      description: 'The webhook with its new settings',
      schema: WebhookSchema,
      example: WEBHOOK_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: errorResponse(
        'invalid_json or invalid_parameters: the body is not valid alert settings, or the id is not valid percent-encoding.',
        ['invalid_json', 'invalid_parameters'],
      ),
      404: NOT_FOUND,
      409: CONFLICT,
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'delete',
    path: `${WEBHOOKS_BASE}/:id`,
    operation: DeleteWebhookDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    variables: byId,
    operationId: 'deleteWebhook',
    summary: 'Revoke a webhook for good: nothing more is delivered, queued retries included',
    description:
      'Takes effect at once and cannot be undone. An unknown, already revoked or another user’s webhook is 404.',
    response: { status: 204, description: 'Revoked' },
    errors: { ...ERRORS, 400: BAD_ID, 404: NOT_FOUND, 409: CONFLICT },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/test`,
    operation: TestWebhookDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    variables: byId,
    present: (data) => presentTestResult(data.testWebhook),
    operationId: 'testWebhook',
    summary: 'Send a synthetic webhook.test event now and report the receiver’s answer',
    description:
      'Sent once, without retries. A receiver that does not answer still gives 200, with success false and error set. At most 10 tests and redeliveries per minute per user, however they are asked for (REST or GraphQL; 429 RATE_LIMIT_EXCEEDED with Retry-After).',
    response: {
      status: 200,
      description: 'Outcome of the test delivery',
      schema: WebhookTestResultSchema,
      example: WEBHOOK_TEST_RESULT_EXAMPLE,
    },
    errors: {
      ...ERRORS,
      400: BAD_ID,
      404: NOT_FOUND,
      429: TOO_MANY_SENDS,
    },
  }),
  accessTokenRoute({
    ...management,
    method: 'post',
    path: `${WEBHOOKS_BASE}/:id/rotate`,
    operation: RotateWebhookSecretDocument,
    params: ID_PARAMS,
    idParam: WEBHOOK_ID,
    variables: byId,
    present: (data) => {
      const { webhook, secret } = data.rotateWebhookSecret;
      return { id: webhook.id, secret, secret_rotated_at: webhook.secretRotatedAt };
    },
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret; only the new one validates from now on (no overlap)',
    description:
      'The new secret is returned only in this answer. Deliveries from now on are signed with it; signatures made with the old one stop validating at once.',
    response: {
      status: 200,
      description: 'The new secret (shown once)',
      schema: RotatedSecretSchema,
      example: ROTATED_SECRET_EXAMPLE,
    },
    errors: { ...ERRORS, 400: BAD_ID, 404: NOT_FOUND, 409: CONFLICT },
  }),
];
