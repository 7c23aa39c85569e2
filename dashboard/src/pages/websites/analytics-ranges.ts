import type { AnalyticsRange } from '../../gql/graphql';

export interface Range {
  /** Short name in the URL: `?range=30d`. */
  param: string;
  value: AnalyticsRange;
  label: string;
  /** Whole UTC days, today the last. */
  days: number;
}

const LAST_30_DAYS: Range = {
  param: '30d',
  value: 'LAST_30_DAYS',
  label: 'Last 30 days',
  days: 30,
};

/** The ranges the website page offers. */
export const RANGES: Range[] = [
  { param: '7d', value: 'LAST_7_DAYS', label: 'Last 7 days', days: 7 },
  LAST_30_DAYS,
  { param: '90d', value: 'LAST_90_DAYS', label: 'Last 90 days', days: 90 },
];

export const rangeOf = (param: string | null): Range =>
  RANGES.find((range) => range.param === param) ?? LAST_30_DAYS;
