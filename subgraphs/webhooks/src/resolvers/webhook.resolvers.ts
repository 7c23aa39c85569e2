import type {
  WebhookDeliveryAttemptResolvers,
  WebhookDeliveryResolvers,
  WebhookResolvers,
} from '../generated/resolvers-types';
import { isCaller } from './caller';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** The schema's enum value of a stored lower-case one (`toUpperCase` is typed as any string). */
const upper = <T extends string>(value: T) => value.toUpperCase() as Uppercase<T>;

export const Webhook: WebhookResolvers = {
  __resolveReference: async (ref, ctx) => {
    const webhook = await ctx.loaders.webhook.load(ref.id);
    return webhook && isCaller(ctx.identity, webhook.userId) ? webhook : null;
  },
  status: (w) => upper(w.status),
  createdAt: (w) => w.createdAt.toISOString(),
  secretRotatedAt: (w) => iso(w.secretRotatedAt),
  owner: (w) => ({ __typename: 'User', id: w.userId }),
  deliveries: (w, args, ctx) =>
    isCaller(ctx.identity, w.userId)
      ? ctx.deps.deliveries.recentDeliveries(w.id, args.limit ?? 20)
      : [],
};

export const WebhookDelivery: WebhookDeliveryResolvers = {
  status: (d) => upper(d.status),
  createdAt: (d) => d.createdAt.toISOString(),
  nextAttemptAt: (d) => iso(d.nextAttemptAt),
};

export const WebhookDeliveryAttempt: WebhookDeliveryAttemptResolvers = {
  at: (a) => a.at.toISOString(),
};
