import type { WebhookDeliveryStatus, WebhookStatus } from '../../gql/graphql';

export const WEBHOOK_STATUS_LABELS: Record<WebhookStatus, string> = {
  ACTIVE: 'Active',
  DISABLED: 'Disabled',
  REVOKED: 'Revoked',
};

export const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  PENDING: 'Pending',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** An empty subscription means every event type. */
export const eventsLabel = (eventTypes: readonly string[]): string =>
  eventTypes.length === 0 ? 'All events' : eventTypes.join(', ');
