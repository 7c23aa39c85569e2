import type { LimitDecision } from './usage-limiter';

interface KnownRoom {
  minuteRemaining: number;
  minuteWindowEndsAt: number;
  monthRemaining: number;
  inFlight: number;
}

/** Organizations remembered at most; the oldest entries go first. */
const MAX_TRACKED = 10_000;

/**
 * Whether a call may start its (read-only) operation before its limits are decided, to take the
 * limiter's Redis round trip off the response time. Only while this instance's last decision for
 * the organization left room this minute and this month beyond the calls it already started that
 * way: a caller at or near a limit gets the plain order (decide, then run), so refused calls do
 * not make the backend work, apart from at most the calls in flight when the room ran out.
 */
export class Headroom {
  private readonly known = new Map<string, KnownRoom>();

  /** Claims room for one early start; false when none is known. Pair with `release`. */
  claim(organizationId: string, now = Date.now()): boolean {
    const room = this.known.get(organizationId);
    if (!room || room.minuteWindowEndsAt <= now) return false;
    const left = Math.min(room.minuteRemaining, room.monthRemaining) - room.inFlight;
    if (left <= 0) return false;
    room.inFlight += 1;
    return true;
  }

  /** Ends a claim once its call has been answered (whatever the answer). */
  release(organizationId: string): void {
    const room = this.known.get(organizationId);
    if (room && room.inFlight > 0) room.inFlight -= 1;
  }

  /** Records the room a decision left. Estimates (Redis unavailable) leave no known room. */
  record(
    organizationId: string,
    decision: LimitDecision,
    requestsPerMonth: number,
    now = Date.now(),
  ): void {
    const inFlight = this.known.get(organizationId)?.inFlight ?? 0;
    const { minuteRemaining, monthlyUsed, minuteWindowEndsInMs } = decision;
    const room =
      minuteRemaining === null || monthlyUsed === null || minuteWindowEndsInMs === null
        ? { minuteRemaining: 0, minuteWindowEndsAt: 0, monthRemaining: 0 }
        : {
            minuteRemaining: decision.outcome === 'admitted' ? minuteRemaining : 0,
            minuteWindowEndsAt: now + minuteWindowEndsInMs,
            monthRemaining: requestsPerMonth - monthlyUsed,
          };
    this.remember(organizationId, { ...room, inFlight });
  }

  private remember(organizationId: string, room: KnownRoom): void {
    this.known.delete(organizationId);
    this.known.set(organizationId, room);
    if (this.known.size > MAX_TRACKED) {
      const oldest = this.known.keys().next().value as string;
      this.known.delete(oldest);
    }
  }
}
