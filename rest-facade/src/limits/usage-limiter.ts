import { Cluster } from 'ioredis';
import type { RedisClient } from '../../../common/platform/redis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Logger } from '../../../common/platform/logger';
import { InsuranceLimiter } from './insurance-limiter';
import { UncountedCalls } from './uncounted-calls';
import { defineUsageScripts, type UsageScripts } from './usage-scripts';
import {
  DAILY_KEPT_DAYS,
  MONTH_COUNTER_GRACE_MS,
  minuteWindowId,
  monthlyResetAt,
  usageKeys,
} from '../../../common/contracts/usage-keys';
import { upstreamUnavailable } from '../errors';
import { minuteLimiterOnRedis } from '../../../common/platform/per-minute-limit';
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
  private readonly insurance: InsuranceLimiter;
  private readonly scripts: UsageScripts;
  private readonly keys: ReturnType<typeof usageKeys>;
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
    this.scripts = defineUsageScripts(redis);
    this.insurance = new InsuranceLimiter(WINDOW_SECONDS, logger);
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
    await this.scripts
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
    const scripts = this.scripts;
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
    this.insurance.markStore(failure === null, failure);
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
      returns.push(this.scripts.waCountKeyCalls(...key.keys, ...key.args, -calls.length));
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
    const wait = await this.insurance.take(
      subject.billingOrganizationId,
      subject.requestsPerMinute,
    );
    if (wait === null) taken.minutePoint = true;
    else {
      decision.outcome = 'rate_limited';
      decision.retryAfterSeconds = Math.max(1, Math.ceil(wait / 1000));
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
          : this.insurance.giveBack(subject.billingOrganizationId, subject.requestsPerMinute),
      );
    }
    if (taken.monthlyCount) returns.push(this.refundMonthly(subject, decision.resetAt));
    if (taken.keyCount) {
      const key = this.keyCounting(subject.keyId, taken.now);
      returns.push(this.scripts.waCountKeyCalls(...key.keys, ...key.args, -1));
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
}

function threshold(used: number, limit: number): 80 | 100 | null {
  if (used === limit) return 100;
  if (used === Math.ceil(limit * 0.8)) return 80;
  return null;
}
