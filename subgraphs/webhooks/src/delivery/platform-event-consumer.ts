import type { RedisClient } from '../../../../common/platform/redis';
import type { Logger } from '../../../../common/platform/logger';
import { isMongoUnavailable } from '../../../../common/platform/mongo-outage';
import {
  platformEventStream,
  type PlatformEvent,
} from '../../../../common/contracts/platform-events';
import { StreamConsumer, type StreamEntry } from '../../../../common/platform/stream-consumer';

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
  return new StreamConsumer({
    redis,
    stream: platformEventStream(redisKeyPrefix),
    group: CONSUMER_GROUP,
    logger,
    batchSize: 50,
    claimIdleMs: 60_000,
    deleteAcknowledged: true,
    // Retried in place, so events that arrived during an outage are handed over as soon as it
    // ends (not a claim timeout later); an outage of MongoDB or Redis never dead-letters them.
    retry: {
      maxAttempts: 10,
      isTransient: (error) => isMongoUnavailable(error) || redis.status !== 'ready',
    },
    handle: async (entries: StreamEntry[]) => {
      for (const entry of entries) {
        const event = parseEvent(entry.fields.event);
        if (event) await fanOut(event);
        else
          logger.error({ entry: entry.id }, 'platform event unreadable; acknowledged and skipped');
      }
    },
  });
}

function parseEvent(raw: string | undefined): PlatformEvent | null {
  if (!raw) return null;
  try {
    const event = JSON.parse(raw) as PlatformEvent;
    return typeof event.id === 'string' && typeof event.userId === 'string' ? event : null;
  } catch {
    return null;
  }
}
