import { buildEvent, publishPlatformEvent } from '../../../../common/contracts/platform-events';
import { websiteEventStream, type WebsiteEvent } from '../../../../common/contracts/website-events';
import type { Logger } from '../../../../common/platform/logger';
import type { RedisClient } from '../../../../common/platform/redis';
import { createJsonStreamConsumer } from '../../../../common/platform/json-stream-consumer';
import type { StreamConsumer } from '../../../../common/platform/stream-consumer';
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

  return createJsonStreamConsumer<WebsiteEvent>({
    redis,
    stream: websiteEventStream(prefix),
    group: 'keys-website-events',
    logger,
    field: 'event',
    what: 'website finding',
    read: (value) => {
      const event = value as WebsiteEvent;
      return typeof event?.id === 'string' && typeof event.websiteId === 'string' ? event : null;
    },
    handle: relay,
  });
}
