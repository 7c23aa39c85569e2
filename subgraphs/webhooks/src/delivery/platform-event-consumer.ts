import type { RedisClient } from '../../../../common/platform/redis';
import type { Logger } from '../../../../common/platform/logger';
import {
  platformEventStream,
  type PlatformEvent,
} from '../../../../common/contracts/platform-events';
import { createJsonStreamConsumer } from '../../../../common/platform/json-stream-consumer';
import type { StreamConsumer } from '../../../../common/platform/stream-consumer';

export const CONSUMER_GROUP = 'webhooks';

/**
 * Reads the platform-event stream through the `webhooks` consumer group and hands each event to
 * `fanOut` (which records deliveries and queues their first attempt). Entries are acknowledged
 * only after the whole batch was handed over, so a crash in between re-delivers them:
 * at-least-once, and `fanOut` is idempotent.
 */
export function createPlatformEventConsumer(
  redis: RedisClient,
  redisKeyPrefix: string,
  fanOut: (event: PlatformEvent) => Promise<unknown>,
  logger: Logger,
): StreamConsumer {
  return createJsonStreamConsumer<PlatformEvent>({
    redis,
    stream: platformEventStream(redisKeyPrefix),
    group: CONSUMER_GROUP,
    logger,
    field: 'event',
    what: 'platform event',
    claimIdleMs: 60_000,
    read: (value) => {
      const event = value as PlatformEvent;
      return typeof event?.id === 'string' && typeof event.userId === 'string' ? event : null;
    },
    handle: fanOut,
  });
}
