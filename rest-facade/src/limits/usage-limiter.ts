import type { RedisClient } from '../../../common/platform/redis';
import type { Logger } from '../../../common/platform/logger';
import { monthlyResetAt } from '../../../common/contracts/usage-keys';
import { groupIndexes, turnBatch } from '../../../common/platform/turn-batch';
import { upstreamUnavailable } from '../errors';
import { InsuranceLimiter } from './insurance-limiter';
import {
  keptDays,
  WINDOW_SECONDS,
  type Admission,
  type AdmitRequest,
  type LimitDecision,
  type LimitSubject,
} from './limit-decision';
import { MISSING, RedisAdmission } from './redis-admission';
import { UncountedCalls } from './uncounted-calls';
import { defineUsageScripts } from './usage-scripts';

export type { LimitDecision, LimitSubject } from './limit-decision';
export { monthlyResetAt };

/** Sets the counters Redis does not have before a call is counted in them (usage-restorer.ts). */
export interface CounterRestorer {
  restore(subject: LimitSubject, at: Date): Promise<void>;
}

/** A point is given back only while its window has this long left (time to reach Redis). */
const GIVE_BACK_MARGIN_MS = 1_000;

/**
 * Per-minute limit (fixed 60-second windows on Redis, counted as rate-limiter-flexible counts
 * them: common/platform/per-minute-limit.ts) and monthly quota, decided together with the key's
 * counts in one Redis command per key and turn: one round trip per call (redis-admission.ts, with
 * the Lua of rest-facade/lua; docs/api.md, "Limits and quotas"). When Redis fails, an in-memory
 * limiter per instance (insurance-limiter.ts) keeps the per-minute limit approximately, the
 * monthly quota is not enforced until Redis is back, and the key's counts wait in memory
 * (uncounted-calls.ts; docs/api.md, "When Redis is unavailable"). This class chooses between the
 * two paths, has missing counters restored, and gives back what a call took.
 */
export class UsageLimiter {
  private readonly onRedis: RedisAdmission;
  private readonly insurance: InsuranceLimiter;
  private readonly uncounted: UncountedCalls;
  /** The admissions of a turn's calls, one command per key and month. */
  private readonly admissions = turnBatch((requests: readonly AdmitRequest[]) =>
    this.admitTurn(requests),
  );

  constructor(
    redis: RedisClient,
    prefix: string,
    private readonly logger: Logger,
    private readonly restorer: CounterRestorer,
  ) {
    const scripts = defineUsageScripts(redis);
    this.uncounted = new UncountedCalls(redis, scripts, prefix, logger);
    this.onRedis = new RedisAdmission(redis, prefix, scripts);
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
  refundMonthly(subject: LimitSubject, resetAt: Date): Promise<void> {
    return this.onRedis.refundMonthly(subject, resetAt);
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
      const counted = await this.decideKeyCalls(calls);
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

  /**
   * The decisions of Redis, or of the insurance limiter for what Redis could not answer (a key
   * count Redis could not take is held for later), or MISSING when a counter is missing.
   */
  private async decideKeyCalls(
    calls: readonly AdmitRequest[],
  ): Promise<Admission[] | typeof MISSING> {
    const counted = await this.onRedis.count(calls);
    if (counted === MISSING) return MISSING;
    const { organization, keyTotal, failure } = counted;
    this.insurance.markStore(failure === null, failure);
    const { keyId } = calls[0]!.subject;
    if (keyTotal === null) for (const call of calls) this.uncounted.add(keyId, call.now);
    if (!organization)
      return Promise.all(calls.map((call) => this.insurance.admit(call, keyTotal !== null)));
    return this.onRedis.decide(calls, organization, keyTotal);
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
          ? this.onRedis.givePointBack(subject)
          : this.insurance.giveBack(subject.billingOrganizationId, subject.requestsPerMinute),
      );
    }
    if (taken.monthlyCount) returns.push(this.refundMonthly(subject, decision.resetAt));
    if (taken.keyCount) returns.push(this.onRedis.countKeyCalls(subject.keyId, taken.now, -1));
    else this.uncounted.remove(subject.keyId, taken.now);
    await Promise.allSettled(returns);
  }
}
