/**
 * The query parameters of GET /v1/cli/mutate/webhooks/{id}/deliveries: which deliveries, and a
 * page of them (keyset: after the last delivery of the previous page).
 */
import type { Request } from 'express';
import { z } from 'zod';
import type { WebhookDeliveryStatus } from '../generated/operations';
import { DELIVERY_PAGE } from '../../../common/contracts/page-size';
import { parseIsoDateTime } from '../../../common/platform/iso-instant';
import { invalidParameters } from '../errors';
import { integer, single } from './query-parameters';
import { DELIVERY_STATUSES } from './webhooks.schema';

const instant = (what: string) =>
  z
    .string()
    .optional()
    .meta({
      param: {
        description: `${what} (an ISO 8601 instant with a time zone, e.g. 2026-11-28T00:00:00Z). Anything else: 400.`,
      },
    });

export const DELIVERIES_QUERY = z.object({
  status: z
    .enum(DELIVERY_STATUSES)
    .optional()
    .meta({ param: { description: 'Only deliveries in this status. Another value: 400.' } }),
  since: instant('Only deliveries created at or after this instant'),
  until: instant('Only deliveries created before this instant'),
  limit: z
    .number()
    .int()
    .min(1)
    .default(DELIVERY_PAGE.defaultLimit)
    .optional()
    .meta({
      param: {
        description: `Deliveries per page, default ${DELIVERY_PAGE.defaultLimit}; any value above ${DELIVERY_PAGE.maxLimit} is clamped to ${DELIVERY_PAGE.maxLimit}. 0, negative, non-integer or empty: 400.`,
      },
    }),
  starting_after: z
    .string()
    .optional()
    .meta({
      param: {
        description:
          'The next_starting_after of the previous page: this page starts after that delivery. One that is not a delivery of this webhook: 400.',
      },
    }),
});

function instantOf(req: Request, name: string): string | null {
  const value = single(req, name);
  if (value === undefined) return null;
  const at = parseIsoDateTime(value);
  if (!at)
    throw invalidParameters(
      `${name} must be an ISO 8601 instant with a time zone (got ${JSON.stringify(value)})`,
    );
  return at.toISOString();
}

/** The operation's variables for the deliveries asked for; a 400 naming the parameter otherwise. */
export function parseDeliveryQuery(req: Request) {
  const status = single(req, 'status');
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw invalidParameters(
      `status must be one of ${DELIVERY_STATUSES.join(', ')} (got ${JSON.stringify(status)})`,
    );
  const since = instantOf(req, 'since');
  const until = instantOf(req, 'until');
  if (since && until && since >= until) throw invalidParameters('since must be before until');
  const startingAfter = single(req, 'starting_after');
  if (startingAfter === '') throw invalidParameters('starting_after must not be empty');
  return {
    status: status === undefined ? null : (status.toUpperCase() as WebhookDeliveryStatus),
    since,
    until,
    limit: Math.min(integer(req, 'limit', DELIVERY_PAGE.defaultLimit, 1), DELIVERY_PAGE.maxLimit),
    startingAfter: startingAfter ?? null,
  };
}
