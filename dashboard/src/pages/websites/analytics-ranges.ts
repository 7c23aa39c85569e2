import type { AnalyticsRange } from '../../gql/graphql';

interface Range {
  /** Short name in the URL: `?range=30d`. */
  param: string;
  value: AnalyticsRange;
  label: string;
}

const LAST_30_DAYS: Range = { param: '30d', value: 'LAST_30_DAYS', label: 'Last 30 days' };

/** The ranges the website page offers. */
export const RANGES: Range[] = [
  { param: '7d', value: 'LAST_7_DAYS', label: 'Last 7 days' },
  LAST_30_DAYS,
  { param: '90d', value: 'LAST_90_DAYS', label: 'Last 90 days' },
];

export const rangeOf = (param: string | null): Range =>
  RANGES.find((range) => range.param === param) ?? LAST_30_DAYS;
