/** GraphQL shapes of the webhook operations and their REST (snake_case) presentation. */
export interface WebhookFields {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: string;
  disabledReason: string | null;
  createdAt: string;
  secretRotatedAt: string | null;
}

export interface TestResultFields {
  deliveryId: string;
  eventId: string;
  success: boolean;
  statusCode: number | null;
  responseBody: string;
  responseBodyTruncated: boolean;
  durationMs: number;
  error: string | null;
}

export function presentWebhook(w: WebhookFields) {
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

export function presentTestResult(r: TestResultFields) {
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
