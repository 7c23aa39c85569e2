import type { WebhooksContext } from '../context';
import { SUBSCRIBABLE_EVENT_TYPES } from '../services/webhook.service';
import { managingUser } from './caller';

export const Query = {
  myWebhooks: (_: unknown, __: unknown, ctx: WebhooksContext) =>
    ctx.deps.webhooks.listForUser(managingUser(ctx.identity)),
  webhookEventTypes: () => SUBSCRIBABLE_EVENT_TYPES,
};
