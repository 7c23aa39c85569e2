import DataLoader from 'dataloader';
import type { SubgraphContext } from '../../../common/platform/subgraph-server';
import type { DeliveryLog } from './services/delivery-log';
import type { DeliveryService } from './services/delivery.service';
import type { WebhookService, WebhookView } from './services/webhook.service';

export interface WebhooksDeps {
  webhooks: WebhookService;
  deliveries: DeliveryService;
  deliveryLog: DeliveryLog;
}

export interface WebhooksLoaders {
  webhooksOfUser: DataLoader<string, WebhookView[]>;
  webhook: DataLoader<string, WebhookView | null>;
  [name: string]: unknown;
}

export type WebhooksContext = SubgraphContext<WebhooksDeps> & { loaders: WebhooksLoaders };

export function createWebhooksLoaders(deps: WebhooksDeps): WebhooksLoaders {
  return {
    webhooksOfUser: new DataLoader((userIds) => deps.webhooks.webhooksOfUsers(userIds)),
    webhook: new DataLoader(async (ids) => {
      const found = new Map((await deps.webhooks.webhooksByIds(ids)).map((w) => [w.id, w]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}
