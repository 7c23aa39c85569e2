import type { WebhooksContext } from '../context';
import { isCaller } from './caller';

export const User = {
  __resolveReference: (ref: { id: string }) => ({ id: ref.id }),
  // A user's webhooks are visible to that user only.
  webhooks: (user: { id: string }, _: unknown, ctx: WebhooksContext) =>
    isCaller(ctx.identity, user.id) ? ctx.loaders.webhooksOfUser.load(user.id) : [],
};
