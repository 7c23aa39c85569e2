import { badInput } from '../../../../common/platform/errors';
import { parseIsoDateTime } from '../../../../common/platform/iso-instant';
import type { MutationResolvers, WebhookAlertsInput } from '../generated/resolvers-types';
import type { AlertSettings } from '../domain/alert-settings';
import { managingUser } from './caller';

export const Mutation: MutationResolvers = {
  createWebhook: (_, { input }, ctx) =>
    ctx.deps.webhooks.register({
      userId: managingUser(ctx.identity),
      url: input.url,
      description: input.description ?? null,
      eventTypes: input.eventTypes ?? [],
      alerts: input.alerts ? alertChanges(input.alerts) : null,
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

  setWebhookAlerts: (_, { id, input }, ctx) =>
    ctx.deps.webhooks.setAlerts(managingUser(ctx.identity), id, alertChanges(input)),

  rotateWebhookSecret: (_, { id }, ctx) => ctx.deps.webhooks.rotate(managingUser(ctx.identity), id),

  deleteWebhook: async (_, { id }, ctx) => {
    const webhook = await ctx.deps.webhooks.revoke(managingUser(ctx.identity), id);
    await ctx.deps.deliveries.cancelPending(webhook.id);
    return webhook;
  },
};

/** The settings a WebhookAlertsInput changes: an omitted (or null) field keeps its value, except websiteIds, where null means every website. */
function alertChanges(input: WebhookAlertsInput): Partial<AlertSettings> {
  return {
    ...(input.websiteIds !== undefined ? { websiteIds: input.websiteIds } : {}),
    ...(input.spikeRatio != null ? { spikeRatio: input.spikeRatio } : {}),
    ...(input.dropRatio != null ? { dropRatio: input.dropRatio } : {}),
    ...(input.reportHour != null ? { reportHour: input.reportHour } : {}),
    ...(input.goalEvery !== undefined ? { goalEvery: input.goalEvery } : {}),
  };
}
