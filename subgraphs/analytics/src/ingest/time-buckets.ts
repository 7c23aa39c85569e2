const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type Granularity = 'hour' | 'day';

export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const bucketOf = (granularity: Granularity, ms: number) =>
  granularity === 'hour' ? floorHour(ms) : floorDay(ms);
export const stepOf = (granularity: Granularity) => (granularity === 'hour' ? HOUR_MS : DAY_MS);
export { HOUR_MS, DAY_MS };

/** The first instant of the UTC month of `ms`. */
export function monthStartOf(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/**
 * The whole UTC months inside [from, to), as one span [from, to) of month starts, or null when
 * the range holds none.
 */
export function wholeMonths(from: number, to: number): { from: number; to: number } | null {
  const first = monthStartOf(from) === from ? from : monthStartOf(monthStartOf(from) + 32 * DAY_MS);
  const end = monthStartOf(to);
  return first < end ? { from: first, to: end } : null;
}
