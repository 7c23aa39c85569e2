import type { RedisClient } from '../platform/redis';

/**
 * Redis keys of the usage counters; written by the facade, read by the keys subgraph, and set
 * again by it from the usage ledger after Redis lost them (restoreUsageCounters). The hash tags
 * keep what one script touches in one Redis Cluster slot: an organization's per-minute window and
 * monthly counter (`{org id}`), a key's total and daily hash (`{key id}`).
 */
export const usageKeys = (prefix: string) => ({
  /** rate-limiter-flexible's key for `minuteWindowId(org id)` under the prefix `<p>rl:minute`. */
  minuteWindow: (organizationId: string) => `${prefix}rl:minute:${minuteWindowId(organizationId)}`,
  monthly: (organizationId: string, now: Date) =>
    `${prefix}usage:org:{${organizationId}}:${monthOf(now)}`,
  keyTotal: (keyId: string) => `${prefix}usage:key:{${keyId}}:total`,
  /** Hash of YYYY-MM-DD → requests that day. */
  keyDaily: (keyId: string) => `${prefix}usage:key:{${keyId}}:daily`,
});

/** The organization's per-minute window as rate-limiter-flexible names it (after its prefix). */
export const minuteWindowId = (organizationId: string) => `{${organizationId}}`;

/** YYYY-MM (UTC) of an instant: the month a quota request counts in. */
export const monthOf = (now: Date) => now.toISOString().slice(0, 7);

const DAY_MS = 86_400_000;
/** Monthly counters outlive their month a little, for the dashboard's "last month" view. */
export const MONTH_COUNTER_GRACE_MS = 40 * DAY_MS;
/** The daily hash keeps the days the dashboard shows (30) and a day's margin. */
export const DAILY_KEPT_DAYS = 31;

/** When the month of `now` ends (the quota's reset). */
export function monthlyResetAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** Sets the monthly counter unless it exists. KEYS: counter; ARGV: requests, expiry (ms epoch). */
const RESTORE_MONTH = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1`;

/**
 * Sets a key's total unless it exists, and the days of its daily hash that the hash lacks. KEYS:
 * total, daily hash; ARGV: total, the hash's lifetime (ms), then day and count pairs.
 */
const RESTORE_KEY = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) end
if #ARGV >= 3 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
redis.call('SET', KEYS[1], ARGV[1])
return 1`;

export interface RestoredUsage {
  organizationId: string;
  /** An instant in the month restored. */
  at: Date;
  /** Requests counted against the quota that month. */
  monthlyRequests: number;
  keyId: string;
  keyTotal: number;
  /** The key's requests per UTC day, YYYY-MM-DD → count. */
  keyDays: Record<string, number>;
}

/**
 * Sets the counters a Redis data loss took, from the usage ledger: each only where it is missing
 * (an instance that restored it a moment ago, or calls counted since, are kept). Two scripts, one
 * per hash tag, sent together.
 */
export async function restoreUsageCounters(
  redis: RedisClient,
  prefix: string,
  usage: RestoredUsage,
): Promise<void> {
  const keys = usageKeys(prefix);
  const oldest = new Date(usage.at.getTime() - (DAILY_KEPT_DAYS - 1) * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const days = Object.entries(usage.keyDays).filter(([day]) => day >= oldest);
  await Promise.all([
    redis.eval(
      RESTORE_MONTH,
      1,
      keys.monthly(usage.organizationId, usage.at),
      usage.monthlyRequests,
      monthlyResetAt(usage.at).getTime() + MONTH_COUNTER_GRACE_MS,
    ),
    redis.eval(
      RESTORE_KEY,
      2,
      keys.keyTotal(usage.keyId),
      keys.keyDaily(usage.keyId),
      usage.keyTotal,
      DAILY_KEPT_DAYS * DAY_MS,
      ...days.flat(),
    ),
  ]);
}
