import type { RedisClient } from '../../../../common/platform/redis';
import { usageKeys } from '../../../../common/contracts/usage-keys';
import type { UsageLedger } from './usage-ledger.service';

export interface UsageStats {
  totalRequests: number;
  /** One entry per day, oldest first, today last. */
  recentActivity: Array<{ date: string; requests: number }>;
}

const DAYS = 30;
const DAY_MS = 86_400_000;

export interface OrganizationUsage {
  /** YYYY-MM (UTC). */
  month: string;
  /** Counted against the monthly quota. */
  requests: number;
  resetsAt: Date;
  /** Each day of the month so far, oldest first, today last. */
  daily: Array<{ date: string; requests: number }>;
}

/**
 * A key's request totals and recent activity, from the counters the facade keeps in Redis; from
 * the usage ledger where Redis lost them and no call has had them restored yet.
 */
export class UsageStatsService {
  private readonly keys: ReturnType<typeof usageKeys>;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly ledger: UsageLedger,
  ) {
    this.keys = usageKeys(prefix);
  }

  async forKey(keyId: string, now = new Date()): Promise<UsageStats> {
    const days = Array.from({ length: DAYS }, (_, i) =>
      new Date(now.getTime() - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    );
    const [total, daily] = await Promise.all([
      this.redis.get(this.keys.keyTotal(keyId)),
      this.redis.hmget(this.keys.keyDaily(keyId), ...days),
    ]);
    if (total === null) {
      const kept = await this.ledger.forKey(keyId);
      return {
        totalRequests: kept.total,
        recentActivity: days.map((date) => ({ date, requests: kept.days[date] ?? 0 })),
      };
    }
    return {
      totalRequests: Number(total),
      recentActivity: days.map((date, i) => ({ date, requests: Number(daily[i] ?? 0) })),
    };
  }

  /**
   * The organization's quota count this month, and its requests per day summed over its keys'
   * daily counters (`keyIds` includes deleted keys: their calls still count).
   */
  async forOrganization(
    organizationId: string,
    keyIds: string[],
    now = new Date(),
  ): Promise<OrganizationUsage> {
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const days = Array.from({ length: now.getUTCDate() }, (_, i) =>
      new Date(monthStart + i * DAY_MS).toISOString().slice(0, 10),
    );
    // Separate commands, not a pipeline: each key's hash has its own hash tag (a Redis Cluster
    // slot of its own); the connection still sends them in one round trip (common/platform/redis.ts).
    const [requests, ...perKey] = await Promise.all([
      this.redis.get(this.keys.monthly(organizationId, now)),
      ...keyIds.map((keyId) => this.redis.hmget(this.keys.keyDaily(keyId), ...days)),
    ]);
    const totals = days.map(() => 0);
    if (requests === null) {
      // No call this month yet, or Redis lost the counters: the ledger knows either way.
      const kept = await Promise.all(keyIds.map((keyId) => this.ledger.forKey(keyId)));
      for (const key of kept) days.forEach((day, i) => (totals[i]! += key.days[day] ?? 0));
    } else
      for (const counts of perKey as Array<Array<string | null>>)
        counts.forEach((count, i) => (totals[i]! += Number(count ?? 0)));
    return {
      month: now.toISOString().slice(0, 7),
      requests:
        requests === null ? await this.ledger.forMonth(organizationId, now) : Number(requests),
      resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
      daily: days.map((date, i) => ({ date, requests: totals[i]! })),
    };
  }
}
