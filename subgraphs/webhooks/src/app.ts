import type { Logger } from '../../../common/platform/logger';
import { fromRoot } from '../../../common/platform/paths';
import { startSubgraph } from '../../../common/platform/subgraph-runtime';
import { createSubgraphApp } from '../../../common/platform/subgraph-server';
import type { WebhooksConfig } from './config';
import { createWebhooksLoaders, type WebhooksDeps } from './context';
import { DeliveryQueue, DeliveryWorker } from './delivery/delivery-queue';
import { HttpSender } from './delivery/http-sender';
import { createPlatformEventConsumer } from './delivery/platform-event-consumer';
import type { DestinationPolicy } from './domain/destination-policy';
import { SecretBox } from './domain/signing-secret';
import { createWebhooksModels } from './models';
import { createDeclaredIndexes } from '../../../common/platform/mongo';
import { webhooksResolvers } from './resolvers';
import { PeriodicTask } from '../../../common/platform/periodic-task';
import { DELIVERY_RETENTION_EVERY_MS, DeliveryRetention } from './services/delivery-retention';
import { DeliveryLog } from './services/delivery-log';
import { DeliveryService, OVERDUE_SWEEP_EVERY_MS } from './services/delivery.service';
import { TestRateLimiter } from './services/test-rate-limiter';
import { publishPlatformEvent } from '../../../common/contracts/platform-events';
import { publishUserNotice } from '../../../common/contracts/user-notices';
import { oneAtATime } from '../../../common/platform/redis-lock';
import { RedisLossWatch } from '../../../common/platform/redis-loss-watch';
import { WebhookService } from './services/webhook.service';

export const WEBHOOKS_SCHEMA_PATH = fromRoot('subgraphs', 'webhooks', 'schema.graphql');

/** What the webhooks subgraph exposes to tests and tools: its services and the retention job. */
export type WebhooksServices = WebhooksDeps & {
  retention: DeliveryRetention;
  /** Rebuilds the delivery queue after Redis lost its data; null without background work. */
  queueRebuild: RedisLossWatch | null;
};

/** What startSubgraph hands the subgraph's build step: its stores, readiness checks and metrics. */
type SubgraphStores = Parameters<Parameters<typeof startSubgraph>[3]>[0];

/**
 * The webhooks subgraph plus its background work: the platform-event consumer (stream → queued
 * deliveries) and the delivery worker (queue → receivers). Both stop before the stores close.
 */
export function startWebhooksSubgraph(config: WebhooksConfig, logger: Logger) {
  return startSubgraph<WebhooksServices>('webhooks', config, logger, async (stores) => {
    const { readiness, metrics } = stores;
    const { deps, retention, closeClients } = await createWebhooksServices(config, logger, stores);
    const background = config.workersEnabled
      ? await startBackgroundWork(config, logger, stores, deps.deliveries, retention)
      : null;
    const { app, apollo } = await createSubgraphApp<WebhooksDeps>({
      name: 'webhooks',
      schemaPath: WEBHOOKS_SCHEMA_PATH,
      resolvers: webhooksResolvers,
      deps,
      internalSecret: config.internalSecret,
      logger,
      readiness: background ? [...readiness, background.readinessCheck] : readiness,
      inlineTrace: config.inlineTrace,
      createLoaders: (d) => createWebhooksLoaders(d),
      metrics,
    });
    return {
      app,
      apollo,
      services: { ...deps, retention, queueRebuild: background?.queueRebuild ?? null },
      async beforeClose() {
        // The background work still queues and sends until it has stopped.
        await background?.stop();
        await closeClients();
      },
    };
  });
}

/**
 * Builds the models (with their indexes) and the services the resolvers and the background work
 * share. `closeClients()` closes the delivery queue and the HTTP sender.
 */
async function createWebhooksServices(
  config: WebhooksConfig,
  logger: Logger,
  { connection, redis, metrics }: SubgraphStores,
) {
  const models = createWebhooksModels(connection);
  await createDeclaredIndexes(models);
  const policy: DestinationPolicy = {
    requireHttps: config.nodeEnv === 'production',
    allowLoopback: config.allowLoopback,
  };
  const webhooks = new WebhookService(models, new SecretBox(config.secretKey), policy, {
    // A burst of creations by one user queues up behind the count; let it wait longer.
    user: oneAtATime(redis, `${config.redisKeyPrefix}lock:webhook-user:`, 'The user’s webhooks', {
      ttlMs: 10_000,
      waitMs: 10_000,
    }),
    // Disabling on a 410 waits its turn too; given up, its delivery job is retried (and sent).
    webhook: oneAtATime(redis, `${config.redisKeyPrefix}lock:webhook:`, 'The webhook', {
      ttlMs: 10_000,
      waitMs: 10_000,
    }),
  });
  const sender = new HttpSender(
    {
      ...policy,
      timeoutMs: config.delivery.timeoutMs,
      responseBodyLimit: config.delivery.responseBodyLimit,
    },
    metrics,
  );
  const queue = new DeliveryQueue(config.redisUrl, config.redisKeyPrefix, logger, metrics);
  const deliveries = new DeliveryService(
    models,
    webhooks,
    sender,
    queue,
    new TestRateLimiter(redis, config.redisKeyPrefix),
    config.delivery,
    logger,
    {
      publish: (event) => publishPlatformEvent(redis, config.redisKeyPrefix, event),
      mail: (notice) => publishUserNotice(redis, config.redisKeyPrefix, notice),
    },
  );
  const deps: WebhooksDeps = { webhooks, deliveries, deliveryLog: new DeliveryLog(models) };
  return {
    deps,
    retention: new DeliveryRetention(models, config.deliveryRetentionDays, logger),
    async closeClients() {
      await queue.close();
      await sender.close();
    },
  };
}

/**
 * Starts the delivery worker (queue → receivers), the platform-event consumer (stream → queued
 * deliveries), the delivery clean-up and the overdue-attempts sweep. `stop()` waits for each.
 */
async function startBackgroundWork(
  config: WebhooksConfig,
  logger: Logger,
  { redis, metrics }: SubgraphStores,
  deliveries: DeliveryService,
  retention: DeliveryRetention,
) {
  const retentionJob = new PeriodicTask(
    'webhook delivery clean-up',
    DELIVERY_RETENTION_EVERY_MS,
    () => retention.purge(),
    logger,
  );
  const overdueJob = new PeriodicTask(
    'overdue webhook attempts sweep',
    OVERDUE_SWEEP_EVERY_MS,
    () => deliveries.requeueOverdue(),
    logger,
  );
  const worker = new DeliveryWorker(
    config.redisUrl,
    config.redisKeyPrefix,
    {
      concurrency: config.delivery.concurrency,
      perWebhook: config.delivery.perWebhookConcurrency,
    },
    (id, attempt) => deliveries.attempt(id, attempt),
    logger,
    metrics,
  );
  const consumer = createPlatformEventConsumer(
    redis,
    config.redisKeyPrefix,
    (event) => deliveries.fanOut(event),
    logger,
  );
  // The queued attempts live in Redis; the deliveries they belong to in MongoDB.
  const queueRebuild = new RedisLossWatch(
    redis,
    `${config.redisKeyPrefix}webhooks:intact`,
    'the webhook delivery queue',
    () => deliveries.requeueAllPending().then(() => undefined),
    logger,
  );
  await consumer.start();
  metrics.watchStream(consumer);
  retentionJob.start();
  overdueJob.start();
  queueRebuild.start();
  return {
    readinessCheck: consumer.readinessCheck('platform-event consumer'),
    queueRebuild,
    async stop() {
      await queueRebuild.stop();
      await retentionJob.stop();
      await overdueJob.stop();
      await consumer.stop();
      await worker.close();
    },
  };
}
