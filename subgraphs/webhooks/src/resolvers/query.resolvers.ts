import type { QueryResolvers } from '../generated/resolvers-types';
import { SUBSCRIBABLE_EVENT_TYPES } from '../services/webhook.service';
import { managingUser } from './caller';

export const Query: QueryResolvers = {
  myWebhooks: (_, __, ctx) => ctx.deps.webhooks.listForUser(managingUser(ctx.identity)),
  webhookEventTypes: () => [...SUBSCRIBABLE_EVENT_TYPES],
};
