import type { Redis } from 'ioredis';
import { tokensLastUsed } from '../../../../common/token-use';
import { usageKeys } from '../../../../common/usage-keys';

export interface UsageStats {
  totalRequests: number;
  /** One entry per day, oldest first, today last. */
  recentActivity: Array<{ date: string; requests: number }>;
}

const DAYS = 30;

/**
 * A key's request totals and recent activity, from the counters the facade keeps in Redis, and
 * when access tokens were last used, as the gateway records it.
 */
export class UsageStatsService {
  private readonly keys: ReturnType<typeof usageKeys>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.keys = usageKeys(prefix);
  }

  tokensLastUsed(tokenIds: readonly string[]): Promise<Map<string, Date>> {
    return tokensLastUsed(this.redis, this.prefix, tokenIds);
  }

  async forKey(keyId: string, now = new Date()): Promise<UsageStats> {
    const days = Array.from({ length: DAYS }, (_, i) =>
      new Date(now.getTime() - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    );
    const [total, daily] = await Promise.all([
      this.redis.get(this.keys.keyTotal(keyId)),
      this.redis.hmget(this.keys.keyDaily(keyId), ...days),
    ]);
    return {
      totalRequests: Number(total ?? 0),
      recentActivity: days.map((date, i) => ({ date, requests: Number(daily[i] ?? 0) })),
    };
  }
}
