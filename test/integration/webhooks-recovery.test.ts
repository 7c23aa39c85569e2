import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { createWebhooksModels, type WebhooksModels } from '../../subgraphs/webhooks/src/models';
import { openDeliveryQueue } from '../support/delivery-queue';
import { deleteKeysMatching, openTestRedis } from '../support/redis';
import { startStack, testMongoUri, type Stack } from '../support/stack';
import { waitFor } from '../support/wait';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const MINUTE = 60_000;

/**
 * Deliveries whose next attempt is no longer queued: the states a crash, a failed queue write or
 * a MongoDB outage longer than BullMQ's own retries leave behind, built directly in the stores.
 */
describe('webhook deliveries left without a queued attempt', () => {
  let stack: Stack;
  let connection: mongoose.Connection;
  let models: WebhooksModels;
  let receiver: WebhookReceiver;

  const buildWebhook = async () => {
    const userId = `user-${randomBytes(4).toString('hex')}`;
    const { webhook } = await stack.webhooks.services.webhooks.register({
      userId,
      url: receiver.url,
    });
    return webhook;
  };

  /** A pending delivery as the engine stores it, with `madeAttempts` failed attempts (500). */
  const buildPendingDelivery = async (
    webhook: { id: string; userId: string },
    madeAttempts: number,
    nextAttemptAt: Date,
  ) => {
    const id = `dlv_${randomBytes(16).toString('hex')}`;
    await models.WebhookDelivery.create({
      _id: id,
      webhookId: webhook.id,
      userId: webhook.userId,
      event: {
        id: `evt_${id}`,
        type: 'api_key.created',
        createdAt: new Date().toISOString(),
        organizationId: null,
        data: { key_id: 'k1' },
      },
      status: 'pending',
      attempts: Array.from({ length: madeAttempts }, (_, i) => ({
        attempt: i + 1,
        at: new Date(Date.now() - MINUTE),
        statusCode: 500,
        durationMs: 3,
        error: null,
        responseBody: '',
      })),
      nextAttemptAt,
      test: false,
    });
    return id;
  };

  const statusOf = async (deliveryId: string) =>
    (await models.WebhookDelivery.findById(deliveryId).lean())?.status;
  /** The delivery's status once it is no longer pending (its last attempt's outcome is saved). */
  const settledStatusOf = (deliveryId: string) =>
    waitFor(async () => {
      const status = await statusOf(deliveryId);
      return status !== 'pending' && status;
    });

  beforeAll(async () => {
    stack = await startStack('webhooks-recovery', {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_TIMEOUT_MS: '1500',
    });
    connection = await mongoose.createConnection(testMongoUri(`${stack.id}_webhooks`)).asPromise();
    models = createWebhooksModels(connection);
  });
  afterAll(async () => {
    await connection.close();
    await stack.stop();
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await receiver.close();
  });

  it('HOOK-8: when an attempt job runs again after its outcome was saved but before the next attempt was queued, then the next attempt is queued and delivered', async () => {
    const webhook = await buildWebhook();
    const deliveryId = await buildPendingDelivery(webhook, 1, new Date());

    await stack.webhooks.services.deliveries.attempt(deliveryId, 1);
    const [request] = await receiver.waitForRequests(1, 5_000);

    expect(request!.headers['x-webhook-attempt']).toBe('2');
    expect(await settledStatusOf(deliveryId)).toBe('succeeded');
  });

  it('HOOK-8: when pending deliveries are overdue because their job failed for good or was lost, then the sweep queues them again, once, and they are delivered', async () => {
    const webhook = await buildWebhook();
    const overdue = new Date(Date.now() - 10 * MINUTE);
    const retried = await buildPendingDelivery(webhook, 1, overdue);
    const neverQueued = await buildPendingDelivery(webhook, 0, overdue);
    const notYetDue = await buildPendingDelivery(webhook, 1, new Date(Date.now() + 10 * MINUTE));
    // Attempt 2 of `retried` failed for good (as after a long MongoDB outage): BullMQ keeps the
    // failed job, and would ignore a plain add under its id.
    const failing = jest
      .spyOn(stack.webhooks.services.deliveries, 'attempt')
      .mockRejectedValue(new Error('MongoDB unavailable'));
    const { queue, close: closeQueue } = openDeliveryQueue(stack);
    try {
      await queue.add(
        'attempt',
        { deliveryId: retried, webhookId: webhook.id, attempt: 2 },
        { jobId: `${retried}-2`, attempts: 1 },
      );
      await waitFor(async () => (await queue.getJobState(`${retried}-2`)) === 'failed');
      failing.mockRestore();

      const requeued = await stack.webhooks.services.deliveries.requeueOverdue();
      const again = await stack.webhooks.services.deliveries.requeueOverdue();
      const requests = await receiver.waitForRequests(2, 5_000);
      const settled = [await settledStatusOf(retried), await settledStatusOf(neverQueued)];

      expect(requeued).toBe(2);
      expect(again).toBe(0);
      expect(receiver.requests).toHaveLength(2);
      expect(requests.map((r) => r.headers['x-webhook-attempt']).sort()).toEqual(['1', '2']);
      expect(settled).toEqual(['succeeded', 'succeeded']);
      expect(await statusOf(notYetDue)).toBe('pending');
    } finally {
      await closeQueue();
    }
  });

  it('HOOK-8: when Redis loses its data with deliveries pending (one due, one in retry later), then each is delivered once, when its schedule says, with its original event id', async () => {
    const webhook = await buildWebhook();
    const due = await buildPendingDelivery(webhook, 0, new Date(Date.now() - MINUTE));
    const laterAt = Date.now() + 1_500;
    const later = await buildPendingDelivery(webhook, 2, new Date(laterAt));
    const redis = await openTestRedis(stack.env.REDIS_URL!);
    try {
      // What a Redis restarted without persistence leaves: nothing, queued attempts included.
      await deleteKeysMatching(redis, `${stack.env.REDIS_KEY_PREFIX}*`);
      await stack.webhooks.services.queueRebuild!.settled();

      const requests = await receiver.waitForRequests(2, 10_000);
      expect(requests.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '3']);
      expect(requests.map((_, i) => receiver.json<{ id: string }>(i).id)).toEqual([
        `evt_${due}`,
        `evt_${later}`,
      ]);
      expect(requests[1]!.receivedAt).toBeGreaterThanOrEqual(laterAt);
      expect([await settledStatusOf(due), await settledStatusOf(later)]).toEqual([
        'succeeded',
        'succeeded',
      ]);
      // Checked again: nothing more is queued for them.
      await stack.webhooks.services.queueRebuild!.settled();
      expect(
        await stack.webhooks.services.deliveries.requeueOverdue(Date.now() + 10 * MINUTE),
      ).toBe(0);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      redis.disconnect();
    }
  });

  it('when the receiver answers 410 and disabling the webhook fails, then the retry of the attempt disables it', async () => {
    const webhook = await buildWebhook();
    const deliveryId = await buildPendingDelivery(webhook, 0, new Date());
    receiver.respondWith({ status: 410 });
    jest
      .spyOn(stack.webhooks.services.webhooks, 'disable')
      .mockRejectedValueOnce(new Error('MongoDB unavailable'));

    await expect(stack.webhooks.services.deliveries.attempt(deliveryId, 1)).rejects.toThrow(
      'MongoDB unavailable',
    );
    // What BullMQ does with a job that threw: run it again.
    await stack.webhooks.services.deliveries.attempt(deliveryId, 1);

    const [stored] = await stack.webhooks.services.webhooks.listForUser(webhook.userId);
    expect(stored).toMatchObject({ id: webhook.id, status: 'disabled' });
    expect(stored!.disabledReason).toContain('410');
    expect(await statusOf(deliveryId)).toBe('failed');
  });
});
