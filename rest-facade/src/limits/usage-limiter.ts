import { Cluster } from 'ioredis';
import type { RedisClient } from '../../../common/platform/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../../../common/platform/logger';
import { UncountedCalls } from './uncounted-calls';
import { usageKeys } from '../../../common/contracts/usage-keys';
import { minuteLimiterOnRedis } from '../../../common/platform/per-minute-limit';
import { groupIndexes, turnBatch } from '../../../common/platform/turn-batch';

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
 * The counts of a turn's calls of one key (common/platform/turn-batch.ts), as Lua functions shared
 * by the scripts below.
 *
 * countMonthly(counter, calls admitted by the minute, monthly limit, counter expiry in ms epoch)
 * returns {calls counted, the count after them}: as many as the quota has room for, in one step,
 * so N concurrent requests against a quota of L admit exactly L, across any number of facade
 * instances.
 *
 * countKeyCalls(total, daily hash, today YYYY-MM-DD, oldest day kept YYYY-MM-DD, hash lifetime
 * ms, calls) returns the key's total after them. The first calls of a day drop the days that left
 * the window (dates compare as strings) and extend the hash's life, so an unused key's hash goes
 * away.
 */
const COUNTS = `
local function countMonthly(counter, wanted, limit, expiry)
  local used = tonumber(redis.call('GET', counter) or '0')
  local take = math.min(tonumber(wanted), tonumber(limit) - used)
  if take <= 0 then return {0, used} end
  used = redis.call('INCRBY', counter, take)
  if used == take then redis.call('PEXPIREAT', counter, expiry) end
  return {take, used}
end
local function countKeyCalls(total, daily, today, oldest, lifetime, calls)
  local sum = redis.call('INCRBY', total, calls)
  if redis.call('HINCRBY', daily, today, calls) == tonumber(calls) then
    for _, day in ipairs(redis.call('HKEYS', daily)) do
      if day < oldest then redis.call('HDEL', daily, day) end
    end
    redis.call('PEXPIRE', daily, lifetime)
  end
  return sum
end
`;

/**
 * Both counts in one command, on a single Redis server. KEYS: key total, key daily hash, monthly
 * counter; ARGV: countKeyCalls' four, then countMonthly's three. Returns {key total, calls
 * counted for the month, monthly count}.
 */
const CALL_COUNT_SCRIPT = `${COUNTS}
local monthly = countMonthly(KEYS[3], ARGV[5], ARGV[6], ARGV[7])
return {countKeyCalls(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4]), monthly[1], monthly[2]}`;

/**
 * On a Redis Cluster the key's counters (hash tag `{key id}`) and the organization's (`{org id}`)
 * live in two slots, which one script cannot touch: one script each, sent in the same tick.
 */
const KEY_COUNT_SCRIPT = `${COUNTS}
return countKeyCalls(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;
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

/** A call's monthly count: [1 counted, 0 refused (quota used up), 2 not asked (minute refused); the count]. */
type MonthlyResult = [number, number];

interface UsageScripts {
  waCountCalls(...args: Array<string | number>): Promise<[number, number, number]>;
  waCountMonthlyCalls(...args: Array<string | number>): Promise<[number, number]>;
  waCountKeyCalls(...args: Array<string | number>): Promise<number>;
}

/** What one call asks to be counted (decide). */
interface CountRequest {
  subject: LimitSubject;
  admittedByMinute: boolean;
  now: Date;
  resetAt: Date;
}

/** A call's counts; a failed monthly count alone comes back as `monthlyFailure`. */
type Counted =
  { keyTotal: number; monthly: MonthlyResult } | { keyTotal: number; monthlyFailure: unknown };

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
  /** The per-minute points of a turn's calls, one take per organization and limit. */
  private readonly minutes = turnBatch((subjects: readonly LimitSubject[]) =>
    this.takeMinutes(subjects),
  );
  /** The counts of a turn's calls, one command per key and month. */
  private readonly counts = turnBatch((requests: readonly CountRequest[]) =>
    this.countCalls(requests),
  );

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.keys = usageKeys(prefix);
    this.uncounted = new UncountedCalls(redis, prefix, logger);
    this.countsInOneScript = !(redis instanceof Cluster);
    redis.defineCommand('waCountCalls', { numberOfKeys: 3, lua: CALL_COUNT_SCRIPT });
    redis.defineCommand('waCountMonthlyCalls', { numberOfKeys: 1, lua: MONTHLY_SCRIPT });
    redis.defineCommand('waCountKeyCalls', { numberOfKeys: 2, lua: KEY_COUNT_SCRIPT });
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
      const counted = await this.counts.load({
        subject,
        admittedByMinute: minute.admitted,
        now,
        resetAt,
      });
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
   * The counts of a turn's calls: per key and day, one command counts all of its calls, the
   * key's for every call and the month's for the calls the minute admitted, as many as the quota
   * has room for. Each call gets the counts it would have got alone, in the order the calls came.
   */
  private async countCalls(requests: readonly CountRequest[]): Promise<Array<Counted | Error>> {
    const counted = new Array<Counted | Error>(requests.length);
    const groups = groupIndexes(
      requests,
      ({ subject, now }) =>
        `${subject.keyId} ${keptDays(now)[0]} ${subject.billingOrganizationId} ${subject.requestsPerMonth}`,
    );
    await Promise.all(
      groups.map(async (indexes) => {
        const calls = indexes.map((index) => requests[index]!);
        try {
          const counts = await this.countKeyCalls(calls);
          indexes.forEach((index, i) => (counted[index] = counts[i]!));
        } catch (error) {
          for (const index of indexes) counted[index] = error as Error;
        }
      }),
    );
    return counted;
  }

  /**
   * One key's calls of a turn, counted. Rejects when the key's count failed; a failed monthly
   * count alone comes back as `monthlyFailure`, so calls the key's counters took are not held for
   * them again (uncounted).
   */
  private async countKeyCalls(calls: readonly CountRequest[]): Promise<Counted[]> {
    const { subject, now, resetAt } = calls[0]!;
    const scripts = this.redis as unknown as UsageScripts;
    const admitted = calls.filter((call) => call.admittedByMinute).length;
    const keyArgs = [
      this.keys.keyTotal(subject.keyId),
      this.keys.keyDaily(subject.keyId),
      ...keptDays(now),
      DAILY_KEPT_DAYS * DAY_MS,
      calls.length,
    ] as const;
    const monthlyArgs = [
      this.keys.monthly(subject.billingOrganizationId, now),
      admitted,
      subject.requestsPerMonth,
      resetAt.getTime() + MONTH_COUNTER_GRACE_MS,
    ] as const;
    let keyTotal: number;
    let monthly: [counted: number, used: number] | { failure: unknown };
    if (this.countsInOneScript) {
      const [keyCounter, daily, ...keyRest] = keyArgs;
      const [monthlyCounter, ...monthlyRest] = monthlyArgs;
      const [total, taken, used] = await scripts.waCountCalls(
        keyCounter,
        daily,
        monthlyCounter,
        ...keyRest,
        ...monthlyRest,
      );
      keyTotal = Number(total);
      monthly = [Number(taken), Number(used)];
    } else {
      // Both settle before either failure is looked at.
      const [keyResult, monthResult] = await Promise.allSettled([
        scripts.waCountKeyCalls(...keyArgs),
        scripts.waCountMonthlyCalls(...monthlyArgs),
      ]);
      if (keyResult.status === 'rejected') throw keyResult.reason;
      keyTotal = Number(keyResult.value);
      monthly =
        monthResult.status === 'fulfilled'
          ? [Number(monthResult.value[0]), Number(monthResult.value[1])]
          : { failure: monthResult.reason };
    }
    let admittedSoFar = 0;
    return calls.map((call, i): Counted => {
      const total = keyTotal - (calls.length - 1 - i);
      if ('failure' in monthly) return { keyTotal: total, monthlyFailure: monthly.failure };
      const [taken, used] = monthly;
      if (!call.admittedByMinute) return { keyTotal: total, monthly: [2, used] };
      const position = admittedSoFar;
      admittedSoFar += 1;
      return {
        keyTotal: total,
        monthly: position < taken ? [1, used - (taken - 1 - position)] : [0, used],
      };
    });
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
  takeMinute(subject: LimitSubject): Promise<MinuteDecision> {
    return this.minutes.load(subject);
  }

  /** The points of a turn's calls: one take per organization and limit for all of its calls. */
  private async takeMinutes(subjects: readonly LimitSubject[]): Promise<MinuteDecision[]> {
    const decisions = new Array<MinuteDecision>(subjects.length);
    const groups = groupIndexes(
      subjects,
      (subject) => `${subject.billingOrganizationId} ${subject.requestsPerMinute}`,
    );
    await Promise.all(
      groups.map(async (indexes) => {
        const taken = await this.takePoints(subjects[indexes[0]!]!, indexes.length);
        indexes.forEach((index, i) => (decisions[index] = taken[i]!));
      }),
    );
    return decisions;
  }

  /**
   * `calls` points of one organization's minute: all in one take when they fit, each call's
   * remaining count what it would have been alone; else one take per call, so that exactly what
   * is left of the minute is admitted.
   */
  private async takePoints(subject: LimitSubject, calls: number): Promise<MinuteDecision[]> {
    const points = subject.requestsPerMinute;
    try {
      const res = await this.redisLimiter(points).consume(subject.billingOrganizationId, calls);
      this.markStore(true);
      const decidedAt = Date.now();
      return Array.from({ length: calls }, (_, i) => ({
        admitted: true,
        remaining: res.remainingPoints + (calls - 1 - i),
        windowEndsInMs: res.msBeforeNext,
        decidedAt,
        retryAfterSeconds: 0,
        exact: true,
      }));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        this.markStore(true);
        if (calls > 1) {
          const single = Array.from({ length: calls }, () => this.takePoints(subject, 1));
          return (await Promise.all(single)).flat();
        }
        // Not counted (COUNT_ADMITTED_ONLY): the shared counter holds admitted calls only, so a
        // plan upgrade within the minute admits what the new limit allows.
        return [
          {
            admitted: false,
            remaining: 0,
            windowEndsInMs: rejection.msBeforeNext,
            decidedAt: Date.now(),
            retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
            exact: true,
          },
        ];
      }
      this.markStore(false, rejection);
    }
    return Promise.all(Array.from({ length: calls }, () => this.takePointInMemory(subject)));
  }

  /** While Redis is away: this instance's own count of the minute (the insurance limiter). */
  private async takePointInMemory(subject: LimitSubject): Promise<MinuteDecision> {
    try {
      await this.memoryLimiter(subject.requestsPerMinute).consume(subject.billingOrganizationId, 1);
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
