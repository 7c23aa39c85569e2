/** Each retry waits RETRY_FACTOR times longer than the one before… */
export const RETRY_FACTOR = 3;
/** …up to this multiple of the base delay (8 h with the default 1-minute base). */
export const RETRY_CAP_MULTIPLE = 480;
/** Delays are spread ±20 % so that receivers recovering from an outage are not hit in waves. */
export const RETRY_JITTER = 0.2;
/** A Retry-After longer than this is not waited for in full. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Delay before attempt `nextAttempt` (2 for the first retry): base × 3^(n−2), capped, with jitter.
 * With a one-minute base: 1 m, 3 m, 9 m, 27 m, 81 m, 4 h 3 m, 8 h, 8 h, about 22 h in all.
 */
export function retryDelayMs(
  nextAttempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const exponential = baseMs * RETRY_FACTOR ** Math.max(0, nextAttempt - 2);
  const capped = Math.min(exponential, baseMs * RETRY_CAP_MULTIPLE);
  const jitter = 1 + RETRY_JITTER * (2 * random() - 1);
  return Math.round(capped * jitter);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1_000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The wait before the next attempt: the backoff, or longer when the receiver asked for it. */
export function nextDelayMs(
  nextAttempt: number,
  baseMs: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const backoff = retryDelayMs(nextAttempt, baseMs, random);
  return retryAfterMs === null ? backoff : Math.max(backoff, retryAfterMs);
}
