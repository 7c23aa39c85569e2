import { LRUCache } from 'lru-cache';
import { userNoticeStream, type UserNotice } from '../../../../common/contracts/user-notices';
import type { Logger } from '../../../../common/platform/logger';
import type { MailTransport } from '../../../../common/platform/mail';
import type { RedisClient } from '../../../../common/platform/redis';
import { createJsonStreamConsumer } from '../../../../common/platform/json-stream-consumer';
import type { StreamConsumer } from '../../../../common/platform/stream-consumer';
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

  return createJsonStreamConsumer<UserNotice>({
    redis,
    stream: userNoticeStream(options.redisKeyPrefix),
    group: 'keys-notices',
    logger,
    field: 'notice',
    what: 'user notice',
    batchSize: 20,
    read: (value) => {
      const notice = value as UserNotice;
      const fields = [notice?.id, notice?.userId, notice?.subject, notice?.text];
      return fields.every((field) => typeof field === 'string') ? notice : null;
    },
    handle: deliver,
  });
}
