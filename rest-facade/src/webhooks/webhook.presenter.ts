/** The webhook operations' data in its REST (snake_case) presentation. */
import type { TestWebhookMutation, WebhookFieldsFragment } from '../generated/operations';

export function presentWebhook(w: WebhookFieldsFragment) {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    event_types: w.eventTypes,
    status: w.status.toLowerCase(),
    disabled_reason: w.disabledReason,
    created_at: w.createdAt,
    secret_rotated_at: w.secretRotatedAt,
  };
}

export function presentTestResult(r: TestWebhookMutation['testWebhook']) {
  return {
    delivery_id: r.deliveryId,
    event_id: r.eventId,
    success: r.success,
    status_code: r.statusCode,
    response_body: r.responseBody,
    response_body_truncated: r.responseBodyTruncated,
    duration_ms: r.durationMs,
    error: r.error,
  };
}
