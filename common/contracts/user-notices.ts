import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../platform/redis';

/**
 * A mail to a user about something of theirs (a webhook disabled), written by the service that
 * knows the matter and sent by the keys subgraph, which knows the user's address: appended to a
 * Redis stream that the keys subgraph consumes (subgraphs/keys/src/services/user-notice.mailer.ts).
 */
export interface UserNotice {
  /** Unique: a notice handled twice (a redelivery) is mailed once while the keys subgraph remembers it. */
  id: string;
  userId: string;
  subject: string;
  text: string;
}

export const userNoticeStream = (prefix: string) => `${prefix}{notices}`;

/** Bounds a long outage of the keys subgraph; notices are few (a webhook disabled is one). */
const STREAM_MAX_LENGTH = 100_000;

export function buildUserNotice(userId: string, subject: string, text: string): UserNotice {
  return { id: `ntc_${randomUUID()}`, userId, subject, text };
}

export async function publishUserNotice(
  redis: RedisClient,
  prefix: string,
  notice: UserNotice,
): Promise<void> {
  await redis.xadd(
    userNoticeStream(prefix),
    'MAXLEN',
    '~',
    String(STREAM_MAX_LENGTH),
    '*',
    'notice',
    JSON.stringify(notice),
  );
}
