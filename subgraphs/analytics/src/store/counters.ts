import type { Counter } from '../ingest/aggregate';

/**
 * The counters of one row (a bucket's totals, or one value of a dimension), in a fixed order:
 * pageviews, visitors, sessions, bounces, duration (ms), events.
 */
export type Vector = [number, number, number, number, number, number];

export const COUNTERS = [
  'pageviews',
  'visitors',
  'sessions',
  'bounces',
  'duration',
  'events',
] as const satisfies readonly Counter[];

/** One letter per counter: a hot hash field is the letter followed by the value (`p/pricing`). */
export const COUNTER_LETTERS = ['p', 'v', 's', 'b', 'd', 'e'] as const;
const INDEX_OF_LETTER = new Map<string, number>(COUNTER_LETTERS.map((letter, i) => [letter, i]));

/**
 * The counter families kept per day: the website's totals and each dimension. `total` holds one
 * row (value ''); `event`, `click` and `error` are kept in day buckets only.
 */
export const FAMILIES = [
  'total',
  'country',
  'device',
  'browser',
  'os',
  'page',
  'source',
  'event',
  'click',
  'error',
] as const;
export type Family = (typeof FAMILIES)[number];
export const familyOfDim = (dim: string): Family => (dim === '' ? 'total' : (dim as Family));
export const DAY_ONLY_FAMILIES: ReadonlySet<Family> = new Set(['event', 'click', 'error']);

export type Rows = Map<string, Vector>;

export const zero = (): Vector => [0, 0, 0, 0, 0, 0];

export function addInto(target: Vector, source: Readonly<Vector>, sign = 1): void {
  for (let i = 0; i < 6; i += 1) target[i] = target[i]! + sign * source[i]!;
}

/** Adds `source` into `target` row by row (subtracts with sign -1, dropping rows that reach zero). */
export function addRows(target: Rows, source: Rows, sign = 1): void {
  for (const [value, vector] of source) {
    let row = target.get(value);
    if (!row) {
      row = zero();
      target.set(value, row);
    }
    addInto(row, vector, sign);
    if (sign < 0 && row.every((n) => n === 0)) target.delete(value);
  }
}

/** Reads a hot hash (fields `<letter><value>`, integer values), as a flat field/value list, into rows. */
export function rowsFromFlat(flat: string[]): Rows {
  const rows: Rows = new Map();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const field = flat[i]!;
    const index = INDEX_OF_LETTER.get(field[0] ?? '');
    if (index === undefined) continue;
    const value = field.slice(1);
    let row = rows.get(value);
    if (!row) {
      row = zero();
      rows.set(value, row);
    }
    row[index] = Number(flat[i + 1]);
  }
  return rows;
}

/** `rowsFromFlat` for a hash as ioredis returns HGETALL (an object). */
export const rowsFromHash = (hash: Record<string, string>): Rows =>
  rowsFromFlat(Object.entries(hash).flat());

/** Rows as stored in a snapshot: `[value, ...counters]` tuples. */
export type PackedRows = Array<[string, ...Vector]>;
export const packRows = (rows: Rows): PackedRows =>
  [...rows].map(([value, vector]) => [value, ...vector]);
export const unpackRows = (packed: PackedRows): Rows =>
  new Map(packed.map(([value, ...vector]) => [value, vector as Vector]));

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Bounce rate (0–1, four decimals) and seconds per visit (one decimal) of a row. */
export function rates(vector: Readonly<Vector>): { bounceRate: number; avgVisitDuration: number } {
  const [, , sessions, bounces, durationMs] = vector;
  return {
    bounceRate: sessions ? round(bounces / sessions, 4) : 0,
    avgVisitDuration: sessions ? round(durationMs / 1000 / sessions, 1) : 0,
  };
}

/** Orders rows: breakdowns by visitors, page views, events, then value; heatmaps and errors by count. */
export type RowOrder = (a: [string, Vector], b: [string, Vector]) => number;
const byValue = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byVisitors: RowOrder = ([va, a], [vb, b]) =>
  b[1] - a[1] || b[0] - a[0] || b[5] - a[5] || byValue(va, vb);
export const byEvents: RowOrder = ([va, a], [vb, b]) => b[5] - a[5] || byValue(va, vb);
export const orderOf = (family: Family): RowOrder =>
  family === 'click' || family === 'error' ? byEvents : byVisitors;

/** Rough bytes a row takes in memory (a Map entry, its value string and six numbers). */
export const ROW_BYTES = 150;
