/**
 * What the limits answer for a call (rest-facade/src/limits/usage-limiter.ts decides): the usage
 * headers, the 429s, the usage threshold events, the refund of a call that failed on our side,
 * and what the call counts toward in its log.
 */
import type { Response } from 'express';
import type { CallUsage } from '../../../common/contracts/call-log';
import { buildEvent, publishPlatformEvent } from '../../../common/contracts/platform-events';
import type { KeyContext } from '../auth/api-key-auth';
import type { ExternalApiDeps } from '../deps';
import { monthlyLimitExceeded, rateLimited, type ApiError } from '../errors';
import type { LimitDecision, LimitSubject } from './usage-limiter';

export const limitSubject = (context: KeyContext): LimitSubject => ({
  keyId: context.keyId,
  billingOrganizationId: context.billingOrganizationId,
  requestsPerMinute: context.requestsPerMinute,
  requestsPerMonth: context.requestsPerMonth,
});

/**
 * What the call counts toward, for its call log record (the usage ledger is built from those):
 * every decided call counts for its key on its day; an admitted call counted on Redis uses a
 * request of its organization's month (a call decided in memory during a Redis outage does not).
 */
export function usageOf(context: KeyContext, decision: LimitDecision): CallUsage {
  const month = new Date(decision.resetAt.getTime() - 1).toISOString().slice(0, 7);
  const quota = decision.outcome === 'admitted' && decision.monthlyUsed !== null;
  return { day: decision.day, quota: quota ? `${context.billingOrganizationId}|${month}` : null };
}

/**
 * The limits' part of every answer to an identified key: records the decision (headroom), sets
 * the spec's usage headers, announces a crossed threshold, and throws the 429 of a refused call.
 */
export function answerLimits(
  deps: ExternalApiDeps,
  res: Response,
  context: KeyContext,
  usage: LimitDecision,
): void {
  deps.headroom.record(context.billingOrganizationId, usage, context.requestsPerMonth);
  setUsageHeaders(res, context, usage);
  if (usage.crossedThreshold) publishUsageThreshold(deps, context, usage);
  const refusal = limitError(context, usage);
  if (refusal) {
    deps.refusals.count(context.tier, usage);
    throw refusal;
  }
}

/**
 * A call that failed on our side (5xx) gives its monthly count back, so an outage of ours costs no
 * quota, and its `X-Usage-Monthly` already shows it. The per-minute point stays, so retries are
 * still paced. True when a count went back (the call then uses no request of its month); false for
 * a call decided in memory during a Redis outage, which counted none.
 */
export async function refundFailedCall(
  deps: ExternalApiDeps,
  res: Response,
  context: KeyContext,
  usage: LimitDecision,
): Promise<boolean> {
  if (usage.monthlyUsed === null) return false;
  await deps.limiter.refundMonthly(limitSubject(context), usage.resetAt);
  res.setHeader('X-Usage-Monthly', String(usage.monthlyUsed - 1));
  return true;
}

/** The spec's header table, on every response to an identified key. */
export function setUsageHeaders(res: Response, key: KeyContext, usage: LimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(key.requestsPerMinute));
  if (usage.minuteRemaining !== null)
    res.setHeader('X-RateLimit-Remaining', String(usage.minuteRemaining));
  if (usage.monthlyUsed !== null) res.setHeader('X-Usage-Monthly', String(usage.monthlyUsed));
  res.setHeader('X-Usage-Limit', String(key.requestsPerMonth));
  res.setHeader('X-Usage-Reset', usage.resetAt.toISOString());
  if (usage.keyTotal !== null) res.setHeader('X-Usage-Total', String(usage.keyTotal));
}

function limitError(key: KeyContext, usage: LimitDecision): ApiError | null {
  if (usage.outcome === 'rate_limited') {
    return rateLimited(
      `Rate limit of ${key.requestsPerMinute} requests per minute exceeded; retry in ${usage.retryAfterSeconds} seconds`,
      usage.retryAfterSeconds,
    );
  }
  if (usage.outcome === 'quota_exhausted') {
    return monthlyLimitExceeded(
      `Monthly quota of ${key.requestsPerMonth} requests used up; it resets at ${usage.resetAt.toISOString()}`,
    );
  }
  return null;
}

/**
 * One event per organization, month, quota and threshold: its id says which, and it is published
 * once, so a call that crossed the threshold and then gave its count back (a 5xx) does not make
 * the next call announce it again. A new quota (a plan change) has thresholds of its own.
 */
function publishUsageThreshold(deps: ExternalApiDeps, key: KeyContext, usage: LimitDecision): void {
  const month = new Date(usage.resetAt.getTime() - 1).toISOString().slice(0, 7);
  const event = buildEvent(
    'usage.threshold_reached',
    key.userId,
    key.billingOrganizationId,
    {
      percent: usage.crossedThreshold,
      used: usage.monthlyUsed,
      limit: key.requestsPerMonth,
      resetsAt: usage.resetAt.toISOString(),
    },
    `evt_usage_threshold_reached_${key.billingOrganizationId}_${month}_${key.requestsPerMonth}_${usage.crossedThreshold}`,
  );
  publishPlatformEvent(deps.redis, deps.config.redisKeyPrefix, event, { once: true }).catch(
    (error: unknown) =>
      deps.logger.error(
        { err: (error as Error).message, eventId: event.id },
        'could not publish usage event',
      ),
  );
}
