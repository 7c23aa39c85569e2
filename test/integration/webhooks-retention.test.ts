import mongoose from 'mongoose';
import { createWebhooksModels, type WebhooksModels } from '../../subgraphs/webhooks/src/models';
import { startStack, testMongoUri, type Stack } from '../support/stack';

const DAY = 86_400_000;

describe('webhook delivery records clean-up', () => {
  let stack: Stack;
  let connection: mongoose.Connection;
  let models: WebhooksModels;

  beforeAll(async () => {
    stack = await startStack('webhooks-retention', { WEBHOOK_DELIVERY_RETENTION_DAYS: '30' });
    connection = await mongoose.createConnection(testMongoUri(`${stack.id}_webhooks`)).asPromise();
    models = createWebhooksModels(connection);
  });
  afterAll(async () => {
    await connection.close();
    await stack.stop();
  });

  it('HOOK-10: when finished deliveries are older than the retention period, then they are deleted and pending or recent ones are kept', async () => {
    const now = Date.now();
    const delivery = (id: string, status: string, ageDays: number) => ({
      _id: id,
      webhookId: 'w1',
      userId: 'u1',
      event: { id: `evt_${id}`, type: 'webhook.test', createdAt: new Date().toISOString() },
      status,
      attempts: [],
      nextAttemptAt: null,
      test: false,
      createdAt: new Date(now - ageDays * DAY),
      updatedAt: new Date(now - ageDays * DAY),
    });
    // Raw inserts: Mongoose would stamp createdAt with the current time.
    const deliveries = models.WebhookDelivery.db.collection<{
      _id: string;
      [field: string]: unknown;
    }>(models.WebhookDelivery.collection.collectionName);
    await deliveries.insertMany([
      delivery('old-succeeded', 'succeeded', 31),
      delivery('old-failed', 'failed', 45),
      delivery('old-cancelled', 'cancelled', 31),
      delivery('old-pending', 'pending', 60),
      delivery('recent-failed', 'failed', 29),
    ]);

    expect(await stack.webhooks.services.retention.purge(now)).toBe(3);
    const left = await models.WebhookDelivery.find({}, { _id: 1 }).sort({ _id: 1 }).lean();
    expect(left.map((d) => d._id)).toEqual(['old-pending', 'recent-failed']);
    expect(await stack.webhooks.services.retention.purge(now)).toBe(0);
  });
});
