import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../../../common/platform/logger';
import {
  keptDays,
  type Admission,
  type AdmitRequest,
  type LimitDecision,
  type Taken,
} from './limit-decision';

/**
 * While Redis is away: each instance's own count of the per-minute limit (rate-limiter-flexible's
 * in-memory limiter, one per limit), the decisions it makes, and the log lines of the outage. The
 * monthly quota is not enforced until Redis is back (docs/api.md); the key's counts are held by
 * UncountedCalls meanwhile.
 */
export class InsuranceLimiter {
  private readonly limiters = new Map<number, RateLimiterMemory>();
  private storeHealthy = true;

  constructor(
    private readonly windowSeconds: number,
    private readonly logger: Logger,
  ) {}

  /**
   * A call decided in memory: admitted while this instance's count of the organization's minute
   * has room, else refused for the minute. No monthly figures and no key total (only estimates
   * exist); `keyCounted` says whether Redis still counted the call for its key.
   */
  async admit(call: AdmitRequest, keyCounted: boolean): Promise<Admission> {
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
    const wait = await this.take(subject.billingOrganizationId, subject.requestsPerMinute);
    if (wait === null) taken.minutePoint = true;
    else {
      decision.outcome = 'rate_limited';
      decision.retryAfterSeconds = Math.max(1, Math.ceil(wait / 1000));
    }
    return { decision, taken };
  }

  /**
   * Takes a point of the organization's minute: null when it had room, else the milliseconds
   * until it has.
   */
  private async take(organizationId: string, perMinute: number): Promise<number | null> {
    try {
      await this.limiter(perMinute).consume(organizationId, 1);
      return null;
    } catch (rejection) {
      return rejection instanceof RateLimiterRes
        ? rejection.msBeforeNext
        : this.windowSeconds * 1000;
    }
  }

  /** Gives a point taken by `take` back. */
  giveBack(organizationId: string, perMinute: number): Promise<unknown> {
    return this.limiter(perMinute).reward(organizationId, 1);
  }

  /** Logs the transitions only, so an outage is one warning and one recovery line. */
  markStore(healthy: boolean, error?: unknown): void {
    if (healthy === this.storeHealthy) return;
    this.storeHealthy = healthy;
    if (healthy) this.logger.info('redis is back: exact rate limits and quotas restored');
    else
      this.logger.warn(
        { err: (error as Error)?.message },
        'redis unavailable: per-minute limit kept in memory, monthly quota not enforced',
      );
  }

  /**
   * One limiter per limit: during a Redis outage a plan change starts afresh (on Redis, one window
   * per organization whatever its limit keeps what the minute used).
   */
  private limiter(points: number): RateLimiterMemory {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterMemory({
        keyPrefix: `insurance:${points}`,
        points,
        duration: this.windowSeconds,
      });
      this.limiters.set(points, limiter);
    }
    return limiter;
  }
}
