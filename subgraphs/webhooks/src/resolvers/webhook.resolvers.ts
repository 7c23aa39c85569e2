import type { WebhooksContext } from '../context';
import type { AttemptView, DeliveryView } from '../services/delivery.service';
import type { WebhookView } from '../services/webhook.service';
import { isCaller } from './caller';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const Webhook = {
  __resolveReference: async (ref: { id: string }, ctx: WebhooksContext) => {
    const webhook = await ctx.loaders.webhook.load(ref.id);
    return webhook && isCaller(ctx.identity, webhook.userId) ? webhook : null;
  },
  status: (w: WebhookView) => w.status.toUpperCase(),
  createdAt: (w: WebhookView) => w.createdAt.toISOString(),
  secretRotatedAt: (w: WebhookView) => iso(w.secretRotatedAt),
  owner: (w: WebhookView) => ({ __typename: 'User', id: w.userId }),
  deliveries: (w: WebhookView, args: { limit?: number | null }, ctx: WebhooksContext) =>
    isCaller(ctx.identity, w.userId)
      ? ctx.deps.deliveries.recentDeliveries(w.id, args.limit ?? 20)
      : [],
};

export const WebhookDelivery = {
  status: (d: DeliveryView) => d.status.toUpperCase(),
  createdAt: (d: DeliveryView) => d.createdAt.toISOString(),
  nextAttemptAt: (d: DeliveryView) => iso(d.nextAttemptAt),
};

export const WebhookDeliveryAttempt = {
  at: (a: AttemptView) => a.at.toISOString(),
};
