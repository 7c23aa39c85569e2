import { Queue } from 'bullmq';
import { createQueueRedis } from '../../common/platform/redis';
import {
  bullPrefix,
  DELIVERY_QUEUE_NAME,
} from '../../subgraphs/webhooks/src/delivery/delivery-queue';
import type { ScheduledAttempt } from '../../subgraphs/webhooks/src/services/delivery.service';
import type { Stack } from './stack';

/** The stack's webhook delivery queue on a connection of the test's own, to watch or move jobs. */
export function openDeliveryQueue(stack: Stack) {
  const redis = createQueueRedis(stack.env.REDIS_URL!);
  const queue = new Queue<ScheduledAttempt>(DELIVERY_QUEUE_NAME, {
    connection: redis,
    prefix: bullPrefix(stack.env.REDIS_KEY_PREFIX!),
  });
  return {
    queue,
    async close() {
      await queue.close();
      redis.disconnect();
    },
  };
}
