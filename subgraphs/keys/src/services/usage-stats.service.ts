import type { Redis } from 'ioredis';
import { usageKeys } from '../../../../common/usage-keys';

export interface UsageStats {
  totalRequests: number;
  /** One entry per day, oldest first, today last. */
  recentActivity: Array<{ date: string; requests: number }>;
}

const DAYS = 30;

/** A key's request totals and recent activity, from the counters the facade keeps in Redis. */
export class UsageStatsService {
  private readonly keys: ReturnType<typeof usageKeys>;

  constructor(
    private readonly redis: Redis,
    prefix: string,
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
    return {
      totalRequests: Number(total ?? 0),
      recentActivity: days.map((date, i) => ({ date, requests: Number(daily[i] ?? 0) })),
    };
  }
}
