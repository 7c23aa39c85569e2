import type { EventType } from '../../../../common/contracts/platform-events';
import { signBody } from './signing-secret';

/** The event as stored with each delivery: what every attempt of it sends. */
export interface StoredEvent {
  id: string;
  type: EventType;
  createdAt: string;
  organizationId: string | null;
  data: Record<string, unknown>;
}

export const HEADER_SIGNATURE = 'X-Webhook-Signature';
export const HEADER_EVENT_ID = 'X-Webhook-Event-Id';
export const HEADER_EVENT_TYPE = 'X-Webhook-Event-Type';
export const HEADER_TIMESTAMP = 'X-Webhook-Timestamp';
export const HEADER_DELIVERY_ID = 'X-Webhook-Delivery-Id';
export const HEADER_ATTEMPT = 'X-Webhook-Attempt';
export const USER_AGENT = 'WebAnalytics-Webhooks/1';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The exact bytes sent and their headers. `timestamp` (Unix seconds, the moment of this attempt)
 * is inside the signed body, so it cannot be altered without breaking the signature; the event
 * `id` stays the same on every attempt, so receivers deduplicate by it.
 */
export function buildSignedRequest(
  event: StoredEvent,
  delivery: { id: string; webhookId: string; attempt: number },
  secret: string,
  now = new Date(),
): SignedRequest {
  const timestamp = Math.floor(now.getTime() / 1_000);
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt,
    timestamp,
    webhook_id: delivery.webhookId,
    organization_id: event.organizationId ?? null,
    data: toSnakeCase(event.data),
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [HEADER_SIGNATURE]: signBody(secret, body),
      [HEADER_EVENT_ID]: event.id,
      [HEADER_EVENT_TYPE]: event.type,
      [HEADER_TIMESTAMP]: String(timestamp),
      [HEADER_DELIVERY_ID]: delivery.id,
      [HEADER_ATTEMPT]: String(delivery.attempt),
    },
  };
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Publishers write `data` in camelCase (TypeScript habit); receivers get snake_case like the rest
 * of the REST API, whatever the publisher used.
 */
export function toSnakeCase(value: unknown): Record<string, unknown> {
  const convert = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(convert);
    if (v && typeof v === 'object' && !(v instanceof Date))
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [snake(k), convert(inner)]));
    return v;
  };
  return convert(value ?? {}) as Record<string, unknown>;
}
