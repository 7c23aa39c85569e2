/**
 * Day rollups: a website's events and visits summed per UTC day and value of one dimension, kept
 * beside its event table in DuckDB, so that the commonest questions (one dimension or none, by
 * day, week or month or not at all, no filter; visitors, page views, events, percentage, and the
 * visit metrics by a dimension a visit has one value of) read a few rows a day rather than every
 * event, a conversion rate by goal and time reads its day totals from them, and a question about
 * one event goal reads its event's rows (eventGoalRolled).
 *
 * Exact, not estimated: visitors are keyed per day (engine/blocks.ts), so the visitors of a range
 * are the sum of its days' distinct visitors, as the event-level statement counts them; a visit
 * is counted on the day it started. A day's rows are made from its events the first time a
 * question needs them, and made again once its events or the next day's (a visit can go on past
 * midnight) have changed (new hot blocks, sealed, rebuilt), in one transaction: a read sees a
 * day's rows before or after, never half of them. `test/integration/analytics-ingest.test.ts`
 * ("day rollups") holds every kind of question they answer to the event-level answer.
 */
import {
  EVENT_DIMENSIONS,
  isCondition,
  isTimeDimension,
  type EventDimension,
  type FilterCondition,
  type StatsFilter,
  type StatsMetric,
  type StatsQuery,
} from '../../../../common/contracts/stats-query';
import { DAY_MS, monthStartOf, wholeMonths } from '../ingest/time-buckets';
import { dayStartOf, type DayKey } from '../store/hot-keys';
import type { Duck } from './duck';
import {
  dimensionExpression,
  isKeyed,
  isVisitDimension,
  keyColumn,
  stripGoals,
  VISIT_AGGREGATES,
  VISIT_METRICS,
  visitDimensionExpression,
  type GoalDefinition,
  type SqlValue,
} from './stats-sql';
import { rollupTablesOfKind, type RollupTables } from './rollup-tables';

/** The dimension a rollup row is of; `''` for a day's totals. */
export type RollupDimension = EventDimension | '';

/**
 * A kind of rollup and its dimension: of events (by the day of each event) or of visits (by the
 * day each visit started; the page of a visit is its entry page).
 */
export interface Rollup {
  kind: 'events' | 'visits';
  dimension: RollupDimension;
}

/** Dimensions with event rollups: every event dimension but the exit page (a visit's) and goals. */
const ROLLED: ReadonlySet<string> = new Set(
  EVENT_DIMENSIONS.filter((d) => d !== 'exit_page' && d !== 'goal'),
);
const EVENT_METRICS: ReadonlySet<StatsMetric> = new Set([
  'visitors',
  'pageviews',
  'events',
  'percentage',
]);

/** `key`: the value's key in its dictionary where the dimension is keyed (engine/dictionary.ts). */
export const ROLLUP_COLUMNS = `
  day TIMESTAMP,
  dim VARCHAR,
  value VARCHAR,
  visitors BIGINT,
  pageviews BIGINT,
  events BIGINT,
  key INTEGER`;

export const VISIT_ROLLUP_COLUMNS = `
  day TIMESTAMP,
  dim VARCHAR,
  value VARCHAR,
  sessions BIGINT,
  bounces BIGINT,
  duration_ms BIGINT,
  pageviews BIGINT`;

export { rollupTablesOf, type RollupTables } from './rollup-tables';

const SPAN_END = `,
  span_to TIMESTAMP`;

/** Each rollup table and its columns, to make them with. */
export const rollupTableColumns = (tables: RollupTables): Array<[string, string]> => [
  [tables.events, ROLLUP_COLUMNS],
  [tables.visits, VISIT_ROLLUP_COLUMNS],
  [tables.eventMonths, ROLLUP_COLUMNS],
  [tables.visitMonths, VISIT_ROLLUP_COLUMNS],
  [tables.eventSpans, ROLLUP_COLUMNS + SPAN_END],
  [tables.visitSpans, VISIT_ROLLUP_COLUMNS + SPAN_END],
];

/**
 * A run of whole UTC days [from, to) whose rollup rows are kept summed per value (a span): the
 * whole months of a question's range, or the range itself.
 */
export interface RollupSpan {
  from: number;
  to: number;
}

/** What a rollup's month and span rows sum, and the columns they are grouped by beside them. */
const SUMS = {
  events: { sums: 'sum(visitors), sum(pageviews), sum(events), key', by: 'dim, value, key' },
  visits: {
    sums: 'sum(sessions), sum(bounces), sum(duration_ms), sum(pageviews)',
    by: 'dim, value',
  },
} as const;

/**
 * The statements making a span's rows of a rollup again (in the transaction that changed its
 * days, or the one that makes the span): its whole months from their month rows, its other days
 * from their day rows.
 */
export function spanStatements(
  rollup: Rollup,
  tables: RollupTables,
  span: RollupSpan,
): Array<[string, SqlValue[]]> {
  const { kind, dimension } = rollup;
  const { days, months, spans } = rollupTablesOfKind(kind, tables);
  const whole = wholeMonths(span.from, span.to);
  const rows = whole
    ? `SELECT * FROM ${months} WHERE day >= epoch_ms($4::BIGINT) AND day < epoch_ms($5::BIGINT)
       UNION ALL SELECT * FROM ${days}
       WHERE (day >= epoch_ms($2::BIGINT) AND day < epoch_ms($4::BIGINT))
          OR (day >= epoch_ms($5::BIGINT) AND day < epoch_ms($3::BIGINT))`
    : `SELECT * FROM ${days} WHERE day >= epoch_ms($2::BIGINT) AND day < epoch_ms($3::BIGINT)`;
  return [
    dropSpanStatement(rollup, tables, span),
    [
      `INSERT INTO ${spans}
       SELECT epoch_ms($2::BIGINT), dim, value, ${SUMS[kind].sums}, epoch_ms($3::BIGINT)
       FROM (${rows})
       WHERE dim = $1
       GROUP BY ${SUMS[kind].by}`,
      [dimension, span.from, span.to, ...(whole ? [whole.from, whole.to] : [])],
    ],
  ];
}

/** The statement deleting a span's rows of a rollup. */
export function dropSpanStatement(
  { kind, dimension }: Rollup,
  tables: RollupTables,
  span: RollupSpan,
): [string, SqlValue[]] {
  return [
    `DELETE FROM ${rollupTablesOfKind(kind, tables).spans} WHERE dim = $1 AND day = epoch_ms($2::BIGINT) AND span_to = epoch_ms($3::BIGINT)`,
    [dimension, span.from, span.to],
  ];
}

/** A rollup's name in the record of which are up to date. */
export const rollupName = ({ kind, dimension }: Rollup) => `${kind}:${dimension}`;

/**
 * The rollups a question can be answered from over [from, to), or null when it needs the events:
 * the dimension its rows are of, and the rollups it reads.
 */
export function rollupsFor(
  query: StatsQuery,
  from: number,
  to: number,
): { dimension: RollupDimension; rollups: Rollup[] } | null {
  if (query.filter !== null) return null;
  if (from % DAY_MS !== 0 || to % DAY_MS !== 0) return null;
  const visits = query.metrics.some((m) => VISIT_METRICS.has(m));
  if (!query.metrics.every((m) => EVENT_METRICS.has(m) || VISIT_METRICS.has(m))) return null;
  const times = query.dimensions.filter(isTimeDimension);
  const others = query.dimensions.filter((d) => !isTimeDimension(d));
  if (times.length > 1 || times.includes('time:hour')) return null;
  if (others.length > 1 || (others.length === 1 && !ROLLED.has(others[0]!))) return null;
  const dimension = (others[0] ?? '') as RollupDimension;
  if (visits && dimension !== '' && !isVisitDimension(dimension)) return null;
  const rollups: Rollup[] = [{ kind: 'events', dimension }];
  if (visits) rollups.push({ kind: 'visits', dimension });
  if (dimension !== '' && query.metrics.includes('percentage'))
    rollups.push({ kind: 'events', dimension: '' });
  return { dimension, rollups };
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

const GOAL_METRICS: ReadonlySet<StatsMetric> = new Set([
  'visitors',
  'pageviews',
  'events',
  'conversion_rate',
]);

/**
 * The event name whose day rows answer a question about one event goal over [from, to), or null:
 * a question whose only condition is `is` that one goal (an event goal: its conversions are the
 * events of its name, so its visitors of a day are that event's), by day, week or month or not
 * at all, in whole days; its conversion rate's totals are the days' totals.
 */
export function eventGoalRolled(
  query: StatsQuery,
  from: number,
  to: number,
  goals: readonly GoalDefinition[],
): string | null {
  if (from % DAY_MS !== 0 || to % DAY_MS !== 0) return null;
  if (!query.metrics.every((m) => GOAL_METRICS.has(m))) return null;
  const times = query.dimensions.filter(isTimeDimension);
  if (times.length !== query.dimensions.length || times.length > 1) return null;
  if (times.includes('time:hour')) return null;
  const condition = onlyCondition(query.filter);
  if (
    !condition ||
    condition.dimension !== 'goal' ||
    condition.op !== 'is' ||
    !condition.caseSensitive ||
    condition.values.length !== 1
  )
    return null;
  const goal = goals.find((g) => g.name === condition.values[0]);
  return goal?.kind === 'event' && goal.eventName ? goal.eventName : null;
}

/** The one condition a filter is (alone, or alone in an `and`), or null. */
function onlyCondition(filter: StatsFilter | null): FilterCondition | null {
  if (filter === null) return null;
  if (isCondition(filter)) return filter;
  if (filter.op === 'and' && filter.filters.length === 1) return onlyCondition(filter.filters[0]!);
  return null;
}

/**
 * A day's event rows' value of the dimension: grouped by its key where it is keyed (the same
 * grouping: a key stands for one value), which a question then groups and names by.
 */
function eventRollupValue(dimension: RollupDimension): string {
  if (dimension === '') return `''`;
  const value = dimensionExpression(dimension);
  return isKeyed(dimension) ? `any_value(${value})` : value;
}

/**
 * Makes the rollup tables hold the rows of `rollup` for `days` of `events` (each a day the table
 * holds), replacing what they held for them. A visit is read whole: from the day before (a visit
 * going on from then started then, and is left out) to the day after each day.
 */
export async function rollUp(
  duck: Duck,
  events: string,
  tables: RollupTables,
  rollup: Rollup,
  days: readonly DayKey[],
  spans: readonly RollupSpan[] = [],
): Promise<void> {
  if (days.length === 0) return;
  const { kind, dimension } = rollup;
  const starts = days.map(dayStartOf);
  const params: SqlValue[] = [dimension, ...starts];
  const list = starts.map((_, i) => `epoch_ms($${i + 2}::BIGINT)`).join(', ');
  const first = Math.min(...starts);
  const end = Math.max(...starts) + DAY_MS;
  const table = tables[kind];
  const insert =
    kind === 'events'
      ? `INSERT INTO ${table}
         SELECT date_trunc('day', ts) AS day, $1 AS dim,
           ${eventRollupValue(dimension)} AS value,
           count(DISTINCT visitor), count(*) FILTER (WHERE type = 'pageview'),
           count(*) FILTER (WHERE type = 'event'),
           ${isKeyed(dimension) ? keyColumn(dimension) : 'NULL'} AS key
         FROM ${events}
         WHERE ts >= epoch_ms(${first}::BIGINT) AND ts < epoch_ms(${end}::BIGINT)
           AND date_trunc('day', ts) IN (${list})
         GROUP BY ${isKeyed(dimension) ? 'day, key' : 'ALL'}
         HAVING value IS NOT NULL`
      : `INSERT INTO ${table}
         SELECT date_trunc('day', v_started) AS day, $1 AS dim,
           ${dimension === '' ? `''` : visitDimensionExpression(dimension)} AS value,
           count(*), count(*) FILTER (WHERE v_pv = 1), sum(v_duration_ms), sum(v_pv)
         FROM (
           SELECT visit, ${VISIT_AGGREGATES}
           FROM ${events}
           WHERE visit IS NOT NULL
             AND ts >= epoch_ms(${first - DAY_MS}::BIGINT) AND ts < epoch_ms(${end + DAY_MS}::BIGINT)
           GROUP BY visit
           HAVING date_trunc('day', v_started) IN (${list})
         )
         GROUP BY ALL
         HAVING value IS NOT NULL`;
  await duck.atomically([
    [`DELETE FROM ${table} WHERE dim = $1 AND day IN (${list})`, params],
    [insert, params],
    ...monthsOf(kind, tables, dimension, starts),
    ...spans
      .filter((span) => starts.some((start) => start >= span.from && start < span.to))
      .flatMap((span) => spanStatements(rollup, tables, span)),
  ]);
}

/**
 * The statements making the month rows of `dimension` again for the months of `starts` (days),
 * from the day rows: run in the transaction that changed those, so a month row is always the
 * sum of its month's day rows as a read sees them. A question reads a month's row only when it
 * holds the whole month, and it has every day of its range rolled up before it reads.
 */
function monthsOf(
  kind: Rollup['kind'],
  tables: RollupTables,
  dimension: RollupDimension,
  starts: readonly number[],
): Array<[string, SqlValue[]]> {
  const months = [...new Set(starts.map(monthStartOf))];
  const params: SqlValue[] = [dimension, ...months];
  const list = months.map((_, i) => `epoch_ms($${i + 2}::BIGINT)`).join(', ');
  const { days, months: target } = rollupTablesOfKind(kind, tables);
  return [
    [`DELETE FROM ${target} WHERE dim = $1 AND day IN (${list})`, params],
    [
      `INSERT INTO ${target}
       SELECT date_trunc('month', day) AS month, dim, value, ${SUMS[kind].sums}
       FROM ${days}
       WHERE dim = $1 AND date_trunc('month', day) IN (${list})
       GROUP BY month, ${SUMS[kind].by}`,
      params,
    ],
  ];
}
