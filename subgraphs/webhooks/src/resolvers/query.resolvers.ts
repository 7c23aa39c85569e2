import { EVENT_CATALOGUE } from '../../../../common/contracts/event-catalogue';
import { EVENT_TYPES } from '../../../../common/contracts/platform-events';
import { badInput } from '../../../../common/platform/errors';
import { parseIsoDateTime } from '../../../../common/platform/iso-instant';
import type { QueryResolvers } from '../generated/resolvers-types';
import { DELIVERY_PAGE } from '../../../../common/contracts/page-size';
import { SUBSCRIBABLE_EVENT_TYPES } from '../services/webhook.service';
import { managingUser } from './caller';

/** The stored lower-case value of a schema enum value (`toLowerCase` is typed as any string). */
const lower = <T extends string>(value: T) => value.toLowerCase() as Lowercase<T>;

/** An ISO 8601 instant argument, or null when absent; a 400 naming it when it is not one. */
function instant(name: string, value: string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const at = parseIsoDateTime(value);
  if (!at) throw badInput(`${name}: not an ISO 8601 instant (${value})`);
  return at;
}

export const Query: QueryResolvers = {
  myWebhooks: (_, __, ctx) => ctx.deps.webhooks.listForUser(managingUser(ctx.identity)),
  webhookEventTypes: () => [...SUBSCRIBABLE_EVENT_TYPES],
  webhookEventCatalogue: () =>
    EVENT_TYPES.map((type) => ({
      type,
      description: EVENT_CATALOGUE[type].description,
      subscribable: SUBSCRIBABLE_EVENT_TYPES.includes(type),
      schema: JSON.stringify(EVENT_CATALOGUE[type].schema),
    })),
  webhookDeliveries: async (_, args, ctx) => {
    const userId = managingUser(ctx.identity);
    const limit = args.limit ?? DELIVERY_PAGE.defaultLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERY_PAGE.maxLimit)
      throw badInput(`limit: an integer from 1 to ${DELIVERY_PAGE.maxLimit}`);
    const request = {
      status: args.status ? lower(args.status) : null,
      since: instant('since', args.since),
      until: instant('until', args.until),
      limit,
      startingAfter: args.startingAfter ?? null,
    };
    const webhook = await ctx.deps.webhooks.getOwned(userId, args.webhookId);
    return ctx.deps.deliveryLog.page(webhook.id, request);
  },
};
