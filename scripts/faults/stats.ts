/** Figures from the load's outcomes: how requests ended, and latency percentiles. */
import type { Outcome } from './load';

export interface Tally {
  sent: number;
  answered: number;
  s2xx: number;
  s4xx: number;
  s503: number;
  /** 5xx answers other than 503 (a 500 is a bug; a 502/504 a proxy's guess). */
  s5xxOther: number;
  resets: number;
  refused: number;
  timeouts: number;
  errors: number;
  /** Statuses and error codes seen, with their counts: `200:812 503:41 ECONNREFUSED:3`. */
  detail: string;
}

export function tally(outcomes: readonly Outcome[]): Tally {
  const seen = new Map<string, number>();
  const count = (label: string) => seen.set(label, (seen.get(label) ?? 0) + 1);
  const t: Tally = {
    sent: outcomes.length,
    answered: 0,
    s2xx: 0,
    s4xx: 0,
    s503: 0,
    s5xxOther: 0,
    resets: 0,
    refused: 0,
    timeouts: 0,
    errors: 0,
    detail: '',
  };
  for (const o of outcomes) {
    if (o.ending === 'answered' && o.status !== undefined) {
      t.answered++;
      count(String(o.status));
      if (o.status >= 200 && o.status < 300) t.s2xx++;
      else if (o.status >= 400 && o.status < 500) t.s4xx++;
      else if (o.status === 503) t.s503++;
      else if (o.status >= 500) t.s5xxOther++;
      continue;
    }
    count(o.errorCode ?? o.ending);
    if (o.ending === 'reset') t.resets++;
    else if (o.ending === 'refused') t.refused++;
    else if (o.ending === 'timeout') t.timeouts++;
    else t.errors++;
  }
  t.detail = [...seen.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, n]) => `${label}:${n}`)
    .join(',');
  return t;
}

/** The p-th percentile (0–100, nearest rank) of `values`; null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const round = (value: number | null, digits = 1): number | null =>
  value === null ? null : Number(value.toFixed(digits));

/** Each outcome's latency (ms). */
export const latencies = (outcomes: readonly Outcome[]) => outcomes.map((o) => o.latencyMs);
