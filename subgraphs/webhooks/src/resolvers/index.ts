import type { Resolvers } from '../generated/resolvers-types';
import { Mutation } from './mutation.resolvers';
import { Query } from './query.resolvers';
import { User } from './user.resolvers';
import { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from './webhook.resolvers';

export const webhooksResolvers: Resolvers = {
  Query,
  Mutation,
  User,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
};
