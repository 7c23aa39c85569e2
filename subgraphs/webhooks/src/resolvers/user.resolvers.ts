import type { UserResolvers } from '../generated/resolvers-types';
import { isCaller } from './caller';

export const User: UserResolvers = {
  __resolveReference: (ref) => ({ id: ref.id }),
  // A user's webhooks are visible to that user only.
  webhooks: (user, _, ctx) =>
    isCaller(ctx.identity, user.id) ? ctx.loaders.webhooksOfUser.load(user.id) : [],
};
