import { Headroom } from '../../rest-facade/src/limits/headroom';
import type { LimitDecision } from '../../rest-facade/src/limits/usage-limiter';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const ORG = 'org-1';

function decision(overrides: Partial<LimitDecision> = {}): LimitDecision {
  return {
    outcome: 'admitted',
    minuteRemaining: 3,
    minuteWindowEndsInMs: 30_000,
    retryAfterSeconds: 0,
    monthlyUsed: 100,
    keyTotal: 100,
    resetAt: new Date('2026-12-01T00:00:00Z'),
    day: '2026-11-22',
    crossedThreshold: null,
    ...overrides,
  };
}

function claims(headroom: Headroom, count: number, now = NOW): boolean[] {
  return Array.from({ length: count }, () => headroom.claim(ORG, now));
}

describe('early starts (Headroom)', () => {
  it('LIM-8: when nothing is known of an organization, then no call starts early', () => {
    expect(new Headroom().claim(ORG, NOW)).toBe(false);
  });

  it('LIM-8: when the last decision left 3 calls this minute, then at most 3 start early until they end', () => {
    const headroom = new Headroom();
    headroom.record(ORG, decision({ minuteRemaining: 3 }), 10_000, NOW);
    expect(claims(headroom, 4)).toEqual([true, true, true, false]);
    headroom.release(ORG);
    expect(claims(headroom, 2)).toEqual([true, false]);
  });

  it('LIM-8: when a new decision arrives, then the calls still in flight keep counting against it', () => {
    const headroom = new Headroom();
    headroom.record(ORG, decision({ minuteRemaining: 5 }), 10_000, NOW);
    expect(claims(headroom, 2)).toEqual([true, true]);
    headroom.record(ORG, decision({ minuteRemaining: 3 }), 10_000, NOW);
    expect(claims(headroom, 2)).toEqual([true, false]);
  });

  it('LIM-3: when the organization was rate limited, then calls wait for their decision', () => {
    const headroom = new Headroom();
    headroom.record(
      ORG,
      decision({ outcome: 'rate_limited', minuteRemaining: 0, retryAfterSeconds: 20 }),
      10_000,
      NOW,
    );
    expect(headroom.claim(ORG, NOW)).toBe(false);
  });

  it('LIM-3: when the minute window of the last decision is over, then nothing is known any more', () => {
    const headroom = new Headroom();
    headroom.record(
      ORG,
      decision({ minuteRemaining: 50, minuteWindowEndsInMs: 1_000 }),
      10_000,
      NOW,
    );
    expect(headroom.claim(ORG, NOW + 999)).toBe(true);
    expect(headroom.claim(ORG, NOW + 1_000)).toBe(false);
  });

  it('LIM-4: when the month has less room than the minute, then the month bounds early starts', () => {
    const headroom = new Headroom();
    headroom.record(ORG, decision({ minuteRemaining: 50, monthlyUsed: 9_998 }), 10_000, NOW);
    expect(claims(headroom, 3)).toEqual([true, true, false]);
    headroom.record(
      ORG,
      decision({ outcome: 'quota_exhausted', minuteRemaining: 50, monthlyUsed: 10_000 }),
      10_000,
      NOW,
    );
    headroom.release(ORG);
    headroom.release(ORG);
    expect(headroom.claim(ORG, NOW)).toBe(false);
  });

  it('LIM-6: when the decision was only an estimate (Redis unavailable), then calls wait for their decision', () => {
    const headroom = new Headroom();
    headroom.record(ORG, decision(), 10_000, NOW);
    headroom.record(
      ORG,
      decision({ minuteRemaining: null, minuteWindowEndsInMs: null, monthlyUsed: null }),
      10_000,
      NOW,
    );
    expect(headroom.claim(ORG, NOW)).toBe(false);
  });

  it('when another organization has room, then it does not lend it', () => {
    const headroom = new Headroom();
    headroom.record('org-2', decision({ minuteRemaining: 100 }), 10_000, NOW);
    expect(headroom.claim(ORG, NOW)).toBe(false);
  });
});
