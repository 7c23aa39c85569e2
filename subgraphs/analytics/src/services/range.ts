import { badInput } from '../../../../common/platform/errors';
import {
  DAY_MS,
  floorDay,
  floorHour,
  HOUR_MS,
  stepOf,
  type Granularity,
} from '../ingest/time-buckets';
import { dayKeyOf, type DayKey } from '../store/hot-keys';

export const RANGES = [
  'LAST_24_HOURS',
  'LAST_7_DAYS',
  'LAST_30_DAYS',
  'LAST_90_DAYS',
  'LAST_YEAR',
] as const;
export type AnalyticsRange = (typeof RANGES)[number];

const DAYS: Record<Exclude<AnalyticsRange, 'LAST_24_HOURS'>, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_YEAR: 365,
};

export interface TimeWindow {
  granularity: Granularity;
  /** Start of the first bucket. */
  from: number;
  /** Start of the last bucket (the current hour or day). */
  lastBucket: number;
  /** End of the window, exclusive. */
  to: number;
}

/** The buckets of a range ending now: 24 hours for 24h, else whole UTC days including today. */
export function windowOf(range: AnalyticsRange, now = Date.now()): TimeWindow {
  if (range === 'LAST_24_HOURS') {
    const lastBucket = floorHour(now);
    return {
      granularity: 'hour',
      from: lastBucket - 23 * HOUR_MS,
      lastBucket,
      to: lastBucket + HOUR_MS,
    };
  }
  if (!(range in DAYS)) throw badInput(`Unknown range ${String(range)}`);
  const lastBucket = floorDay(now);
  return {
    granularity: 'day',
    from: lastBucket - (DAYS[range] - 1) * DAY_MS,
    lastBucket,
    to: lastBucket + DAY_MS,
  };
}

/** Day buckets covering a window, for data kept per day only (events, clicks, errors). */
export function asDays(window: TimeWindow): TimeWindow {
  if (window.granularity === 'day') return window;
  const lastBucket = floorDay(window.lastBucket);
  return { granularity: 'day', from: floorDay(window.from), lastBucket, to: lastBucket + DAY_MS };
}

export function bucketStarts(window: TimeWindow): number[] {
  const starts: number[] = [];
  for (let t = window.from; t <= window.lastBucket; t += stepOf(window.granularity)) starts.push(t);
  return starts;
}

/** The hot days a 24-hour window touches (yesterday and today). */
export const daysOfHours = (window: TimeWindow): DayKey[] => [
  ...new Set([dayKeyOf(window.from), dayKeyOf(window.lastBucket + HOUR_MS - 1)]),
];
