import { LRUCache } from 'lru-cache';
import { userNoticeStream, type UserNotice } from '../../../../common/contracts/user-notices';
import type { Logger } from '../../../../common/platform/logger';
import type { MailTransport } from '../../../../common/platform/mail';
import { isMongoUnavailable } from '../../../../common/platform/mongo-outage';
import type { RedisClient } from '../../../../common/platform/redis';
import { StreamConsumer, type StreamEntry } from '../../../../common/platform/stream-consumer';
import type { KeysModels } from '../models';

/**
 * Mails users the notices other services publish (common/contracts/user-notices.ts): the keys
 * subgraph owns users and their addresses. Each notice is mailed at least once: a batch is
 * acknowledged once all of it was handed to the mail transport, and a notice already mailed by
 * this process is not mailed again when its batch is retried. Without a mail transport
 * (production without SMTP_URL) a notice is logged and acknowledged.
 */
export function createUserNoticeMailer(options: {
  redis: RedisClient;
  redisKeyPrefix: string;
  models: KeysModels;
  mail: MailTransport | null;
  logger: Logger;
}): StreamConsumer {
  const { redis, models, mail, logger } = options;
  const mailed = new LRUCache<string, true>({ max: 10_000 });

  async function deliver(notice: UserNotice): Promise<void> {
    if (mailed.has(notice.id)) return;
    const user = await models.User.findById(notice.userId, { email: 1 }).lean();
    if (!user) {
      logger.warn({ notice: notice.id }, 'user notice for a user who no longer exists; not mailed');
      return;
    }
    if (!mail) {
      logger.warn(
        { notice: notice.id, userId: notice.userId, subject: notice.subject },
        'user notice not mailed: no SMTP_URL in production',
      );
      return;
    }
    await mail.send({ to: user.email, subject: notice.subject, text: notice.text }, 'user notice', {
      notice: notice.id,
    });
    mailed.set(notice.id, true);
  }

  return new StreamConsumer({
    redis,
    stream: userNoticeStream(options.redisKeyPrefix),
    group: 'keys-notices',
    logger,
    batchSize: 20,
    deleteAcknowledged: true,
    // An SMTP server that refuses for a while is retried in place; a database or Redis outage never
    // dead-letters a notice.
    retry: {
      maxAttempts: 10,
      isTransient: (error) => isMongoUnavailable(error) || redis.status !== 'ready',
    },
    handle: async (entries: StreamEntry[]) => {
      for (const entry of entries) {
        const notice = parseNotice(entry.fields.notice);
        if (notice) await deliver(notice);
        else logger.error({ entry: entry.id }, 'user notice unreadable; acknowledged and skipped');
      }
    },
  });
}

function parseNotice(raw: string | undefined): UserNotice | null {
  if (!raw) return null;
  try {
    const notice = JSON.parse(raw) as UserNotice;
    const fields = [notice.id, notice.userId, notice.subject, notice.text];
    return fields.every((field) => typeof field === 'string') ? notice : null;
  } catch {
    return null;
  }
}
