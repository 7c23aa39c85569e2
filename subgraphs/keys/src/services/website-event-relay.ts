import { buildEvent, publishPlatformEvent } from '../../../../common/contracts/platform-events';
import { websiteEventStream, type WebsiteEvent } from '../../../../common/contracts/website-events';
import type { Logger } from '../../../../common/platform/logger';
import { isMongoUnavailable } from '../../../../common/platform/mongo-outage';
import type { RedisClient } from '../../../../common/platform/redis';
import { StreamConsumer, type StreamEntry } from '../../../../common/platform/stream-consumer';
import type { AccountService } from './account.service';

/**
 * Turns each website finding of the analytics subgraph (common/contracts/website-events.ts) into
 * one platform event per member of the website's organization, at the moment it is relayed: the
 * members who may read the website then, and no one else. Each platform event's id is the
 * finding's and the member's, published `once`, so a relay retried after a crash adds nothing.
 * The data gains the website's name and domain.
 */
export function createWebsiteEventRelay(options: {
  redis: RedisClient;
  redisKeyPrefix: string;
  accounts: AccountService;
  logger: Logger;
}): StreamConsumer {
  const { redis, redisKeyPrefix: prefix, accounts, logger } = options;

  async function relay(event: WebsiteEvent): Promise<void> {
    const [website] = await accounts.websitesByIds([event.websiteId]);
    if (!website) {
      logger.warn({ event: event.id }, 'website finding for a website that is gone; dropped');
      return;
    }
    const members = await accounts.membershipsOfOrganization(website.organizationId);
    const data = { ...event.data, website_name: website.name, domain: website.domain };
    for (const { userId } of members)
      await publishPlatformEvent(
        redis,
        prefix,
        buildEvent(event.type, userId, website.organizationId, data, `${event.id}.${userId}`),
        { once: true },
      );
  }

  return new StreamConsumer({
    redis,
    stream: websiteEventStream(prefix),
    group: 'keys-website-events',
    logger,
    batchSize: 50,
    deleteAcknowledged: true,
    retry: {
      maxAttempts: 10,
      isTransient: (error) => isMongoUnavailable(error) || redis.status !== 'ready',
    },
    handle: async (entries: StreamEntry[]) => {
      for (const entry of entries) {
        const event = parseEvent(entry.fields.event);
        if (event) await relay(event);
        else
          logger.error({ entry: entry.id }, 'website finding unreadable; acknowledged and skipped');
      }
    },
  });
}

function parseEvent(raw: string | undefined): WebsiteEvent | null {
  if (!raw) return null;
  try {
    const event = JSON.parse(raw) as WebsiteEvent;
    return typeof event.id === 'string' && typeof event.websiteId === 'string' ? event : null;
  } catch {
    return null;
  }
}
