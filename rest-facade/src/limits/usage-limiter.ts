import { Cluster } from 'ioredis';
import type { RedisClient } from '../../../common/platform/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../../../common/platform/logger';
import { UncountedCalls } from './uncounted-calls';
import {
  DAILY_KEPT_DAYS,
  MONTH_COUNTER_GRACE_MS,
  minuteWindowId,
  monthlyResetAt,
  usageKeys,
} from '../../../common/contracts/usage-keys';
import { upstreamUnavailable } from '../errors';
import { minuteLimiterOnRedis, OPEN_WINDOW_LUA } from '../../../common/platform/per-minute-limit';
import { groupIndexes, turnBatch } from '../../../common/platform/turn-batch';

export interface LimitSubject {
  keyId: string;
  /** Usage is counted against the organization whose plan grants the limits (docs/api.md). */
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
  /** The UTC day (YYYY-MM-DD) the call is counted in for its key. */
  day: string;
  /** The request just used 80 % or 100 % of the monthly quota (exactly once per month). */
  crossedThreshold: 80 | 100 | null;
}

/** Sets the counters Redis does not have before a call is counted in them (usage-restorer.ts). */
export interface CounterRestorer {
  restore(subject: LimitSubject, at: Date): Promise<void>;
}

const WINDOW_SECONDS = 60;
const DAY_MS = 86_400_000;
/** What the scripts answer when a counter they count in is missing: restore it first. */
const MISSING = -1;

/**
 * The counts of a turn's calls of one key (common/platform/turn-batch.ts), as Lua functions shared
 * by the scripts below. A counter that is missing (Redis lost it, or it was never made: a new
 * month, a new key) is never made by counting in it: the scripts answer -1 and count nothing, and
 * the keys subgraph sets it from the usage ledger first (CounterRestorer).
 *
 * countMonthly(counter, calls admitted by the minute, monthly limit, counter expiry in ms epoch)
 * returns {calls counted, the count after them}: as many as the quota has room for, in one step,
 * so N concurrent requests against a quota of L admit exactly L, across any number of facade
 * instances.
 *
 * countKeyCalls(total, daily hash, today YYYY-MM-DD, oldest day kept YYYY-MM-DD, hash lifetime
 * ms, calls) returns the key's total after them, or -1 when the total is missing. The first calls
 * of a day drop the days that left the window (dates compare as strings) and extend the hash's
 * life, so an unused key's hash goes away.
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
  if redis.call('EXISTS', total) == 0 then return -1 end
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
 * A turn's calls of one key admitted in one step, as a Lua function: the per-minute window admits
 * as many as it has room for, the month counts as many of those as the quota has room for, and
 * only the calls the month counted keep their minute point (a call refused for the month does not
 * use the minute). Returns {the window's count before, calls the minute admitted, calls the month
 * counted, the monthly count, the window's ms left}, or {-1} when the monthly counter is missing.
 */
const ADMIT = `${OPEN_WINDOW_LUA}
${COUNTS}
local function admitCalls(window, calls, seconds, perMinute, counter, perMonth, expiry)
  if redis.call('EXISTS', counter) == 0 then return {-1} end
  local used, ttl = openWindow(window, seconds)
  local room = math.max(0, math.min(tonumber(calls), tonumber(perMinute) - used))
  local taken, month = 0, tonumber(redis.call('GET', counter) or '0')
  if room > 0 then
    local counted = countMonthly(counter, room, perMonth, expiry)
    taken, month = counted[1], counted[2]
  end
  if taken > 0 then redis.call('INCRBY', window, taken) end
  return {used, room, taken, month, ttl}
end
`;

/**
 * Everything one call's limits need, in one command on a single Redis server. KEYS: minute window,
 * monthly counter, key total, key daily hash; ARGV: calls, window seconds, per-minute limit,
 * monthly limit, monthly counter's expiry (ms epoch), then countKeyCalls' today, oldest day kept
 * and hash lifetime. Returns admitCalls' five figures and the key's total, or {-1} when a counter
 * is missing (nothing counted).
 */
const ADMIT_SCRIPT = `${ADMIT}
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('EXISTS', KEYS[3]) == 0 then return {-1} end
local admitted = admitCalls(KEYS[1], ARGV[1], ARGV[2], ARGV[3], KEYS[2], ARGV[4], ARGV[5])
admitted[6] = countKeyCalls(KEYS[3], KEYS[4], ARGV[6], ARGV[7], ARGV[8], ARGV[1])
return admitted`;

/**
 * On a Redis Cluster the organization's window and counter (hash tag `{org id}`) and the key's
 * counters (`{key id}`) live in two slots, which one script cannot touch: one script each, sent in
 * the same tick (one round trip still; the key's counts do not depend on the admission).
 */
const ADMIT_ORGANIZATION_SCRIPT = `${ADMIT}
return admitCalls(KEYS[1], ARGV[1], ARGV[2], ARGV[3], KEYS[2], ARGV[4], ARGV[5])`;
const KEY_COUNT_SCRIPT = `${COUNTS}
return countKeyCalls(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])`;

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

export { monthlyResetAt };

/** Takes back one quota request, unless the counter is gone (then there is nothing to take back). */
const REFUND_MONTHLY = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return -1`;

interface UsageScripts {
  waAdmitCalls(...args: Array<string | number>): Promise<number[]>;
  waAdmitOrganizationCalls(...args: Array<string | number>): Promise<number[]>;
  waCountKeyCalls(...args: Array<string | number>): Promise<number>;
  waRefundMonthly(key: string): Promise<number>;
}

/** A call to admit (admit), with the month it is counted in. */
interface AdmitRequest {
  subject: LimitSubject;
  now: Date;
  resetAt: Date;
}

/** What an admission took, so that it can be given back (admitIf). */
interface Taken {
  /** Decided by Redis (false: by the in-memory insurance limiter during an outage). */
  exact: boolean;
  minutePoint: boolean;
  monthlyCount: boolean;
  /** Counted in the key's total and daily count (false: held in UncountedCalls). */
  keyCount: boolean;
  now: Date;
  /** When the decision was made (Date.now()) and how long its minute window had left then. */
  decidedAt: number;
  windowEndsInMs: number | null;
}

interface Admission {
  decision: LimitDecision;
  taken: Taken;
}

/** What the admission script says of a group of calls (admitCalls). */
interface GroupAdmission {
  windowUsed: number;
  room: number;
  taken: number;
  monthlyUsed: number;
  windowEndsInMs: number;
}

function groupAdmission(reply: unknown[]): GroupAdmission {
  const [windowUsed, room, taken, monthlyUsed, windowEndsInMs] = reply.slice(0, 5).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { windowUsed, room, taken, monthlyUsed, windowEndsInMs };
}

/** A point is given back only while its window has this long left (time to reach Redis). */
const GIVE_BACK_MARGIN_MS = 1_000;

/**
 * Per-minute limit (fixed 60-second windows on Redis, counted as rate-limiter-flexible counts
 * them: common/platform/per-minute-limit.ts) and monthly quota, decided together with the key's
 * counts in one Redis command per key and turn: one round trip per call. When Redis fails, an
 * in-memory limiter per instance (rate-limiter-flexible's) keeps the per-minute limit
 * approximately and the monthly quota is not enforced until Redis is back.
 */
export class UsageLimiter {
  /**
   * rate-limiter-flexible on the windows the admission script counts (same keys, same counting),
   * for giving a point back; a point given back ignores the limit, so one serves every limit.
   */
  private readonly windows: RateLimiterRedis;
  private readonly memoryLimiters = new Map<number, RateLimiterMemory>();
  private readonly keys: ReturnType<typeof usageKeys>;
  private storeHealthy = true;
  private readonly uncounted: UncountedCalls;
  /** One command for everything, where every key is on the same server (not a Cluster). */
  private readonly inOneScript: boolean;
  /** The admissions of a turn's calls, one command per key and month. */
  private readonly admissions = turnBatch((requests: readonly AdmitRequest[]) =>
    this.admitTurn(requests),
  );

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly restorer: CounterRestorer,
  ) {
    this.keys = usageKeys(prefix);
    this.uncounted = new UncountedCalls(redis, prefix, logger);
    this.windows = minuteLimiterOnRedis(redis, `${prefix}rl:minute`, 1);
    this.inOneScript = !(redis instanceof Cluster);
    redis.defineCommand('waAdmitCalls', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
    redis.defineCommand('waAdmitOrganizationCalls', {
      numberOfKeys: 2,
      lua: ADMIT_ORGANIZATION_SCRIPT,
    });
    redis.defineCommand('waCountKeyCalls', { numberOfKeys: 2, lua: KEY_COUNT_SCRIPT });
    redis.defineCommand('waRefundMonthly', { numberOfKeys: 1, lua: REFUND_MONTHLY });
  }

  /**
   * Takes the call's minute point and monthly count and counts it for its key, in one step, and
   * decides. Without Redis the minute is kept in memory and the monthly figures are null. Rejects
   * (503) only when counters Redis does not have could not be restored.
   */
  async admit(subject: LimitSubject, now = new Date()): Promise<LimitDecision> {
    return (await this.admitCall(subject, now)).decision;
  }

  /**
   * `admit` for a subject known from a cache that `valid` (asked in the same Redis round trip)
   * confirms or not. When it does not, what the call took goes back and null is returned: the
   * caller authenticates again, and nothing was counted.
   */
  async admitIf(subject: LimitSubject, valid: Promise<boolean>): Promise<LimitDecision | null> {
    const [admission, confirmed] = await Promise.all([this.admitCall(subject, new Date()), valid]);
    if (confirmed) return admission.decision;
    await this.giveBack(subject, admission);
    return null;
  }

  /**
   * Takes back one call's monthly count, in the month that counted it (`resetAt` is that month's
   * end): for a call that failed on our side. Never rejects.
   */
  async refundMonthly(subject: LimitSubject, resetAt: Date): Promise<void> {
    const countedIn = new Date(resetAt.getTime() - 1);
    await (this.redis as unknown as UsageScripts)
      .waRefundMonthly(this.keys.monthly(subject.billingOrganizationId, countedIn))
      .catch(() => undefined);
  }

  private async admitCall(subject: LimitSubject, now: Date): Promise<Admission> {
    const resetAt = monthlyResetAt(now);
    const admission = await this.admissions.load({ subject, now, resetAt });
    if (admission.taken.exact && this.uncounted.size > 0) void this.uncounted.flush();
    return admission;
  }

  /**
   * The admissions of a turn's calls: per key, organization, limits and day, one command admits
   * all of its calls. Each call gets the decision it would have got alone, in the order the calls
   * came.
   */
  private async admitTurn(requests: readonly AdmitRequest[]): Promise<Admission[]> {
    const admissions = new Array<Admission>(requests.length);
    const groups = groupIndexes(
      requests,
      ({ subject, now }) =>
        `${subject.keyId} ${keptDays(now)[0]} ${subject.billingOrganizationId} ${subject.requestsPerMinute} ${subject.requestsPerMonth}`,
    );
    await Promise.all(
      groups.map(async (indexes) => {
        const calls = indexes.map((index) => requests[index]!);
        const admitted = await this.admitKeyCalls(calls);
        indexes.forEach((index, i) => (admissions[index] = admitted[i]!));
      }),
    );
    return admissions;
  }

  /**
   * One key's calls of a turn, admitted in one step; without Redis, in memory. When a counter is
   * missing, nothing is counted: it is restored from the usage ledger and the admission runs again.
   */
  private async admitKeyCalls(calls: readonly AdmitRequest[]): Promise<Admission[]> {
    const { subject, now } = calls[0]!;
    for (let attempt = 0; ; attempt += 1) {
      const counted = await this.countKeyCallsInRedis(calls);
      if (counted !== MISSING) return counted;
      if (attempt > 0)
        throw upstreamUnavailable(new Error('usage counters missing after their restore'));
      try {
        await this.restorer.restore(subject, now);
      } catch (error) {
        this.logger.warn(
          { err: (error as Error).message, keyId: subject.keyId },
          'usage counters could not be restored; the call is refused with 503',
        );
        throw upstreamUnavailable(error);
      }
    }
  }

  /** The admission on Redis (in memory when it fails), or MISSING when a counter is missing. */
  private async countKeyCallsInRedis(
    calls: readonly AdmitRequest[],
  ): Promise<Admission[] | typeof MISSING> {
    const { subject, now, resetAt } = calls[0]!;
    const scripts = this.redis as unknown as UsageScripts;
    const organizationKeys = [
      this.keys.minuteWindow(subject.billingOrganizationId),
      this.keys.monthly(subject.billingOrganizationId, now),
    ] as const;
    const organizationArgs = [
      calls.length,
      WINDOW_SECONDS,
      subject.requestsPerMinute,
      subject.requestsPerMonth,
      resetAt.getTime() + MONTH_COUNTER_GRACE_MS,
    ] as const;
    const key = this.keyCounting(subject.keyId, now);
    let organization: GroupAdmission | null = null;
    let keyTotal: number | null = null;
    let failure: unknown = null;
    if (this.inOneScript) {
      try {
        const figures = await scripts.waAdmitCalls(
          ...organizationKeys,
          ...key.keys,
          ...organizationArgs,
          ...key.args,
        );
        if (Number(figures[0]) === MISSING) return MISSING;
        organization = groupAdmission(figures);
        keyTotal = Number(figures[5]);
      } catch (error) {
        failure = error;
      }
    } else {
      // Both settle before either failure is looked at.
      const [organizationResult, keyResult] = await Promise.allSettled([
        scripts.waAdmitOrganizationCalls(...organizationKeys, ...organizationArgs),
        scripts.waCountKeyCalls(...key.keys, ...key.args, calls.length),
      ]);
      if (organizationResult.status === 'fulfilled')
        organization = groupAdmission(organizationResult.value);
      else failure = organizationResult.reason;
      if (keyResult.status === 'fulfilled') keyTotal = Number(keyResult.value);
      else failure ??= keyResult.reason;
      if (organization?.windowUsed === MISSING || keyTotal === MISSING) {
        await this.takeBackCounted(calls, organization, keyTotal);
        return MISSING;
      }
    }
    this.markStore(failure === null, failure);
    if (keyTotal === null) for (const call of calls) this.uncounted.add(subject.keyId, call.now);
    if (!organization)
      return Promise.all(calls.map((call) => this.admitInMemory(call, keyTotal !== null)));
    return this.decideFromRedis(calls, organization, keyTotal);
  }

  /**
   * On a Redis Cluster, one script found its counter missing and counted nothing while the other
   * counted: what the other took goes back before the restore and the admission's second run.
   */
  private async takeBackCounted(
    calls: readonly AdmitRequest[],
    organization: GroupAdmission | null,
    keyTotal: number | null,
  ): Promise<void> {
    const { subject, now, resetAt } = calls[0]!;
    const returns: Array<Promise<unknown>> = [];
    if (organization && organization.windowUsed !== MISSING && organization.taken > 0) {
      const window = minuteWindowId(subject.billingOrganizationId);
      returns.push(this.windows.reward(window, organization.taken));
      for (let i = 0; i < organization.taken; i += 1)
        returns.push(this.refundMonthly(subject, resetAt));
    }
    if (keyTotal !== null && keyTotal !== MISSING) {
      const key = this.keyCounting(subject.keyId, now);
      const scripts = this.redis as unknown as UsageScripts;
      returns.push(scripts.waCountKeyCalls(...key.keys, ...key.args, -calls.length));
    }
    await Promise.allSettled(returns);
  }

  /** Each call's decision from its group's admission, in the order the calls came. */
  private decideFromRedis(
    calls: readonly AdmitRequest[],
    { windowUsed, room, taken, monthlyUsed, windowEndsInMs }: GroupAdmission,
    keyTotal: number | null,
  ): Admission[] {
    const { subject, now, resetAt } = calls[0]!;
    const decidedAt = Date.now();
    return calls.map((_, i): Admission => {
      const outcome = i < taken ? 'admitted' : i < room ? 'quota_exhausted' : 'rate_limited';
      const used = i < taken ? monthlyUsed - (taken - 1 - i) : monthlyUsed;
      const decision: LimitDecision = {
        outcome,
        // A call refused for the month did not use its point.
        minuteRemaining:
          outcome === 'rate_limited'
            ? 0
            : Math.max(0, subject.requestsPerMinute - windowUsed - Math.min(i + 1, taken)),
        minuteWindowEndsInMs: windowEndsInMs,
        retryAfterSeconds:
          outcome === 'rate_limited' ? Math.max(1, Math.ceil(windowEndsInMs / 1000)) : 0,
        monthlyUsed: used,
        keyTotal: keyTotal === null ? null : keyTotal - (calls.length - 1 - i),
        resetAt,
        day: keptDays(now)[0],
        crossedThreshold: outcome === 'admitted' ? threshold(used, subject.requestsPerMonth) : null,
      };
      const counted = outcome === 'admitted';
      return {
        decision,
        taken: {
          exact: true,
          minutePoint: counted,
          monthlyCount: counted,
          keyCount: keyTotal !== null,
          now,
          decidedAt,
          windowEndsInMs,
        },
      };
    });
  }

  /** While Redis is away: this instance's own count of the minute (the insurance limiter). */
  private async admitInMemory(call: AdmitRequest, keyCounted: boolean): Promise<Admission> {
    const { subject, now, resetAt } = call;
    const taken: Taken = {
      exact: false,
      minutePoint: false,
      monthlyCount: false,
      keyCount: keyCounted,
      now,
      decidedAt: Date.now(),
      windowEndsInMs: null,
    };
    const decision: LimitDecision = {
      outcome: 'admitted',
      minuteRemaining: null,
      minuteWindowEndsInMs: null,
      retryAfterSeconds: 0,
      monthlyUsed: null,
      keyTotal: null,
      resetAt,
      day: keptDays(now)[0],
      crossedThreshold: null,
    };
    try {
      await this.memoryLimiter(subject.requestsPerMinute).consume(subject.billingOrganizationId, 1);
      taken.minutePoint = true;
    } catch (rejection) {
      const ms =
        rejection instanceof RateLimiterRes ? rejection.msBeforeNext : WINDOW_SECONDS * 1000;
      decision.outcome = 'rate_limited';
      decision.retryAfterSeconds = Math.max(1, Math.ceil(ms / 1000));
    }
    return { decision, taken };
  }

  /**
   * Gives back what an admission took: its minute point (unless its window has ended or is about
   * to: the point would land in the next window, which never had it), its monthly count and its
   * key's counts. Never rejects.
   */
  private async giveBack(subject: LimitSubject, { decision, taken }: Admission): Promise<void> {
    const returns: Array<Promise<unknown>> = [];
    const windowLeftMs = (taken.windowEndsInMs ?? Infinity) - (Date.now() - taken.decidedAt);
    if (taken.minutePoint && windowLeftMs >= GIVE_BACK_MARGIN_MS) {
      returns.push(
        taken.exact
          ? this.windows.reward(minuteWindowId(subject.billingOrganizationId), 1)
          : this.memoryLimiter(subject.requestsPerMinute).reward(subject.billingOrganizationId, 1),
      );
    }
    if (taken.monthlyCount) returns.push(this.refundMonthly(subject, decision.resetAt));
    if (taken.keyCount) {
      const key = this.keyCounting(subject.keyId, taken.now);
      const scripts = this.redis as unknown as UsageScripts;
      returns.push(scripts.waCountKeyCalls(...key.keys, ...key.args, -1));
    } else this.uncounted.remove(subject.keyId, taken.now);
    await Promise.allSettled(returns);
  }

  /** A key's counters and countKeyCalls' arguments but the number of calls, on `now`'s day. */
  private keyCounting(keyId: string, now: Date) {
    return {
      keys: [this.keys.keyTotal(keyId), this.keys.keyDaily(keyId)] as const,
      args: [...keptDays(now), DAILY_KEPT_DAYS * DAY_MS] as const,
    };
  }

  /**
   * The in-memory insurance limiters, one per limit: during a Redis outage a plan change starts
   * afresh (on Redis, one window per organization whatever its limit keeps what the minute used).
   */
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
