/** The webhook operations' data in its REST (snake_case) presentation. */
import type {
  WebhookDeliveriesQuery,
  WebhookFieldsFragment,
  WebhookSendFieldsFragment,
} from '../generated/operations';

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
    alerts: {
      website_ids: w.alerts.websiteIds ?? null,
      spike_ratio: w.alerts.spikeRatio,
      drop_ratio: w.alerts.dropRatio,
      report_hour: w.alerts.reportHour,
      goal_every: w.alerts.goalEvery ?? null,
    },
  };
}

/** A test's or a redelivery's outcome. */
export function presentTestResult(r: WebhookSendFieldsFragment) {
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

export function presentDeliveryPage(page: WebhookDeliveriesQuery['webhookDeliveries']) {
  const last = page.deliveries.at(-1);
  return {
    deliveries: page.deliveries.map((d) => ({
      id: d.id,
      event_id: d.eventId,
      event_type: d.eventType,
      status: d.status.toLowerCase(),
      test: d.test,
      created_at: d.createdAt,
      next_attempt_at: d.nextAttemptAt,
      attempts: d.attempts.map((a) => ({
        attempt: a.attempt,
        at: a.at,
        status_code: a.statusCode,
        duration_ms: a.durationMs,
        error: a.error,
        response_body: a.responseBody,
      })),
    })),
    has_more: page.hasMore,
    next_starting_after: page.hasMore && last ? last.id : null,
  };
}
