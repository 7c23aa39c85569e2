import { badInput } from '../../../../common/platform/errors';
import { parseIsoDateTime } from '../../../../common/platform/iso-instant';
import type { MutationResolvers } from '../generated/resolvers-types';
import { managingUser } from './caller';

export const Mutation: MutationResolvers = {
  createWebhook: (_, { input }, ctx) =>
    ctx.deps.webhooks.register({
      userId: managingUser(ctx.identity),
      url: input.url,
      description: input.description ?? null,
      eventTypes: input.eventTypes ?? [],
    }),

  testWebhook: async (_, { id }, ctx) => {
    const webhook = await ctx.deps.webhooks.getOwned(managingUser(ctx.identity), id);
    return ctx.deps.deliveries.sendTest(webhook);
  },

  redeliverWebhookDelivery: async (_, { webhookId, deliveryId }, ctx) => {
    const webhook = await ctx.deps.webhooks.getOwned(managingUser(ctx.identity), webhookId);
    return ctx.deps.deliveries.redeliver(webhook, deliveryId);
  },

  recoverWebhookDeliveries: async (_, { webhookId, since }, ctx) => {
    const webhook = await ctx.deps.webhooks.getOwned(managingUser(ctx.identity), webhookId);
    const from = parseIsoDateTime(since);
    if (!from) throw badInput(`since: not an ISO 8601 instant (${since})`);
    return { queued: await ctx.deps.deliveries.recover(webhook, from) };
  },

  enableWebhook: (_, { id }, ctx) => ctx.deps.webhooks.enable(managingUser(ctx.identity), id),

  rotateWebhookSecret: (_, { id }, ctx) => ctx.deps.webhooks.rotate(managingUser(ctx.identity), id),

  deleteWebhook: async (_, { id }, ctx) => {
    const webhook = await ctx.deps.webhooks.revoke(managingUser(ctx.identity), id);
    await ctx.deps.deliveries.cancelPending(webhook.id);
    return webhook;
  },
};
