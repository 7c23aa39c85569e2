import {
  nextDelayMs,
  parseRetryAfter,
  retryDelayMs,
} from '../../subgraphs/webhooks/src/domain/retry-schedule';

const MINUTE = 60_000;
const noJitter = () => 0.5;

describe('webhook retry schedule', () => {
  it('HOOK-10: when the base is one minute, then 8 retries wait 1, 3, 9, 27, 81, 243, 480, 480 minutes: about a day in all', () => {
    const delays = [2, 3, 4, 5, 6, 7, 8, 9].map(
      (attempt) => retryDelayMs(attempt, MINUTE, noJitter) / MINUTE,
    );
    expect(delays).toEqual([1, 3, 9, 27, 81, 243, 480, 480]);
    const hours = delays.reduce((a, b) => a + b, 0) / 60;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(26);
  });

  it('when jitter applies, then a delay stays within ±20 %', () => {
    expect(retryDelayMs(3, MINUTE, () => 0)).toBe(3 * MINUTE * 0.8);
    expect(retryDelayMs(3, MINUTE, () => 1)).toBe(3 * MINUTE * 1.2);
  });

  it('when Retry-After is given in seconds or as a date, then it is read in milliseconds', () => {
    const now = Date.parse('2026-11-21T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('999999999', now)).toBe(24 * 3_600_000);
  });

  it('when the receiver asks to wait longer than the backoff, then the longer wait wins', () => {
    expect(nextDelayMs(2, 1_000, 5_000, noJitter)).toBe(5_000);
    expect(nextDelayMs(2, 1_000, 100, noJitter)).toBe(1_000);
    expect(nextDelayMs(2, 1_000, null, noJitter)).toBe(1_000);
  });
});
