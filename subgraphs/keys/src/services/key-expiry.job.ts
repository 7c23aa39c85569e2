import type { RedisClient } from '../../../../common/platform/redis';
import { buildEvent, publishPlatformEvent } from '../../../../common/contracts/platform-events';
import type { KeysModels } from '../models';

/** Days before expiry at which a warning goes out; 0 is the "expired" notice. */
export const EXPIRY_THRESHOLDS = [30, 7, 1, 0] as const;
const DAY_MS = 86_400_000;

/** A claimed notice still pending after this long lost its claimer (a crash before publishing). */
export const STALE_CLAIM_MS = 5 * 60_000;

type ExpiringKey = {
  _id: unknown;
  userId: unknown;
  organizationId: unknown;
  name: string;
  prefix: string;
  expiresAt?: Date | null;
};

/**
 * Sends each expiry warning exactly once per key and threshold, across restarts and instances:
 * an instance first claims the notice by inserting it under a unique id (pending), then
 * publishes and marks it done; if publishing fails the claim is deleted and the next scan tries
 * again, and a claim left pending by an instance that died in between is published by a later
 * scan. A claim only looks dead: its instance may be stalled, and two scans may take it over at
 * once. So the event id is derived from key and threshold and published `once`: RedisClient drops a
 * second publication of it atomically. The subgraph runs `scan` periodically
 * (common/periodic-task.ts).
 */
export class KeyExpiryJob {
  constructor(
    private readonly models: KeysModels,
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** One pass; returns how many notices were sent. */
  async scan(now = new Date()): Promise<number> {
    return (await this.resumeStaleClaims(now)) + (await this.sendDue(now));
  }

  private async resumeStaleClaims(now: Date): Promise<number> {
    const stale = await this.models.ExpiryNotice.find({
      pending: true,
      sentAt: { $lt: new Date(now.getTime() - STALE_CLAIM_MS) },
    }).lean();
    let sent = 0;
    for (const notice of stale) {
      const key = await this.models.ApiKey.findOne({ _id: notice.keyId, deletedAt: null })
        .select(EXPIRING_KEY_FIELDS)
        .lean();
      if (
        key &&
        (await publishPlatformEvent(this.redis, this.prefix, expiryEvent(key, notice.daysBefore), {
          once: true,
        }))
      )
        sent += 1;
      await this.models.ExpiryNotice.updateOne({ _id: notice._id }, { $set: { pending: false } });
    }
    return sent;
  }

  private async sendDue(now: Date): Promise<number> {
    const horizon = new Date(now.getTime() + EXPIRY_THRESHOLDS[0] * DAY_MS);
    const keys = await this.models.ApiKey.find({
      deletedAt: null,
      expiresAt: { $ne: null, $lte: horizon },
    })
      .select(EXPIRING_KEY_FIELDS)
      .lean();
    if (keys.length === 0) return 0;
    const sentIds = new Set(
      (
        await this.models.ExpiryNotice.find({ keyId: { $in: keys.map((k) => String(k._id)) } })
          .select({ _id: 1 })
          .lean()
      ).map((n) => n._id),
    );
    let sent = 0;
    for (const key of keys) {
      const keyId = String(key._id);
      const left = key.expiresAt!.getTime() - now.getTime();
      // Only the most urgent threshold reached is sent; larger ones it overtook are skipped.
      const due = [...EXPIRY_THRESHOLDS].reverse().find((days) => left <= days * DAY_MS);
      if (
        due === undefined ||
        EXPIRY_THRESHOLDS.some((days) => days <= due && sentIds.has(`${keyId}:${days}`))
      )
        continue;
      if (!(await this.claim(keyId, due, now))) continue;
      let published: boolean;
      try {
        published = await publishPlatformEvent(this.redis, this.prefix, expiryEvent(key, due), {
          once: true,
        });
      } catch (error) {
        // Still ours to retry only while pending: another instance may have taken it over.
        await this.models.ExpiryNotice.deleteOne({ _id: `${keyId}:${due}`, pending: true });
        throw error;
      }
      await this.models.ExpiryNotice.updateOne(
        { _id: `${keyId}:${due}` },
        { $set: { pending: false } },
      );
      if (published) sent += 1;
    }
    return sent;
  }

  /** True for the one instance whose insert of the notice succeeded. */
  private async claim(keyId: string, daysBefore: number, now: Date): Promise<boolean> {
    try {
      await this.models.ExpiryNotice.create({
        _id: `${keyId}:${daysBefore}`,
        keyId,
        daysBefore,
        sentAt: now,
        pending: true,
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }
}

const EXPIRING_KEY_FIELDS = {
  _id: 1,
  userId: 1,
  organizationId: 1,
  name: 1,
  prefix: 1,
  expiresAt: 1,
};

/** The warning (or, at 0, the expiry notice) for a key; its id is the same every time. */
function expiryEvent(key: ExpiringKey, daysBefore: number) {
  const keyId = String(key._id);
  const type = daysBefore === 0 ? 'api_key.expired' : 'api_key.expiring';
  return buildEvent(
    type,
    String(key.userId),
    String(key.organizationId),
    {
      keyId,
      name: key.name,
      prefix: key.prefix,
      expiresAt: key.expiresAt!.toISOString(),
      ...(daysBefore === 0 ? {} : { daysBefore }),
    },
    `evt_${type.replace('.', '_')}_${keyId}_${daysBefore}`,
  );
}
