import { Cluster } from 'ioredis';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClient } from '../../../common/platform/redis';
import {
  DAILY_KEPT_DAYS,
  MONTH_COUNTER_GRACE_MS,
  minuteWindowId,
  usageKeys,
} from '../../../common/contracts/usage-keys';
import { minuteLimiterOnRedis } from '../../../common/platform/per-minute-limit';
import {
  crossedThreshold,
  DAY_MS,
  keptDays,
  WINDOW_SECONDS,
  type AdmitRequest,
  type Admission,
  type LimitDecision,
  type LimitSubject,
} from './limit-decision';
import type { UsageScripts } from './usage-scripts';

/** What the scripts answer when a counter they count in is missing: restore it first. */
export const MISSING = -1;

/** What the admission script says of a group of calls (admit-calls.lua). */
export interface GroupAdmission {
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

/**
 * What Redis counted for one key's calls of a turn: the organization's admission and the key's
 * total, each null when Redis could not be reached for it (`failure` is then the error).
 */
export interface RedisCounts {
  organization: GroupAdmission | null;
  keyTotal: number | null;
  failure: unknown;
}

/**
 * The limits on Redis: runs the admission scripts (rest-facade/lua, usage-scripts.ts) for one
 * key's calls of a turn (one command on a single server; on a Redis Cluster one per slot, sent
 * together), decides each call from their figures, and gives back what a call took. The minute
 * windows are the ones rate-limiter-flexible counts (common/platform/per-minute-limit.ts).
 */
export class RedisAdmission {
  /**
   * rate-limiter-flexible on the windows the admission script counts (same keys, same counting),
   * for giving a point back; a point given back ignores the limit, so one serves every limit.
   */
  private readonly windows: RateLimiterRedis;
  private readonly keys: ReturnType<typeof usageKeys>;
  /** One command for everything, where every key is on the same server (not a Cluster). */
  private readonly inOneScript: boolean;

  constructor(
    redis: RedisClient,
    prefix: string,
    private readonly scripts: UsageScripts,
  ) {
    this.keys = usageKeys(prefix);
    this.windows = minuteLimiterOnRedis(redis, `${prefix}rl:minute`, 1);
    this.inOneScript = !(redis instanceof Cluster);
  }

  /**
   * Counts one key's calls (all of the same key, organization, limits and day) on Redis, or
   * MISSING when a counter is missing: then nothing stays counted.
   */
  count(calls: readonly AdmitRequest[]): Promise<RedisCounts | typeof MISSING> {
    return this.inOneScript ? this.countInOneScript(calls) : this.countInTwoSlots(calls);
  }

  /** Each call's decision from its group's admission, in the order the calls came. */
  decide(
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
        crossedThreshold:
          outcome === 'admitted' ? crossedThreshold(used, subject.requestsPerMonth) : null,
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

  /** Gives one point of the organization's current minute window back. */
  givePointBack(subject: LimitSubject): Promise<unknown> {
    return this.windows.reward(minuteWindowId(subject.billingOrganizationId), 1);
  }

  /**
   * Takes back one call's monthly count, in the month that counted it (`resetAt` is that month's
   * end). Never rejects.
   */
  async refundMonthly(subject: LimitSubject, resetAt: Date): Promise<void> {
    const countedIn = new Date(resetAt.getTime() - 1);
    await this.scripts
      .waRefundMonthly(this.keys.monthly(subject.billingOrganizationId, countedIn))
      .catch(() => undefined);
  }

  /** Counts `calls` (negative: gives them back) in the key's total and its day of `now`. */
  countKeyCalls(keyId: string, now: Date, calls: number): Promise<number> {
    const key = this.keyCounting(keyId, now);
    return this.scripts.waCountKeyCalls(...key.keys, ...key.args, calls);
  }

  /** admit.lua: the organization's and the key's counters, in one command on one server. */
  private async countInOneScript(
    calls: readonly AdmitRequest[],
  ): Promise<RedisCounts | typeof MISSING> {
    const { subject, now } = calls[0]!;
    const key = this.keyCounting(subject.keyId, now);
    try {
      const figures = await this.scripts.waAdmitCalls(
        ...this.organizationKeys(calls),
        ...key.keys,
        ...this.organizationArgs(calls),
        ...key.args,
      );
      if (Number(figures[0]) === MISSING) return MISSING;
      return { organization: groupAdmission(figures), keyTotal: Number(figures[5]), failure: null };
    } catch (error) {
      return { organization: null, keyTotal: null, failure: error };
    }
  }

  /**
   * On a Redis Cluster, the organization's (admit-organization.lua) and the key's (count-key.lua)
   * counters, in the two slots' commands sent together.
   */
  private async countInTwoSlots(
    calls: readonly AdmitRequest[],
  ): Promise<RedisCounts | typeof MISSING> {
    const { subject, now } = calls[0]!;
    const key = this.keyCounting(subject.keyId, now);
    // Both settle before either failure is looked at.
    const [organizationResult, keyResult] = await Promise.allSettled([
      this.scripts.waAdmitOrganizationCalls(
        ...this.organizationKeys(calls),
        ...this.organizationArgs(calls),
      ),
      this.scripts.waCountKeyCalls(...key.keys, ...key.args, calls.length),
    ]);
    const counts: RedisCounts = { organization: null, keyTotal: null, failure: null };
    if (organizationResult.status === 'fulfilled')
      counts.organization = groupAdmission(organizationResult.value);
    else counts.failure = organizationResult.reason;
    if (keyResult.status === 'fulfilled') counts.keyTotal = Number(keyResult.value);
    else counts.failure ??= keyResult.reason;
    if (counts.organization?.windowUsed === MISSING || counts.keyTotal === MISSING) {
      await this.takeBackCounted(calls, counts);
      return MISSING;
    }
    return counts;
  }

  /**
   * On a Redis Cluster, one script found its counter missing and counted nothing while the other
   * counted: what the other took goes back before the restore and the admission's second run.
   */
  private async takeBackCounted(
    calls: readonly AdmitRequest[],
    { organization, keyTotal }: RedisCounts,
  ): Promise<void> {
    const { subject, now, resetAt } = calls[0]!;
    const returns: Array<Promise<unknown>> = [];
    if (organization && organization.windowUsed !== MISSING && organization.taken > 0) {
      const window = minuteWindowId(subject.billingOrganizationId);
      returns.push(this.windows.reward(window, organization.taken));
      for (let i = 0; i < organization.taken; i += 1)
        returns.push(this.refundMonthly(subject, resetAt));
    }
    if (keyTotal !== null && keyTotal !== MISSING)
      returns.push(this.countKeyCalls(subject.keyId, now, -calls.length));
    await Promise.allSettled(returns);
  }

  /** The organization's minute window and monthly counter (its hash tag's slot). */
  private organizationKeys(calls: readonly AdmitRequest[]) {
    const { subject, now } = calls[0]!;
    return [
      this.keys.minuteWindow(subject.billingOrganizationId),
      this.keys.monthly(subject.billingOrganizationId, now),
    ] as const;
  }

  /** admitCalls' arguments: the calls, the window, the limits, the monthly counter's expiry. */
  private organizationArgs(calls: readonly AdmitRequest[]) {
    const { subject, resetAt } = calls[0]!;
    return [
      calls.length,
      WINDOW_SECONDS,
      subject.requestsPerMinute,
      subject.requestsPerMonth,
      resetAt.getTime() + MONTH_COUNTER_GRACE_MS,
    ] as const;
  }

  /** A key's counters and countKeyCalls' arguments but the number of calls, on `now`'s day. */
  private keyCounting(keyId: string, now: Date) {
    return {
      keys: [this.keys.keyTotal(keyId), this.keys.keyDaily(keyId)] as const,
      args: [...keptDays(now), DAILY_KEPT_DAYS * DAY_MS] as const,
    };
  }
}
