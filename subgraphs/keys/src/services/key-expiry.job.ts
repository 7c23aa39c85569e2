import type { Redis } from 'ioredis';
import { buildEvent, publishPlatformEvent } from '../../../../common/platform-events';
import type { KeysModels } from '../models';

/** Days before expiry at which a warning goes out; 0 is the "expired" notice. */
export const EXPIRY_THRESHOLDS = [30, 7, 1, 0] as const;
const DAY_MS = 86_400_000;

/**
 * Sends each expiry warning exactly once per key and threshold, across restarts and instances:
 * an instance first claims the notice by inserting it under a unique id, then publishes; if
 * publishing fails the claim is deleted and the next scan tries again. The subgraph runs `scan`
 * periodically (common/periodic-task.ts).
 */
export class KeyExpiryJob {
  constructor(
    private readonly models: KeysModels,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** One pass; returns how many notices were sent. */
  scan(now = new Date()): Promise<number> {
    return this.sendDue(now);
  }

  private async sendDue(now: Date): Promise<number> {
    const horizon = new Date(now.getTime() + EXPIRY_THRESHOLDS[0] * DAY_MS);
    const keys = await this.models.ApiKey.find({
      deletedAt: null,
      expiresAt: { $ne: null, $lte: horizon },
    })
      .select({ _id: 1, userId: 1, organizationId: 1, name: 1, prefix: 1, expiresAt: 1 })
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
      const type = due === 0 ? 'api_key.expired' : 'api_key.expiring';
      const event = buildEvent(
        type,
        String(key.userId),
        String(key.organizationId),
        {
          keyId,
          name: key.name,
          prefix: key.prefix,
          expiresAt: key.expiresAt!.toISOString(),
          ...(due === 0 ? {} : { daysBefore: due }),
        },
        `evt_${type.replace('.', '_')}_${keyId}_${due}`,
      );
      try {
        await publishPlatformEvent(this.redis, this.prefix, event);
        sent += 1;
      } catch (error) {
        await this.models.ExpiryNotice.deleteOne({ _id: `${keyId}:${due}` });
        throw error;
      }
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
      });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }
}
