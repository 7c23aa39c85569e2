import { Cluster } from 'ioredis';
import type { RedisClient } from '../../../common/platform/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../../../common/platform/logger';
import { UncountedCalls } from './uncounted-calls';
import { usageKeys } from '../../../common/contracts/usage-keys';
import { minuteLimiterOnRedis } from '../../../common/platform/per-minute-limit';

export interface LimitSubject {
  keyId: string;
  /** Usage is counted against the organization whose plan grants the limits (docs/limits.md). */
  billingOrganizationId: string;
  requestsPerMinute: number;
  requestsPerMonth: number;
}

export interface LimitDecision {
  outcome: 'admitted' | 'rate_limited' | 'quota_exhausted';
  /** Requests left this minute; null when only an estimate exists (Redis unavailable). */
  minuteRemaining: number | null;
  /** Time until the current minute window ends; null when only an estimate exists. */
  minuteWindowEndsInMs: number | null;
  retryAfterSeconds: number;
  monthlyUsed: number | null;
  keyTotal: number | null;
  resetAt: Date;
  /** The request just used 80 % or 100 % of the monthly quota (exactly once per month). */
  crossedThreshold: 80 | 100 | null;
}

const WINDOW_SECONDS = 60;
const DAY_MS = 86_400_000;
/** Monthly counters outlive their month a little, for the dashboard's "last month" view. */
const MONTH_COUNTER_GRACE_MS = 40 * DAY_MS;

/** The daily hash keeps the days the dashboard shows (30) and a day's margin. */
const DAILY_KEPT_DAYS = 31;

/**
 * The two counts of a call, as Lua functions shared by the scripts below.
 *
 * countMonthly(counter, admitted 1/0, monthly limit, counter expiry in ms epoch) returns {1
 * counted, 0 refused, 2 not asked; the count}. Atomic, so N concurrent requests against a quota
 * of L admit exactly L, across any number of facade instances.
 *
 * countKeyCall(total, daily hash, today YYYY-MM-DD, oldest day kept YYYY-MM-DD, hash lifetime ms)
 * returns the key's total. The first call of a day drops the days that left the window (dates
 * compare as strings) and extends the hash's life, so an unused key's hash goes away.
 */
const COUNTS = `
local function countMonthly(counter, admitted, limit, expiry)
  local used = tonumber(redis.call('GET', counter) or '0')
  if admitted == '0' then return {2, used} end
  if used >= tonumber(limit) then return {0, used} end
  used = redis.call('INCR', counter)
  if used == 1 then redis.call('PEXPIREAT', counter, expiry) end
  return {1, used}
end
local function countKeyCall(total, daily, today, oldest, lifetime)
  local calls = redis.call('INCR', total)
  if redis.call('HINCRBY', daily, today, 1) == 1 then
    for _, day in ipairs(redis.call('HKEYS', daily)) do
      if day < oldest then redis.call('HDEL', daily, day) end
    end
    redis.call('PEXPIRE', daily, lifetime)
  end
  return calls
end
`;

/**
 * Both counts in one command, on a single Redis server. KEYS: key total, key daily hash, monthly
 * counter; ARGV: countKeyCall's three, then countMonthly's three. Returns {key total, monthly
 * status, monthly count}.
 */
const CALL_COUNT_SCRIPT = `${COUNTS}
local monthly = countMonthly(KEYS[3], ARGV[4], ARGV[5], ARGV[6])
return {countKeyCall(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3]), monthly[1], monthly[2]}`;

/**
 * On a Redis Cluster the key's counters (hash tag `{key id}`) and the organization's (`{org id}`)
 * live in two slots, which one script cannot touch: one script each, sent in the same tick.
 */
const KEY_COUNT_SCRIPT = `${COUNTS}
return countKeyCall(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])`;
const MONTHLY_SCRIPT = `${COUNTS}
return countMonthly(KEYS[1], ARGV[1], ARGV[2], ARGV[3])`;

let days = { number: Number.NaN, today: '', oldest: '' };

/** Today and the oldest day the daily hash keeps (YYYY-MM-DD), worked out once a day. */
function keptDays(now: Date): [today: string, oldest: string] {
  const number = Math.floor(now.getTime() / DAY_MS);
  if (number !== days.number) {
    const date = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
    days = { number, today: date(number), oldest: date(number - (DAILY_KEPT_DAYS - 1)) };
  }
  return [days.today, days.oldest];
}

export function monthlyResetAt(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

type MonthlyResult = [number, number];

interface UsageScripts {
  waCountCall(...args: Array<string | number>): Promise<[number, number, number]>;
  waCountMonthly(...args: Array<string | number>): Promise<MonthlyResult>;
  waCountKeyCall(...args: Array<string | number>): Promise<number>;
}

/** A point is given back only while its window has this long left (time to reach Redis). */
const GIVE_BACK_MARGIN_MS = 1_000;

export interface MinuteDecision {
  admitted: boolean;
  remaining: number | null;
  windowEndsInMs: number | null;
  /** When the decision was made (Date.now()), for telling later whether its window has ended. */
  decidedAt: number;
  retryAfterSeconds: number;
  /** Decided by Redis (false: by the in-memory insurance limiter during an outage). */
  exact: boolean;
}

/**
 * Per-minute limit (fixed 60-second windows, rate-limiter-flexible on Redis) and monthly quota
 * (an atomic Redis script). When Redis fails, an in-memory limiter per instance keeps the
 * per-minute limit approximately and the monthly quota is not enforced until Redis is back.
 */
export class UsageLimiter {
  private readonly redisLimiters = new Map<number, RateLimiterRedis>();
  private readonly memoryLimiters = new Map<number, RateLimiterMemory>();
  private readonly keys: ReturnType<typeof usageKeys>;
  private storeHealthy = true;
  private readonly uncounted: UncountedCalls;
  /** One command for both counts, where every key is on the same server (not a Cluster). */
  private readonly countsInOneScript: boolean;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.keys = usageKeys(prefix);
    this.uncounted = new UncountedCalls(redis, prefix, logger);
    this.countsInOneScript = !(redis instanceof Cluster);
    redis.defineCommand('waCountCall', { numberOfKeys: 3, lua: CALL_COUNT_SCRIPT });
    redis.defineCommand('waCountMonthly', { numberOfKeys: 1, lua: MONTHLY_SCRIPT });
    redis.defineCommand('waCountKeyCall', { numberOfKeys: 2, lua: KEY_COUNT_SCRIPT });
  }

  /**
   * Step 1 for a subject known from a cache that `valid` (asked in the same Redis round trip)
   * confirms or not. When it does not, the point goes back and null is returned: the caller
   * authenticates again, and nothing was counted.
   */
  async takeMinuteIf(
    subject: LimitSubject,
    valid: Promise<boolean>,
  ): Promise<MinuteDecision | null> {
    const [minute, confirmed] = await Promise.all([this.takeMinute(subject), valid]);
    if (confirmed) return minute;
    // A Redis refusal was never counted (COUNT_ADMITTED_ONLY); anything else counted: give it back.
    if (minute.admitted || !minute.exact) await this.giveBackMinute(subject, minute);
    return null;
  }

  /**
   * Step 2: counts the call (monthly quota, key totals) and decides. A call refused for the
   * month gives its minute point back. Never rejects: without Redis the monthly figures are null.
   */
  async decide(
    subject: LimitSubject,
    minute: MinuteDecision,
    now = new Date(),
  ): Promise<LimitDecision> {
    const resetAt = monthlyResetAt(now);
    let monthly: MonthlyResult | null = null;
    let keyTotal: number | null = null;
    try {
      const counted = await this.count(subject, minute, now, resetAt);
      keyTotal = counted.keyTotal;
      if ('monthlyFailure' in counted) throw counted.monthlyFailure;
      monthly = counted.monthly;
      this.markStore(true);
      if (this.uncounted.size > 0) void this.uncounted.flush();
    } catch (error) {
      this.markStore(false, error);
      if (keyTotal === null) this.uncounted.add(subject.keyId, now);
    }
    const monthlyUsed = monthly ? Number(monthly[1]) : null;
    const base = {
      minuteRemaining: minute.remaining,
      minuteWindowEndsInMs: minute.windowEndsInMs,
      retryAfterSeconds: minute.retryAfterSeconds,
      monthlyUsed,
      keyTotal: monthly ? keyTotal : null,
      resetAt,
      crossedThreshold: null,
    };
    if (!minute.admitted) return { ...base, outcome: 'rate_limited' };
    if (monthly && monthly[0] === 0) {
      await this.giveBackMinute(subject, minute);
      return {
        ...base,
        minuteRemaining: minute.remaining === null ? null : minute.remaining + 1,
        outcome: 'quota_exhausted',
      };
    }
    return {
      ...base,
      outcome: 'admitted',
      crossedThreshold:
        monthlyUsed === null ? null : threshold(monthlyUsed, subject.requestsPerMonth),
    };
  }

  /**
   * Counts the call for its key and, when its minute was admitted, for its organization's month.
   * Rejects when the key's count failed; a failed monthly count alone comes back as
   * `monthlyFailure`, so a call the key's counters took is not held for them again (uncounted).
   */
  private async count(
    subject: LimitSubject,
    minute: MinuteDecision,
    now: Date,
    resetAt: Date,
  ): Promise<
    { keyTotal: number; monthly: MonthlyResult } | { keyTotal: number; monthlyFailure: unknown }
  > {
    const scripts = this.redis as unknown as UsageScripts;
    const keyArgs = [
      this.keys.keyTotal(subject.keyId),
      this.keys.keyDaily(subject.keyId),
      ...keptDays(now),
      DAILY_KEPT_DAYS * DAY_MS,
    ] as const;
    const monthlyArgs = [
      this.keys.monthly(subject.billingOrganizationId, now),
      minute.admitted ? '1' : '0',
      subject.requestsPerMonth,
      resetAt.getTime() + MONTH_COUNTER_GRACE_MS,
    ] as const;
    if (this.countsInOneScript) {
      const [keyCounter, daily, ...keyRest] = keyArgs;
      const [monthlyCounter, ...monthlyRest] = monthlyArgs;
      const [keyTotal, status, used] = await scripts.waCountCall(
        keyCounter,
        daily,
        monthlyCounter,
        ...keyRest,
        ...monthlyRest,
      );
      return { keyTotal: Number(keyTotal), monthly: [status, used] };
    }
    // Both settle before either failure is looked at.
    const [keyResult, monthResult] = await Promise.allSettled([
      scripts.waCountKeyCall(...keyArgs),
      scripts.waCountMonthly(...monthlyArgs),
    ]);
    if (keyResult.status === 'rejected') throw keyResult.reason;
    const keyTotal = Number(keyResult.value);
    return monthResult.status === 'fulfilled'
      ? { keyTotal, monthly: monthResult.value }
      : { keyTotal, monthlyFailure: monthResult.reason };
  }

  /**
   * Takes back one call's monthly count, in the month that counted it (`resetAt` is that month's
   * end): for a call that failed on our side. Never rejects.
   */
  async refundMonthly(subject: LimitSubject, resetAt: Date): Promise<void> {
    const countedIn = new Date(resetAt.getTime() - 1);
    await this.redis
      .decr(this.keys.monthly(subject.billingOrganizationId, countedIn))
      .catch(() => undefined);
  }

  /** Step 1: the per-minute limit takes a point (or refuses). */
  async takeMinute(subject: LimitSubject): Promise<MinuteDecision> {
    const points = subject.requestsPerMinute;
    try {
      const res = await this.redisLimiter(points).consume(subject.billingOrganizationId, 1);
      this.markStore(true);
      return {
        admitted: true,
        remaining: res.remainingPoints,
        windowEndsInMs: res.msBeforeNext,
        decidedAt: Date.now(),
        retryAfterSeconds: 0,
        exact: true,
      };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        this.markStore(true);
        // Not counted (COUNT_ADMITTED_ONLY): the shared counter holds admitted calls only, so a
        // plan upgrade within the minute admits what the new limit allows.
        return {
          admitted: false,
          remaining: 0,
          windowEndsInMs: rejection.msBeforeNext,
          decidedAt: Date.now(),
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
          exact: true,
        };
      }
      this.markStore(false, rejection);
    }
    try {
      await this.memoryLimiter(points).consume(subject.billingOrganizationId, 1);
      return {
        admitted: true,
        remaining: null,
        windowEndsInMs: null,
        decidedAt: Date.now(),
        retryAfterSeconds: 0,
        exact: false,
      };
    } catch (rejection) {
      const ms =
        rejection instanceof RateLimiterRes ? rejection.msBeforeNext : WINDOW_SECONDS * 1000;
      return {
        admitted: false,
        remaining: null,
        windowEndsInMs: null,
        decidedAt: Date.now(),
        retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)),
        exact: false,
      };
    }
  }

  /**
   * Returns the point a call took to whichever limiter took it (in memory while Redis is away),
   * unless its window has ended or is about to: the point would land in the next window, which
   * never had it.
   */
  private async giveBackMinute(subject: LimitSubject, minute: MinuteDecision): Promise<void> {
    const windowLeftMs = (minute.windowEndsInMs ?? Infinity) - (Date.now() - minute.decidedAt);
    if (windowLeftMs < GIVE_BACK_MARGIN_MS) return;
    const limiter = minute.exact
      ? this.redisLimiter(subject.requestsPerMinute)
      : this.memoryLimiter(subject.requestsPerMinute);
    await limiter.reward(subject.billingOrganizationId, 1).catch(() => undefined);
  }

  /**
   * One limiter per limit, all on the same Redis counter: a plan change within a minute keeps what
   * the minute has used (a counter per limit would hand the team a fresh window). The in-memory
   * insurance limiters below are per limit: during a Redis outage a plan change starts afresh.
   */
  private redisLimiter(points: number): RateLimiterRedis {
    let limiter = this.redisLimiters.get(points);
    if (!limiter) {
      limiter = minuteLimiterOnRedis(this.redis, `${this.prefix}rl:minute`, points);
      this.redisLimiters.set(points, limiter);
    }
    return limiter;
  }

  private memoryLimiter(points: number): RateLimiterMemory {
    let limiter = this.memoryLimiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({
        keyPrefix: `insurance:${points}`,
        points,
        duration: WINDOW_SECONDS,
      });
      this.memoryLimiters.set(points, limiter);
    }
    return limiter;
  }

  /** Logs the transitions only, so an outage is one warning and one recovery line. */
  private markStore(healthy: boolean, error?: unknown): void {
    if (healthy === this.storeHealthy) return;
    this.storeHealthy = healthy;
    if (healthy) this.logger.info('redis is back: exact rate limits and quotas restored');
    else
      this.logger.warn(
        { err: (error as Error)?.message },
        'redis unavailable: per-minute limit kept in memory, monthly quota not enforced',
      );
  }
}

function threshold(used: number, limit: number): 80 | 100 | null {
  if (used === limit) return 100;
  if (used === Math.ceil(limit * 0.8)) return 80;
  return null;
}
