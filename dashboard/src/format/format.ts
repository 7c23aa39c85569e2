/** Dates and numbers in the user's locale, with enough detail to be unambiguous. */

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
// Daily buckets are UTC days: formatting them in the local zone would shift some by a day.
const utcDayFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const numberFormat = new Intl.NumberFormat();
const decimalFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat(undefined, {
  style: 'percent',
  maximumFractionDigits: 1,
});

function format(formatter: Intl.DateTimeFormat, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatter.format(date);
}

export const formatDateTime = (iso: string): string => format(dateTimeFormat, iso);
export const formatDate = (iso: string): string => format(dateFormat, iso);
/** A UTC day bucket (`2025-01-31` or `2025-01-31T00:00:00Z`) as a short label: "Jan 31". */
export const formatUtcDay = (iso: string): string => format(utcDayFormat, iso);
export const formatNumber = (value: number): string => numberFormat.format(value);
/** `ratio` from 0 to 1. */
export const formatPercent = (ratio: number): string => percentFormat.format(ratio);
export const formatMs = (ms: number): string => `${decimalFormat.format(ms)} ms`;

export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes} min ${whole % 60} s` : `${whole} s`;
}

/** `YYYY-MM-DD` of a local calendar day, as date inputs use. */
export function toDateInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The instant a local calendar day (`YYYY-MM-DD`) starts, `days` later, as ISO 8601. */
export function startOfLocalDay(value: string, days = 0): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [, year, month, day] = match;
  return new Date(Number(year), Number(month) - 1, Number(day) + days).toISOString();
}
