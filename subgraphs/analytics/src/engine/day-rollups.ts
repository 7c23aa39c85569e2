/**
 * Day rollups: a website's events summed per UTC day and value of one dimension, kept beside its
 * event table in DuckDB, so that the commonest questions (one dimension or none, by day, week or
 * month or not at all, no filter, visitors, page views, events, percentage) read a few rows a day
 * rather than every event, and a conversion rate by goal and time reads its day totals from them. Exact, not estimated: visitors are keyed per day (engine/blocks.ts), so
 * the visitors of a range are the sum of its days' distinct visitors, as the event-level statement
 * counts them. A day's rows are made from its events the first time a question needs them and made
 * again after the day's events change (new hot blocks, sealed, rebuilt), in one transaction, so a
 * read sees a day's rows before or after, never half of them. `test/integration/analytics-query.test.ts`
 * ("day rollups") holds every eligible question to the event-level answer on generated data.
 */
import {
  EVENT_DIMENSIONS,
  isCondition,
  isTimeDimension,
  type EventDimension,
  type StatsMetric,
  type StatsQuery,
} from '../../../../common/contracts/stats-query';
import { DAY_MS } from '../ingest/time-buckets';
import { dayStartOf, type DayKey } from '../store/hot-keys';
import type { Duck } from './duck';
import { dimensionExpression, stripGoals, type SqlValue } from './stats-sql';

/** The dimension a rollup row is of; `''` for a day's totals. */
export type RollupDimension = EventDimension | '';

/** Dimensions with rollups: every event dimension but the exit page (a visit's) and goals. */
const ROLLED: ReadonlySet<string> = new Set(
  EVENT_DIMENSIONS.filter((d) => d !== 'exit_page' && d !== 'goal'),
);
const ROLLED_METRICS: ReadonlySet<StatsMetric> = new Set([
  'visitors',
  'pageviews',
  'events',
  'percentage',
]);

export const ROLLUP_COLUMNS = `
  day TIMESTAMP,
  dim VARCHAR,
  value VARCHAR,
  visitors BIGINT,
  pageviews BIGINT,
  events BIGINT`;

/** A website's rollup table, beside its event table. */
export const rollupTableOf = (eventTable: string) => `${eventTable}_days`;

/**
 * The rollups a question can be answered from over [from, to), or null when it needs the events:
 * the dimension its rows are of, and whether it needs the day totals too (for `percentage`).
 */
export function rollupsFor(
  query: StatsQuery,
  from: number,
  to: number,
): { dimension: RollupDimension; dimensions: RollupDimension[] } | null {
  if (query.filter !== null) return null;
  if (from % DAY_MS !== 0 || to % DAY_MS !== 0) return null;
  if (!query.metrics.every((m) => ROLLED_METRICS.has(m))) return null;
  const times = query.dimensions.filter(isTimeDimension);
  const others = query.dimensions.filter((d) => !isTimeDimension(d));
  if (times.length > 1 || times.includes('time:hour')) return null;
  if (others.length > 1 || (others.length === 1 && !ROLLED.has(others[0]!))) return null;
  const dimension = (others[0] ?? '') as RollupDimension;
  const dimensions: RollupDimension[] = [dimension];
  if (dimension !== '' && query.metrics.includes('percentage')) dimensions.push('');
  return { dimension, dimensions };
}

/**
 * Whether the visitors a conversion rate is a share of (each row's visitors without the goal
 * condition) can be read from the day totals over [from, to): no other condition, whole days,
 * rows by goal and by day, week or month only.
 */
export function conversionTotalsRolled(query: StatsQuery, from: number, to: number): boolean {
  if (!query.metrics.includes('conversion_rate')) return false;
  if (from % DAY_MS !== 0 || to % DAY_MS !== 0) return false;
  const rest = query.filter ? stripGoals(query.filter) : null;
  if (rest && !(!isCondition(rest) && rest.op !== 'not' && rest.filters.length === 0)) return false;
  return query.dimensions.every((d) => d === 'goal' || (isTimeDimension(d) && d !== 'time:hour'));
}

/**
 * Makes `rollups` hold the rows of `dimension` for `days` of `events` (each a day the table holds),
 * replacing what it held for them.
 */
export async function rollUp(
  duck: Duck,
  events: string,
  rollups: string,
  dimension: RollupDimension,
  days: readonly DayKey[],
): Promise<void> {
  if (days.length === 0) return;
  const starts = days.map(dayStartOf);
  const params: SqlValue[] = [dimension, ...starts];
  const list = starts.map((_, i) => `epoch_ms($${i + 2}::BIGINT)`).join(', ');
  const value = dimension === '' ? `''` : dimensionExpression(dimension);
  await duck.atomically([
    [`DELETE FROM ${rollups} WHERE dim = $1 AND day IN (${list})`, params],
    [
      `INSERT INTO ${rollups}
       SELECT date_trunc('day', ts) AS day, $1 AS dim, ${value} AS value,
         count(DISTINCT visitor), count(*) FILTER (WHERE type = 'pageview'),
         count(*) FILTER (WHERE type = 'event')
       FROM ${events}
       WHERE ts >= epoch_ms(${Math.min(...starts)}::BIGINT) AND ts < epoch_ms(${Math.max(...starts) + DAY_MS}::BIGINT)
         AND date_trunc('day', ts) IN (${list})
       GROUP BY ALL
       HAVING value IS NOT NULL`,
      params,
    ],
  ]);
}
