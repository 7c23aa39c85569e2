import { AppError, notFound } from '../../../common/platform/errors';
import type { DestinationRefusedError } from './domain/destination-policy';

/** Webhook management belongs to dashboard users: an access token, never an API key. */
export const accessTokenRequired = () =>
  new AppError(
    'invalid_access_token',
    'Webhook management requires an access token (Authorization: Bearer wat_…)',
    401,
  );

/** Unknown, revoked and someone else's webhooks all look the same: not found. */
export const webhookNotFound = () => notFound('Webhook');

export const invalidWebhookUrl = (error: DestinationRefusedError) =>
  new AppError('invalid_webhook_url', error.message, 400, { reason: error.reason });

export const invalidEventTypes = (unknown: string[]) =>
  new AppError(
    'invalid_parameters',
    `Unknown or unsubscribable event types: ${unknown.join(', ')}`,
    400,
    { eventTypes: unknown },
  );

export const tooManyWebhooks = (limit: number) =>
  new AppError('webhook_limit_reached', `A user may have at most ${limit} webhooks`, 409);

export const tooManyTests = (limit: number, retryAfterSeconds: number) =>
  new AppError(
    'RATE_LIMIT_EXCEEDED',
    `Webhook tests are limited to ${limit} per minute; retry in ${retryAfterSeconds} seconds`,
    429,
    { retryAfterSeconds },
  );
