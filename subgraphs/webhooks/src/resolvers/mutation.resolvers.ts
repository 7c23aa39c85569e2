import type { WebhooksContext } from '../context';
import { managingUser } from './caller';

interface CreateArgs {
  input: { url: string; description?: string | null; eventTypes?: string[] | null };
}

export const Mutation = {
  createWebhook: (_: unknown, { input }: CreateArgs, ctx: WebhooksContext) =>
    ctx.deps.webhooks.register({
      userId: managingUser(ctx.identity),
      url: input.url,
      description: input.description ?? null,
      eventTypes: input.eventTypes ?? [],
    }),

  testWebhook: async (_: unknown, { id }: { id: string }, ctx: WebhooksContext) => {
    const webhook = await ctx.deps.webhooks.getOwned(managingUser(ctx.identity), id);
    return ctx.deps.deliveries.sendTest(webhook);
  },

  rotateWebhookSecret: (_: unknown, { id }: { id: string }, ctx: WebhooksContext) =>
    ctx.deps.webhooks.rotate(managingUser(ctx.identity), id),

  deleteWebhook: async (_: unknown, { id }: { id: string }, ctx: WebhooksContext) => {
    const webhook = await ctx.deps.webhooks.revoke(managingUser(ctx.identity), id);
    await ctx.deps.deliveries.cancelPending(webhook.id);
    return webhook;
  },
};
