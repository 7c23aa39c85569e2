import { DAILY_KEPT_DAYS } from '../../../common/contracts/usage-keys';

/**
 * What the limits decide for a call, and what an admission took so that it can be given back:
 * shared by the Redis path (redis-admission.ts), the in-memory path of a Redis outage
 * (insurance-limiter.ts) and the limiter that chooses between them (usage-limiter.ts).
 */
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

/** A call to admit, with the month it is counted in (`resetAt` is that month's end). */
export interface AdmitRequest {
  subject: LimitSubject;
  now: Date;
  resetAt: Date;
}

/** What an admission took, so that it can be given back (UsageLimiter.admitIf). */
export interface Taken {
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

export interface Admission {
  decision: LimitDecision;
  taken: Taken;
}

/** The per-minute window, in seconds (on Redis and in memory alike). */
export const WINDOW_SECONDS = 60;
export const DAY_MS = 86_400_000;

let days = { number: Number.NaN, today: '', oldest: '' };

/** Today and the oldest day the daily hash keeps (YYYY-MM-DD), worked out once a day. */
export function keptDays(now: Date): [today: string, oldest: string] {
  const number = Math.floor(now.getTime() / DAY_MS);
  if (number !== days.number) {
    const date = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
    days = { number, today: date(number), oldest: date(number - (DAILY_KEPT_DAYS - 1)) };
  }
  return [days.today, days.oldest];
}

/** The threshold of the monthly quota that the `used`th request reaches, if any. */
export function crossedThreshold(used: number, limit: number): 80 | 100 | null {
  if (used === limit) return 100;
  if (used === Math.ceil(limit * 0.8)) return 80;
  return null;
}
