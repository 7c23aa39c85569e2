/**
 * Holds the stack's pipelines still, so that what they carry piles up in Redis before a fault:
 * the analytics ingestion and the call log as a consumer that hangs holding its lease does (the
 * suite takes the lease: the holders stand by), the webhook deliveries as an operator pausing
 * BullMQ's queue does. Nothing of it survives Redis losing its data: the consumers and the
 * delivery worker go on by themselves afterwards.
 */
import { Queue } from 'bullmq';
import { createQueueRedis, createRedis, waitForRedis } from '../../common/platform/redis';
import { ingestLeaseKey } from '../../subgraphs/analytics/src/services/ingest.service';
import { callLogLeaseKey } from '../../subgraphs/keys/src/app';
import {
  bullPrefix,
  DELIVERY_QUEUE_NAME,
} from '../../subgraphs/webhooks/src/delivery/delivery-queue';

const HELD_MS = 10 * 60_000;

export async function holdPipelines(redisUrl: string, prefix: string): Promise<void> {
  const redis = createRedis(redisUrl, { enableOfflineQueue: true });
  const queueConnection = createQueueRedis(redisUrl);
  const queue = new Queue(DELIVERY_QUEUE_NAME, {
    connection: queueConnection,
    prefix: bullPrefix(prefix),
  });
  try {
    await waitForRedis(redis);
    await Promise.all(
      [ingestLeaseKey(prefix), callLogLeaseKey(prefix)].map((lease) =>
        redis.set(lease, 'fault-suite', 'PX', HELD_MS),
      ),
    );
    await queue.pause();
  } finally {
    await queue.close();
    queueConnection.disconnect();
    redis.disconnect();
  }
}
