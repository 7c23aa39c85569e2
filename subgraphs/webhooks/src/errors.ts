import { AppError, notFound } from '../../../common/platform/errors';
import type { DestinationRefusedError } from './domain/destination-policy';

/** Webhook management belongs to dashboard users: an access token, never an API key. */
export const accessTokenRequired = () =>
  new AppError({
    code: 'invalid_access_token',
    message: 'Webhook management requires an access token (Authorization: Bearer wat_…)',
    status: 401,
  });

/** Unknown, revoked and someone else's webhooks all look the same: not found. */
export const webhookNotFound = () => notFound('Webhook');

export const invalidWebhookUrl = (error: DestinationRefusedError) =>
  new AppError({
    code: 'invalid_webhook_url',
    message: error.message,
    status: 400,
    details: { reason: error.reason },
  });

export const invalidEventTypes = (unknown: string[]) =>
  new AppError({
    code: 'invalid_parameters',
    message: `Unknown or unsubscribable event types: ${unknown.join(', ')}`,
    status: 400,
    details: { eventTypes: unknown },
  });

export const tooManyWebhooks = (limit: number) =>
  new AppError({
    code: 'webhook_limit_reached',
    message: `A user may have at most ${limit} webhooks`,
    status: 409,
  });

export const tooManyTests = (limit: number, retryAfterSeconds: number) =>
  new AppError({
    code: 'RATE_LIMIT_EXCEEDED',
    message: `Webhook tests and redeliveries are limited to ${limit} per minute; retry in ${retryAfterSeconds} seconds`,
    status: 429,
    details: { retryAfterSeconds },
  });

/** A delivery of another webhook, or none: the same answer. */
export const deliveryNotFound = () => notFound('Delivery');

/** A pending delivery is attempted on its schedule; a redelivery would race it. */
export const deliveryPending = () =>
  new AppError({
    code: 'conflict',
    message:
      'The delivery is still pending: its next attempt is on its schedule (next_attempt_at); redeliver it once it has succeeded or failed',
    status: 409,
  });

/** A disabled webhook gets nothing (it answered 410 Gone): recovering would cancel what it queues. */
export const webhookNotActive = () =>
  new AppError({
    code: 'conflict',
    message:
      'The webhook is disabled (its receiver answered 410 Gone): nothing can be delivered to it',
    status: 409,
  });
