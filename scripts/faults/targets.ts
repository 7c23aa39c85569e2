/** The targets of issues 16 and 28, each judged from a scenario's figures. */
import type { CallLogFigures, EventFigures } from './checks';
import type { ReceivedAttempt } from './receiver';
import type { CountCheck } from './scenarios/redis-lost-in-flight';
import type { Tally } from './stats';

export interface TargetResult {
  target: string;
  pass: boolean;
  measured: string;
}

export const PIPELINE_SECONDS = 10;
export const FAST_503_MS = 500;
/**
 * From when, after the database went away, every circuit is open: each subgraph opens its own
 * after two failed pings a second apart (each allowed 1 s), or at once when the driver reports
 * its connection lost. Requests already waiting on the driver when their circuit opens still
 * wait for the driver's own failure, and a subgraph's first 503s can come from the driver before
 * its circuit opens, so "after the first 503" would still take in requests no circuit answered.
 */
export const CIRCUITS_OPEN_MS = 3_000;
export const REDIS_P50_RATIO = 3;

export function noResets(t: Tally): TargetResult {
  return { target: '0 connection resets', pass: t.resets === 0, measured: `${t.resets} resets` };
}

export function no5xxButServiceUnavailable(t: Tally): TargetResult {
  return {
    target: '0 × 5xx other than 503',
    pass: t.s5xxOther === 0,
    measured: `${t.s5xxOther} other 5xx (${t.detail})`,
  };
}

export function everyCallLogged(c: CallLogFigures): TargetResult {
  return {
    target: 'calls answered = calls logged',
    pass: c.missing === 0 && c.duplicates === 0,
    measured: `${c.answered} answered, ${c.logged} logged, ${c.missing} missing, ${c.duplicates} twice, ${c.unanswered} unanswered but logged (${c.how})`,
  };
}

export function everyEventCounted(e: EventFigures): TargetResult {
  return {
    target: 'events accepted = events counted',
    pass: e.counted === e.accepted,
    measured: `${e.accepted} accepted, ${e.counted ?? 'never read'} counted (${e.how})`,
  };
}

export function pipelinesFlowing(
  flowing: { calls: number | null; events: number | null } | null,
): TargetResult {
  const callsSeconds = flowing?.calls ?? null;
  const eventsSeconds = flowing?.events ?? null;
  const ok = (s: number | null) => s !== null && s <= PIPELINE_SECONDS;
  const shown = (s: number | null) => (s === null ? 'not within 30 s' : `${s} s`);
  return {
    target: `pipelines flowing ≤ ${PIPELINE_SECONDS} s after Redis returns`,
    pass: ok(callsSeconds) && ok(eventsSeconds),
    measured: `call log ${shown(callsSeconds)}, events ${shown(eventsSeconds)}`,
  };
}

export function fast503s(count: number, p50: number | null, max: number | null): TargetResult {
  return {
    target: `503s within ${FAST_503_MS} ms during the outage (p50 and max, requests sent ${CIRCUITS_OPEN_MS / 1000} s or more after the crash)`,
    pass: (p50 ?? 0) <= FAST_503_MS && (max ?? 0) <= FAST_503_MS,
    measured: count === 0 ? 'no 503 answered' : `${count} × 503, p50 ${p50} ms, max ${max} ms`,
  };
}

export function redisP50Ratio(before: number | null, during: number | null): TargetResult {
  const ratio = before && during !== null ? during / before : null;
  return {
    target: `p50 during the Redis outage ≤ ${REDIS_P50_RATIO}× before`,
    pass: ratio !== null && ratio <= REDIS_P50_RATIO,
    measured: `p50 ${before ?? '-'} ms before, ${during ?? '-'} ms during (${ratio === null ? 'no ratio' : `${ratio.toFixed(2)}×`})`,
  };
}

/**
 * Every delivery due when Redis lost its data delivered: each event answered 2xx exactly once, no
 * attempt of an event sent twice, every attempt signed with the webhook's secret, and each key's
 * event under one id on every attempt.
 */
export function everyDeliveryDelivered(
  attempts: readonly ReceivedAttempt[],
  due: number,
): TargetResult {
  const delivered = new Map<string, number>();
  const seen = new Set<string>();
  let repeated = 0;
  const idsOfKey = new Map<string, Set<string>>();
  for (const a of attempts) {
    if (a.status === 200) delivered.set(a.eventId, (delivered.get(a.eventId) ?? 0) + 1);
    const attempt = `${a.eventId}#${a.attempt}`;
    if (seen.has(attempt)) repeated += 1;
    seen.add(attempt);
    const ids = idsOfKey.get(a.keyId ?? '') ?? new Set<string>();
    ids.add(a.eventId);
    idsOfKey.set(a.keyId ?? '', ids);
  }
  const twice = [...delivered.values()].filter((n) => n > 1).length;
  const unsigned = attempts.filter((a) => !a.signatureValid).length;
  const renamed = [...idsOfKey.values()].filter((ids) => ids.size > 1).length;
  return {
    target: 'deliveries due = deliveries delivered (once each, signed, original event id)',
    pass:
      delivered.size === due && twice === 0 && repeated === 0 && unsigned === 0 && renamed === 0,
    measured: `${due} due, ${delivered.size} delivered, ${twice} delivered twice, ${repeated} attempts sent twice, ${unsigned} with a bad signature, ${renamed} events under another id, ${attempts.length} attempts`,
  };
}

/**
 * The month and the key's total go on from where they were: they moved by exactly the calls that
 * counted in them (a keyed call without an answer may have counted or not).
 */
export function countsGoOn(c: CountCheck): TargetResult {
  const within = (moved: number, calls: number) => moved >= calls && moved <= calls + c.unanswered;
  return {
    target: 'monthly count and key total after = before + calls made',
    pass: within(c.monthlyMoved, c.monthlyCalls) && within(c.totalMoved, c.totalCalls),
    measured: `month moved ${c.monthlyMoved} for ${c.monthlyCalls} quota calls, key total ${c.totalMoved} for ${c.totalCalls} calls (${c.unanswered} unanswered)`,
  };
}

/** A scenario that could not run to its end fails, with the reason. */
export function ranToTheEnd(error: unknown): TargetResult {
  return {
    target: 'scenario ran to the end',
    pass: false,
    measured: error instanceof Error ? error.message : String(error),
  };
}
