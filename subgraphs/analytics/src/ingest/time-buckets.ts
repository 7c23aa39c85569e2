const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type Granularity = 'hour' | 'day';

export const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const bucketOf = (granularity: Granularity, ms: number) =>
  granularity === 'hour' ? floorHour(ms) : floorDay(ms);
export const stepOf = (granularity: Granularity) => (granularity === 'hour' ? HOUR_MS : DAY_MS);
export { HOUR_MS, DAY_MS };
