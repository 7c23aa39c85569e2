/**
 * Compiles a StatsQuery (common/contracts/stats-query.ts) into one DuckDB statement over a
 * website's event table (engine/event-rows.ts). Every value a caller sends becomes a bound
 * parameter; only names from the contract's closed lists (and property names, quoted as string
 * parameters) shape the SQL. Regular expressions run on RE2 (DuckDB's regexp functions), which
 * cannot backtrack.
 *
 * What the metrics mean (docs/analytics.md, "POST /query/:websiteId"):
 *  - event metrics, over the events that match the filters: `visitors` (distinct visitors; ids
 *    rotate daily), `pageviews`, `events` (custom events), `revenue` (the custom events' revenue);
 *  - visit metrics, over the visits that started in the range and hold a matching event:
 *    `sessions`, `bounce_rate` (visits with one page view ÷ visits), `visit_duration` (seconds from
 *    the first to the last page view, per visit), `views_per_visit`. By a dimension a visit has one
 *    value of (its entry or exit page, source, UTM, country, device, browser, OS, the bucket it
 *    started in), a visit counts in its own value's row; by `page`, in its entry page's row (as
 *    Plausible counts a page's bounce rate); by the others (event, property, goal, hostname,
 *    referrer), in the row of each value its matching events have;
 *  - `conversion_rate`: visitors who completed a goal ÷ the visitors of the row without the goal
 *    condition (needs `goal` as a dimension or a goal filter); `percentage`: the row's visitors ÷
 *    all matching visitors. Rates are ratios from 0 to 1.
 */
import {
  isCondition,
  isPropsDimension,
  isTimeDimension,
  PROPS_PREFIX,
  type FilterCondition,
  type StatsDimension,
  type StatsFilter,
  type StatsMetric,
  type StatsQuery,
  type TimeDimension,
} from '../../../../common/contracts/stats-query';
import { wholeMonths } from '../ingest/time-buckets';
import type { RollupSpan } from './day-rollups';
import { rollupTablesOfKind, type RollupTables } from './rollup-tables';

export interface GoalDefinition {
  name: string;
  kind: 'page' | 'event';
  /** A page goal's path pattern: `*` stands for any characters. */
  pagePath: string | null;
  eventName: string | null;
  currency: string | null;
}

export type SqlValue = string | number | bigint | boolean | null;

/**
 * Dimensions whose value, as rows show it, a website's table also holds as an integer key into
 * that dimension's dictionary (engine/dictionary.ts), in a column `k_<dimension>`: a filter on
 * one is worked out on the dictionary's few values and becomes a comparison of integers, and a
 * grouping by one groups integers and names the rows at the end. Their text stays for the rest.
 */
export const KEYED_DIMENSIONS = [
  'page',
  'entry_page',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
] as const;
export type KeyedDimension = (typeof KEYED_DIMENSIONS)[number];
export const isKeyed = (d: string): d is KeyedDimension =>
  (KEYED_DIMENSIONS as readonly string[]).includes(d);
export const keyColumn = (d: KeyedDimension): string => `k_${d}`;
/** A website table's dictionary of a keyed dimension (columns value, key; engine/dictionary.ts). */
export const dictionaryOf = (table: string, d: KeyedDimension): string => `${table}_k_${d}`;

/** The keys a query's conditions on keyed dimensions match, worked out on the dictionaries. */
export interface ResolvedKeys {
  /** The website's table whose dictionaries the keys are of. */
  table: string;
  /**
   * The table's moment the keys were worked out at (engine/dictionary.ts), or null when its
   * dictionaries were being written then.
   */
  moment: number | null;
  /** The highest key each dictionary the conditions read held when the keys were worked out. */
  watermarks: ReadonlyMap<KeyedDimension, number>;
  /**
   * Whether a value with a key above the watermark (learned since: new events loaded meanwhile)
   * is tested as text. Without, the statement reads only keys, which is faster; the caller then
   * checks that the dictionaries learned nothing before the statement ran (dictionary.ts).
   */
  textAbove: boolean;
  /** Each keyed condition of the filter (by identity) and the keys of the values it matches. */
  conditions: ReadonlyMap<FilterCondition, readonly number[]>;
}

export interface CompileOptions {
  /** Day rollups holding the day totals of the range, when conversionTotalsRolled says so. */
  rollups?: string | null;
  /** The filter's keys (engine/dictionary.ts resolveKeys); without, every condition is text. */
  keys?: ResolvedKeys | null;
}

export interface CompiledQuery {
  sql: string;
  params: SqlValue[];
  /**
   * Names of the result's columns: d0…dn, then the metrics by name, then total_rows (NULL unless
   * the question includes it).
   */
  dimensionColumns: string[];
}

/** Dimensions a visit has one value of; by these a visit counts in its own value's row. */
const VISIT_COLUMNS: Partial<Record<string, string>> = {
  entry_page: 'v_entry_page',
  exit_page: 'v_exit_page',
  page: 'v_entry_page',
  source: 'v_source',
  utm_source: 'v_utm_source',
  utm_medium: 'v_utm_medium',
  utm_campaign: 'v_utm_campaign',
  utm_content: 'v_utm_content',
  utm_term: 'v_utm_term',
  country: 'v_country',
  device: 'v_device',
  browser: 'v_browser',
  os: 'v_os',
};

/** What a visit is made of, from its events grouped by visit: one row per visit. */
export const VISIT_AGGREGATES = `
  min(ts) FILTER (WHERE type = 'pageview') AS v_started,
  count(*) FILTER (WHERE type = 'pageview') AS v_pv,
  coalesce(epoch_ms(max(ts) FILTER (WHERE type = 'pageview')) - epoch_ms(min(ts) FILTER (WHERE type = 'pageview')), 0) AS v_duration_ms,
  arg_min(entry_page, ts) AS v_entry_page,
  arg_max(page, ts) FILTER (WHERE type = 'pageview') AS v_exit_page,
  arg_min(source, ts) AS v_source,
  arg_min(utm_source, ts) FILTER (WHERE type = 'pageview') AS v_utm_source,
  arg_min(utm_medium, ts) FILTER (WHERE type = 'pageview') AS v_utm_medium,
  arg_min(utm_campaign, ts) FILTER (WHERE type = 'pageview') AS v_utm_campaign,
  arg_min(utm_content, ts) FILTER (WHERE type = 'pageview') AS v_utm_content,
  arg_min(utm_term, ts) FILTER (WHERE type = 'pageview') AS v_utm_term,
  any_value(country) AS v_country, any_value(device) AS v_device,
  any_value(browser) AS v_browser, any_value(os) AS v_os`;

/** Dimensions a visit has one value of (by these, visit metrics count a visit in its own row). */
export const isVisitDimension = (d: string): boolean => VISIT_COLUMNS[d] !== undefined;

const NONE = '(none)';
const UNKNOWN = 'unknown';
/** Metrics of visits rather than of events. */
export const VISIT_METRICS: ReadonlySet<StatsMetric> = new Set([
  'sessions',
  'bounce_rate',
  'visit_duration',
  'views_per_visit',
]);

/** `*` of a goal's path pattern as RE2 (every other character literal). */
export function pathPatternRegex(pattern: string): string {
  return pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&'))
    .join('.*');
}

const TIME_UNIT: Record<string, string> = {
  'time:hour': 'hour',
  'time:day': 'day',
  'time:week': 'week',
  'time:month': 'month',
};

class Params {
  constructor(readonly values: SqlValue[] = []) {}
  add(value: SqlValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What every part of one query's statement shares. */
interface Statement {
  query: StatsQuery;
  table: string;
  goals: readonly GoalDefinition[];
  params: Params;
  fromParam: string;
  toParam: string;
  /** A visit started before the range or going on after it is read whole (visits last hours). */
  around: string;
  dimColumns: string[];
  groupBy: string;
  /** A row per value the dimensions take; an event without a value (a page view by a property) is in none. */
  present: string;
  keys: ResolvedKeys | null;
  /**
   * The parameter holding how many rows lead the answer (offset + limit + 1) when only those
   * need their visitors counted (`leadingRows`), else null.
   */
  leading: string | null;
}

/** Above this many leading rows a question counts every row's visitors (`leadingRows`). */
const MAX_LEADING_ROWS = 1_001;

/**
 * The query's statement over `table` for events in [from, to) (ms). Goals are the website's, by
 * name; a goal named in a filter or needed as a dimension must be among them (the service checks).
 */
export function compileStatsQuery(
  query: StatsQuery,
  table: string,
  from: number,
  to: number,
  goals: readonly GoalDefinition[],
  { rollups = null, keys = null }: CompileOptions = {},
): CompiledQuery {
  const params = new Params();
  const fromParam = params.add(from);
  const toParam = params.add(to);
  const dimColumns = query.dimensions.map((_, i) => `d${i}`);
  const visitsWanted = query.metrics.some((metric) => VISIT_METRICS.has(metric));
  const leadingRowCount = query.offset + query.limit + 1;
  const statement: Statement = {
    query,
    table,
    goals,
    params,
    fromParam,
    toParam,
    around: `ts >= epoch_ms(${fromParam}::BIGINT - 86400000) AND ts < epoch_ms(${toParam}::BIGINT + 86400000)`,
    dimColumns,
    groupBy: dimColumns.length > 0 ? `GROUP BY ${dimColumns.join(', ')}` : '',
    present:
      dimColumns.length > 0
        ? `HAVING ${dimColumns.map((c) => `${c} IS NOT NULL`).join(' AND ')}`
        : '',
    keys,
    leading:
      leadsByVisitors(query) && !visitsWanted && leadingRowCount <= MAX_LEADING_ROWS
        ? params.add(leadingRowCount)
        : null,
  };
  const conversion = query.metrics.includes('conversion_rate');
  const percentage = query.metrics.includes('percentage');
  const ctes = [
    ...eventCtes(statement),
    ...(visitsWanted ? visitCtes(statement) : []),
    ...(conversion ? conversionTotalCtes(statement, rollups) : []),
    ...(percentage ? [`pct AS (SELECT count(DISTINCT visitor) AS all_visitors FROM m)`] : []),
  ];
  const joinOn = (other: string, columns: string[]) =>
    columns.length > 0
      ? `ON ${columns.map((c) => `em.${c} IS NOT DISTINCT FROM ${other}.${c}`).join(' AND ')}`
      : 'ON TRUE';
  const joins = [
    visitsWanted ? `FULL JOIN sm ${joinOn('sm', dimColumns)}` : '',
    conversion ? `LEFT JOIN tot ${joinOn('tot', notGoalColumns(query))}` : '',
    percentage ? 'CROSS JOIN pct' : '',
  ].join(' ');
  const selectDims = dimColumns.map((c) =>
    visitsWanted ? `coalesce(em.${c}, sm.${c}) AS ${c}` : `em.${c} AS ${c}`,
  );
  const metricSql = query.metrics.map((metric) => `${metricExpression(metric)} AS "${metric}"`);
  const order = orderClause(query, dimColumns);
  const totalRows =
    statement.leading && query.include.totalRows
      ? '(SELECT count(*) FROM g) AS total_rows'
      : totalRowsColumn(query);
  const sql = `WITH ${ctes.join(',\n')}
SELECT ${[...selectDims, ...metricSql, totalRows].join(', ')}
FROM em ${joins}
${order}
LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
  return { sql, params: params.values, dimensionColumns: dimColumns };
}

/** The columns of the dimensions other than `goal`, which conversion totals are grouped by. */
const notGoalColumns = (query: StatsQuery) =>
  query.dimensions.flatMap((d, i) => (d === 'goal' ? [] : [`d${i}`]));

/** What the event rows of a statement (`em`) hold for its metrics, by name. */
type EventFigure = 'visitors' | 'pageviews' | 'events' | 'revenue';

/** The event figures a query's metrics read: only those are counted. */
function eventFiguresOf(query: StatsQuery): EventFigure[] {
  const asks = (...metrics: StatsMetric[]) => metrics.some((m) => query.metrics.includes(m));
  return [
    ...(asks('visitors', 'conversion_rate', 'percentage') ? (['visitors'] as const) : []),
    ...(asks('pageviews') ? (['pageviews'] as const) : []),
    ...(asks('events') ? (['events'] as const) : []),
    ...(asks('revenue') ? (['revenue'] as const) : []),
  ];
}

/**
 * The events of the range (`ev`), those the filter keeps, with the goal each reaches when goals
 * are a dimension (`m`), and the figures the metrics read by the dimensions (`em`). With keys,
 * keyed dimensions are grouped by their keys (`ek`) and named from their dictionaries once
 * grouped. Visitors are counted in two steps, each row's visitors first (`mv`): DuckDB groups
 * that faster than a count(DISTINCT visitor) per row (7 % over 10 million events, in a trial),
 * and the figures nobody asked for are not counted at all (the revenue sum and the custom events
 * took another 5 % there).
 */
function eventCtes(statement: Statement): string[] {
  const { query, table, goals, params, fromParam, toParam, around, dimColumns, keys } = statement;
  const exitPages = usesDimension(query, 'exit_page');
  const dims = query.dimensions;
  const wantsGoal = dims.includes('goal');
  const where = query.filter ? compileFilter(query.filter, statement) : 'TRUE';
  const keyed = keys ? dims.map((d) => isKeyed(d)) : dims.map(() => false);
  const grouped = keyed.some(Boolean) ? 'ek' : 'em';
  const joinGoals = wantsGoal
    ? `JOIN ${goalsTable(goals, params)} g ON ${goalMatch('e', 'g')}`
    : '';
  const figures = eventFiguresOf(query);
  const counted = figures.filter((f) => f !== 'visitors');
  const perRow = counted.map((f) => `${rowFigure(f, wantsGoal)} AS ${f}`);
  const dimValues = dims.map((d, i) =>
    keyed[i] ? `${keyColumn(d as KeyedDimension)} AS d${i}` : eventDimFrom(d, i, params),
  );
  // Every row of `em` is a value of the dimensions that some matching event has.
  const atLeastOne = figures.length === 0 ? ['count(*) AS matched'] : [];
  const emColumns: readonly string[] = figures.length === 0 ? ['matched'] : figures;
  const aggregation = statement.leading
    ? leadingRows(statement, grouped, dimValues, counted, wantsGoal)
    : figures.includes('visitors')
      ? [
          `mv AS (SELECT ${[...dimValues, 'visitor', ...perRow].join(', ')} FROM m GROUP BY ${[...dimColumns, 'visitor'].join(', ')})`,
          `${grouped} AS (SELECT ${[...dimColumns, 'count(*) AS visitors', ...counted.map((f) => `sum(${f}) AS ${f}`)].join(', ')} FROM mv ${statement.groupBy} ${statement.present})`,
        ]
      : [
          `${grouped} AS (SELECT ${[...dimValues, ...perRow, ...atLeastOne].join(', ')} FROM m ${statement.groupBy} ${statement.present})`,
        ];
  return [
    ...(exitPages
      ? [
          `xp AS (SELECT visit, arg_max(page, ts) FILTER (WHERE type = 'pageview') AS exit_page FROM ${table} WHERE visit IS NOT NULL AND ${around} GROUP BY visit)`,
        ]
      : []),
    `ev AS (SELECT t.*${exitPages ? ', xp.exit_page' : ''} FROM ${table} t ${exitPages ? 'LEFT JOIN xp USING (visit)' : ''} WHERE t.ts >= epoch_ms(${fromParam}::BIGINT) AND t.ts < epoch_ms(${toParam}::BIGINT))`,
    `m AS (SELECT e.*${wantsGoal ? ', g.name AS goal_name, g.currency AS goal_currency' : ''} FROM ev e ${joinGoals} WHERE ${where})`,
    ...aggregation,
    ...(grouped === 'ek' ? [namedByKeys(table, dims, keyed, emColumns)] : []),
  ];
}

/**
 * Whether a question's rows come by visitors, most first: its order's first field, or by default
 * its first metric where no time dimension orders it.
 */
function leadsByVisitors(query: StatsQuery): boolean {
  if (query.dimensions.length === 0) return false;
  const first = query.orderBy[0];
  return first
    ? first.field === 'visitors' && first.direction === 'desc'
    : query.metrics[0] === 'visitors' && !query.dimensions.some(isTimeDimension);
}

/**
 * The event figures by the dimensions (`grouped`) of the rows that can lead a question ordered by
 * visitors, most first: exact visitors are counted only for those. A row's events (`n`, counted
 * with its other figures in `g`) are at least its visitors. The visitors of the rows with the
 * most events (`c`, twice as many as lead) are counted (`cv`); the rows leading among those have
 * at least the visitors of the last of them (T), so every row that can lead has at least T
 * events: those not counted yet are (`r`, `rv`). Where no more rows than `c` holds exist, `c` is
 * all of them (docs/analytics.md, "Leading rows").
 */
function leadingRows(
  statement: Statement,
  grouped: string,
  dimValues: string[],
  counted: Array<Exclude<EventFigure, 'visitors'>>,
  byGoal: boolean,
): string[] {
  const { dimColumns, leading } = statement;
  const dims = dimColumns.join(', ');
  const sources = [
    ...(counted.length > 0 ? ['type'] : []),
    ...(counted.includes('revenue')
      ? ['revenue_amount', ...(byGoal ? ['revenue_currency', 'goal_currency'] : [])]
      : []),
  ];
  const perRow = counted.map((f) => `${rowFigure(f, byGoal)} AS ${f}`);
  const visitorsOf = (rows: string) =>
    `SELECT ${dims}, count(*) AS visitors FROM (SELECT DISTINCT ${dims}, visitor FROM md SEMI JOIN ${rows} USING (${dims})) GROUP BY ${dims}`;
  return [
    `md AS MATERIALIZED (SELECT ${[...dimValues, 'visitor', ...sources].join(', ')} FROM m)`,
    `g AS (SELECT ${[dims, 'count(*) AS n', ...perRow].join(', ')} FROM md ${statement.groupBy} ${statement.present})`,
    `c AS (SELECT ${dims} FROM g ORDER BY n DESC LIMIT 2 * ${leading})`,
    `cv AS (${visitorsOf('c')})`,
    `r AS (SELECT ${dims} FROM g ANTI JOIN c USING (${dims}) WHERE n >= coalesce((SELECT visitors FROM cv ORDER BY visitors DESC LIMIT 1 OFFSET ${leading} - 1), 0))`,
    `rv AS (${visitorsOf('r')})`,
    `${grouped} AS (SELECT ${[dims, 'v.visitors', ...counted.map((f) => `g.${f}`)].join(', ')} FROM (SELECT * FROM cv UNION ALL SELECT * FROM rv) v JOIN g USING (${dims}))`,
  ];
}

/** An event figure as one aggregate over matching events (visitors are counted apart). */
function rowFigure(figure: Exclude<EventFigure, 'visitors'>, byGoal: boolean): string {
  switch (figure) {
    case 'pageviews':
      return `count(*) FILTER (WHERE type = 'pageview')`;
    case 'events':
      return `count(*) FILTER (WHERE type = 'event')`;
    case 'revenue':
      // By goal, only the goal's events in the goal's currency (metrics need goal for revenue).
      return byGoal
        ? `sum(revenue_amount) FILTER (WHERE type = 'event' AND revenue_currency = goal_currency)`
        : 'sum(revenue_amount)';
  }
}

/** The rows grouped by keys (`ek`), each keyed dimension named from its dictionary (`em`). */
function namedByKeys(
  table: string,
  dims: StatsDimension[],
  keyed: boolean[],
  figures: readonly string[],
): string {
  const names = dims.map((_, i) => (keyed[i] ? `n${i}.value AS d${i}` : `ek.d${i}`));
  const joins = dims.flatMap((d, i) =>
    keyed[i]
      ? [`JOIN ${dictionaryOf(table, d as KeyedDimension)} n${i} ON n${i}.key = ek.d${i}`]
      : [],
  );
  return `em AS (SELECT ${[...names, ...figures].join(', ')} FROM ek ${joins.join(' ')})`;
}

/**
 * The visits that started in the range (`vis`, read whole), each once per value of the
 * dimensions among the events the filter kept (`vd`), and their figures (`sm`).
 */
function visitCtes(statement: Statement): string[] {
  const { query, table, params, fromParam, toParam, around, dimColumns } = statement;
  const visitDims = query.dimensions.map((d, i) => `${visitExpression(d, params)} AS d${i}`);
  return [
    `vis AS (SELECT visit, ${VISIT_AGGREGATES}
        FROM ${table}
        WHERE visit IS NOT NULL AND ${around}
        GROUP BY visit
        HAVING v_started >= epoch_ms(${fromParam}::BIGINT) AND v_started < epoch_ms(${toParam}::BIGINT))`,
    `vd AS (SELECT DISTINCT ${[...visitDims, 'visit', 'v_pv', 'v_duration_ms'].join(', ')} FROM m JOIN vis USING (visit))`,
    `sm AS (SELECT ${[...dimColumns, 'count(*) AS sessions', 'count(*) FILTER (WHERE v_pv = 1) AS bounces', 'sum(v_duration_ms) AS duration_ms', 'sum(v_pv) AS visit_pageviews'].join(', ')} FROM vd ${statement.groupBy} ${statement.present})`,
  ];
}

/**
 * The visitors a conversion rate is a share of (`tot`): every visitor the filter without its goal
 * conditions keeps, by the dimensions other than `goal`; from the day rollups when given.
 */
function conversionTotalCtes(statement: Statement, rollups: string | null): string[] {
  const { query, params, fromParam, toParam } = statement;
  const otherDims = query.dimensions.map((d, i) => ({ d, i })).filter(({ d }) => d !== 'goal');
  const totalDims = otherDims.map(({ i }) => `d${i}`);
  const totalGroup = totalDims.length > 0 ? `GROUP BY ${totalDims.join(', ')}` : '';
  if (rollups)
    return [
      `tot AS (SELECT ${[...otherDims.map(({ d, i }) => `${timeBucket(d as TimeDimension, 'day')} AS d${i}`), 'sum(visitors) AS all_visitors'].join(', ')} FROM ${rollups} WHERE dim = '' AND day >= epoch_ms(${fromParam}::BIGINT) AND day < epoch_ms(${toParam}::BIGINT) ${totalGroup})`,
    ];
  return [
    `tv AS (SELECT ${[...otherDims.map(({ d, i }) => eventDimFrom(d, i, params)), 'visitor'].join(', ')} FROM ev WHERE ${query.filter ? compileFilter(stripGoals(query.filter), statement) : 'TRUE'} GROUP BY ${[...totalDims, 'visitor'].join(', ')})`,
    `tot AS (SELECT ${[...totalDims, 'count(*) AS all_visitors'].join(', ')} FROM tv ${totalGroup})`,
  ];
}

/**
 * The query's statement over a website's rollups of events and of visits
 * (engine/day-rollups.ts) for [from, to), whole days: the same rows, named and ordered as
 * compileStatsQuery names and orders them, for a question rollupsFor found answerable so.
 * `dimension` is the one its rows are of (`''`: none). Read from spans and month rows where
 * they serve (rollupRows).
 */
export function compileRollupQuery(
  query: StatsQuery,
  tables: RollupTables,
  dimension: string,
  from: number,
  to: number,
  {
    value = null,
    dictionary = null,
    spanKept = () => false,
    today = to,
  }: {
    /** Only the rows of this value of the dimension (an event goal's event: eventGoalRolled). */
    value?: string | null;
    /** The dimension's dictionary where it is keyed: event rows are grouped by key, then named. */
    dictionary?: string | null;
    /** Whether a span (the range up to today, or its whole months) is kept for a rollup. */
    spanKept?: SpanKept;
    /** The first instant of today, where a range's span ends at the latest. */
    today?: number;
  } = {},
): CompiledQuery {
  const params = new Params();
  const times = query.dimensions.filter(isTimeDimension);
  const rowsOf = rollupRows(params, { from, to, today }, tables, spanKept, {
    months: times.every((d) => d === 'time:month'),
    spans: times.length === 0,
  });
  const eventRows = (dim: string) => rowsOf('events', dim);
  const dimColumns = query.dimensions.map((_, i) => `d${i}`);
  const dims = query.dimensions.map(
    (d, i) => `${isTimeDimension(d) ? timeBucket(d, 'day') : 'value'} AS d${i}`,
  );
  const groupBy = dimColumns.length > 0 ? `GROUP BY ${dimColumns.join(', ')}` : '';
  const named = query.dimensions.findIndex((d) => !isTimeDimension(d));
  const byKey = dictionary !== null && named >= 0;
  const eventDims = byKey ? dims.map((d, i) => (i === named ? `key AS d${i}` : d)) : dims;
  const ctes = [
    `${byKey ? 'ek' : 'em'} AS (SELECT ${[...eventDims, 'sum(visitors) AS visitors', 'sum(pageviews) AS pageviews', 'sum(events) AS events'].join(', ')} FROM ${eventRows(dimension)} WHERE dim = ${params.add(dimension)}${value === null ? '' : ` AND value = ${params.add(value)}`} ${groupBy})`,
    ...(byKey
      ? [
          `em AS (SELECT ek.* REPLACE (n.value AS d${named}) FROM ek JOIN ${dictionary} n ON n.key = ek.d${named})`,
        ]
      : []),
  ];
  const conversion = query.metrics.includes('conversion_rate');
  if (conversion)
    ctes.push(
      `tot AS (SELECT ${[...dims, 'sum(visitors) AS all_visitors'].join(', ')} FROM ${eventRows('')} WHERE dim = '' ${groupBy})`,
    );
  const visits = query.metrics.some((metric) => VISIT_METRICS.has(metric));
  if (visits)
    ctes.push(
      `sm AS (SELECT ${[...dims, 'sum(sessions) AS sessions', 'sum(bounces) AS bounces', 'sum(duration_ms) AS duration_ms', 'sum(pageviews) AS visit_pageviews'].join(', ')} FROM ${rowsOf('visits', dimension)} WHERE dim = ${params.add(dimension)} ${groupBy})`,
    );
  const percentage = query.metrics.includes('percentage');
  if (percentage)
    ctes.push(
      `pct AS (SELECT coalesce(sum(visitors), 0) AS all_visitors FROM ${eventRows('')} WHERE dim = '')`,
    );
  const metrics = query.metrics.map((metric) => `${metricExpression(metric)} AS "${metric}"`);
  const joinOn =
    dimColumns.length > 0
      ? `ON ${dimColumns.map((c) => `em.${c} IS NOT DISTINCT FROM sm.${c}`).join(' AND ')}`
      : 'ON TRUE';
  const selectDims = dimColumns.map((c) =>
    visits ? `coalesce(em.${c}, sm.${c}) AS ${c}` : `em.${c} AS ${c}`,
  );
  const sql = `WITH ${ctes.join(',\n')}
SELECT ${[...selectDims, ...metrics, totalRowsColumn(query)].join(', ')}
FROM em ${visits ? `FULL JOIN sm ${joinOn}` : ''} ${percentage ? 'CROSS JOIN pct' : ''} ${conversion ? `LEFT JOIN tot ${joinOn.replaceAll('sm.', 'tot.')}` : ''}
${orderClause(query, dimColumns)}
LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(query.offset)}`;
  return { sql, params: params.values, dimensionColumns: dimColumns };
}

/** Whether a span of a rollup is kept (event-tables.ts). */
type SpanKept = (kind: 'events' | 'visits', dimension: string, span: RollupSpan) => boolean;

/**
 * The rows of a rollup (its kind and dimension) over [from, to) as a subquery, from its day,
 * month and span tables: where the question is not by time (`spans`), the range's own span up to
 * today if one is kept, and today's day rows; else, where it is by month at most (`months`), the
 * range's whole months from their span if one is kept and the question is not by time, or from
 * the month rows, and its other days from the day rows.
 */
function rollupRows(
  params: Params,
  { from, to, today }: { from: number; to: number; today: number },
  tables: RollupTables,
  spanKept: SpanKept,
  allowed: { months: boolean; spans: boolean },
): (kind: 'events' | 'visits', dimension: string) => string {
  // Each instant a parameter once, the first time a subquery reads it.
  const instants = new Map<number, string>();
  const at = (ms: number) => {
    const added = instants.get(ms) ?? `epoch_ms(${params.add(ms)}::BIGINT)`;
    instants.set(ms, added);
    return added;
  };
  const spanOf = (spans: string, span: RollupSpan) =>
    `SELECT * EXCLUDE (span_to) FROM ${spans} WHERE day = ${at(span.from)} AND span_to = ${at(span.to)}`;
  const whole = allowed.months ? wholeMonths(from, to) : null;
  return (kind, dimension) => {
    const { days, months, spans } = rollupTablesOfKind(kind, tables);
    const kept = (span: RollupSpan) => spanKept(kind, dimension, span);
    const upToToday = { from, to: Math.min(to, today) };
    if (allowed.spans && upToToday.to > from && kept(upToToday))
      return upToToday.to === to
        ? `(${spanOf(spans, upToToday)})`
        : `(${spanOf(spans, upToToday)}
          UNION ALL SELECT * FROM ${days} WHERE day >= ${at(upToToday.to)} AND day < ${at(to)})`;
    if (!whole) return `(SELECT * FROM ${days} WHERE day >= ${at(from)} AND day < ${at(to)})`;
    const wholeRows =
      allowed.spans && kept(whole)
        ? spanOf(spans, whole)
        : `SELECT * FROM ${months} WHERE day >= ${at(whole.from)} AND day < ${at(whole.to)}`;
    return `(${wholeRows}
          UNION ALL SELECT * FROM ${days} WHERE (day >= ${at(from)} AND day < ${at(whole.from)})
        OR (day >= ${at(whole.to)} AND day < ${at(to)}))`;
  };
}

/** The count of every row before the page is cut, where the question asks for it (else NULL). */
const totalRowsColumn = (query: StatsQuery) =>
  `${query.include.totalRows ? 'count(*) OVER ()' : 'NULL'} AS total_rows`;

function metricExpression(metric: StatsMetric): string {
  switch (metric) {
    case 'visitors':
      return 'coalesce(em.visitors, 0)';
    case 'pageviews':
      return 'coalesce(em.pageviews, 0)';
    case 'events':
      return 'coalesce(em.events, 0)';
    case 'revenue':
      return 'em.revenue::DOUBLE';
    case 'sessions':
      return 'coalesce(sm.sessions, 0)';
    case 'bounce_rate':
      return 'CASE WHEN coalesce(sm.sessions, 0) = 0 THEN 0 ELSE round(sm.bounces / sm.sessions, 4) END';
    case 'visit_duration':
      return 'CASE WHEN coalesce(sm.sessions, 0) = 0 THEN 0 ELSE round(sm.duration_ms / sm.sessions / 1000, 1) END';
    case 'views_per_visit':
      return 'CASE WHEN coalesce(sm.sessions, 0) = 0 THEN 0 ELSE round(sm.visit_pageviews / sm.sessions, 2) END';
    case 'conversion_rate':
      return 'CASE WHEN coalesce(tot.all_visitors, 0) = 0 THEN 0 ELSE round(coalesce(em.visitors, 0) / tot.all_visitors, 4) END';
    case 'percentage':
      return 'CASE WHEN pct.all_visitors = 0 THEN 0 ELSE round(coalesce(em.visitors, 0) / pct.all_visitors, 4) END';
  }
}

function orderClause(query: StatsQuery, dimColumns: string[]): string {
  const by = (field: string) => {
    const dim = query.dimensions.indexOf(field as StatsDimension);
    return dim >= 0 ? dimColumns[dim]! : `"${field}"`;
  };
  const given = query.orderBy.map((o) => `${by(o.field)} ${o.direction.toUpperCase()} NULLS LAST`);
  const time = query.dimensions.findIndex((d) => isTimeDimension(d));
  const defaults =
    given.length > 0
      ? []
      : time >= 0
        ? [`${dimColumns[time]} ASC`]
        : [`"${query.metrics[0]}" DESC`];
  // Then every dimension, so that equal rows always come in the same order (pages are stable).
  return `ORDER BY ${[...given, ...defaults, ...dimColumns.map((c) => `${c} ASC`)].join(', ')}`;
}

/** The event's value of a dimension, as the rows show it. */
function eventExpression(d: StatsDimension, params: Params): string {
  if (isTimeDimension(d)) return timeBucket(d, 'ts');
  if (isPropsDimension(d))
    return `CASE WHEN type = 'event' THEN coalesce(props[${params.add(d.slice(PROPS_PREFIX.length))}], '${NONE}') END`;
  switch (d) {
    case 'event':
      return `CASE WHEN type = 'event' THEN name END`;
    case 'goal':
      return 'goal_name';
    case 'exit_page':
      return `coalesce(exit_page, '${NONE}')`;
    case 'country':
    case 'device':
    case 'browser':
    case 'os':
      return `coalesce(${d}, '${UNKNOWN}')`;
    case 'utm_source':
    case 'utm_medium':
    case 'utm_campaign':
    case 'utm_content':
    case 'utm_term':
    case 'referrer':
    case 'hostname':
    case 'entry_page':
      return `coalesce(${d}, '${NONE}')`;
    case 'source':
      return `coalesce(source, 'direct')`;
    case 'page':
      return 'page';
  }
}

/** A visit dimension's value of a visit (a row of VISIT_AGGREGATES), as rows show it. */
export function visitDimensionExpression(
  d: Exclude<StatsDimension, `event:props:${string}`>,
): string {
  return visitExpression(d, new Params());
}

/** A dimension's value of an event, as rows show it (one without a parameter: not a property). */
export function dimensionExpression(d: Exclude<StatsDimension, `event:props:${string}`>): string {
  return eventExpression(d, new Params());
}

/** eventExpression as the `em` aggregation names it (exit pages come from the visits). */
function eventDimFrom(d: StatsDimension, i: number, params: Params): string {
  return `${eventExpression(d, params)} AS d${i}`;
}

/** The visit's value of a dimension (for visit metrics); the event's where a visit has many. */
function visitExpression(d: StatsDimension, params: Params): string {
  if (isTimeDimension(d)) return timeBucket(d, 'v_started');
  const column = VISIT_COLUMNS[d];
  if (!column) return eventExpression(d, params);
  if (d === 'country' || d === 'device' || d === 'browser' || d === 'os')
    return `coalesce(${column}, '${UNKNOWN}')`;
  if (d === 'source') return `coalesce(${column}, 'direct')`;
  if (d === 'page' || d === 'entry_page' || d === 'exit_page') return column;
  return `coalesce(${column}, '${NONE}')`;
}

/** A time bucket's start as the rows show it: YYYY-MM-DD, or the hour's ISO instant. */
function timeBucket(d: TimeDimension, column: string): string {
  return d === 'time:hour'
    ? `strftime(date_trunc('hour', ${column}), '%Y-%m-%dT%H:00:00Z')`
    : `strftime(date_trunc('${TIME_UNIT[d]}', ${column}), '%Y-%m-%d')`;
}

function usesDimension(query: StatsQuery, dimension: string): boolean {
  if (query.dimensions.includes(dimension as StatsDimension)) return true;
  const walk = (f: StatsFilter): boolean =>
    isCondition(f)
      ? f.dimension === dimension
      : f.op === 'not'
        ? walk(f.filter)
        : f.filters.some(walk);
  return query.filter !== null && walk(query.filter);
}

function goalsTable(goals: readonly GoalDefinition[], params: Params): string {
  if (goals.length === 0)
    return '(SELECT NULL::VARCHAR AS name, NULL::VARCHAR AS kind, NULL::VARCHAR AS regex, NULL::VARCHAR AS event_name, NULL::VARCHAR AS currency WHERE FALSE)';
  const rows = goals.map(
    (goal) =>
      `(${params.add(goal.name)}, ${params.add(goal.kind)}, ${params.add(
        goal.pagePath === null ? null : pathPatternRegex(goal.pagePath),
      )}, ${params.add(goal.eventName)}, ${params.add(goal.currency)})`,
  );
  return `(SELECT * FROM (VALUES ${rows.join(', ')}) AS goals(name, kind, regex, event_name, currency))`;
}

const goalMatch = (e: string, g: string) =>
  `((${g}.kind = 'page' AND ${e}.type = 'pageview' AND regexp_full_match(${e}.page, ${g}.regex)) OR (${g}.kind = 'event' AND ${e}.type = 'event' AND ${e}.name = ${g}.event_name))`;

/** The filter without its goal conditions (what a conversion rate is a share of). */
export function stripGoals(filter: StatsFilter): StatsFilter {
  const strip = (f: StatsFilter): StatsFilter | null => {
    if (isCondition(f)) return f.dimension === 'goal' ? null : f;
    if (f.op === 'not') {
      const inner = strip(f.filter);
      return inner === null ? null : { op: 'not', filter: inner };
    }
    const kept = f.filters.map(strip).filter((x): x is StatsFilter => x !== null);
    return kept.length === 0 ? null : { op: f.op, filters: kept };
  };
  return strip(filter) ?? { op: 'and', filters: [] };
}

/** What compiling a filter needs of its statement. */
type FilterContext = Pick<Statement, 'params' | 'goals' | 'keys'>;

function compileFilter(filter: StatsFilter, context: FilterContext): string {
  if (isCondition(filter)) return compileCondition(filter, context);
  if (filter.op === 'not') return `(NOT coalesce(${compileFilter(filter.filter, context)}, FALSE))`;
  return filter.filters.length === 0
    ? 'TRUE'
    : `(${filter.filters.map((f) => compileFilter(f, context)).join(` ${filter.op.toUpperCase()} `)})`;
}

/**
 * A condition as SQL. On a keyed dimension with resolved keys: its keys (and, with `textAbove`,
 * the same test on the text of a value its dictionary learned after they were worked out). The
 * keys are the dictionaries' integers, written into the statement as numbers.
 */
function compileCondition(condition: FilterCondition, context: FilterContext): string {
  const { params, goals, keys } = context;
  if (condition.dimension === 'goal') return goalCondition(condition, params, goals);
  const text = () =>
    conditionTest(condition, filterExpression(condition.dimension, params), params);
  const matched = keys?.conditions.get(condition);
  if (!keys || !matched || !isKeyed(condition.dimension)) return text();
  const column = keyColumn(condition.dimension);
  const known = keysTest(column, matched);
  const watermark = keys.watermarks.get(condition.dimension) ?? 0;
  return keys.textAbove ? `(${known} OR (${column} > ${watermark} AND ${text()}))` : known;
}

/** Keys missing between the lowest and highest of a test's that it may name one by one. */
const MAX_KEY_HOLES = 8;

/**
 * Whether `column` holds one of `keys`: a range less the few keys missing in it (values of the
 * dimension the condition does not match) where it can be said so (simple comparisons, which
 * DuckDB checks inside its scan, about a third faster than a list here), else a list.
 */
function keysTest(column: string, keys: readonly number[]): string {
  if (keys.length === 0) return 'FALSE';
  const sorted = [...new Set(keys)].sort((a, b) => a - b);
  const low = sorted[0]!;
  const high = sorted[sorted.length - 1]!;
  if (low === high) return `${column} = ${low}`;
  if (high - low + 1 - sorted.length > MAX_KEY_HOLES) return `${column} IN (${sorted.join(', ')})`;
  const holes: string[] = [];
  for (let i = 1; i < sorted.length; i += 1)
    for (let key = sorted[i - 1]! + 1; key < sorted[i]!; key += 1)
      holes.push(`${column} <> ${key}`);
  return `(${[`${column} BETWEEN ${low} AND ${high}`, ...holes].join(' AND ')})`;
}

/**
 * A keyed condition tested on a dictionary's `value` column (engine/dictionary.ts), its values
 * bound after those already in `params`.
 */
export function valueCondition(condition: FilterCondition, params: SqlValue[]): string {
  return conditionTest(condition, 'value', new Params(params));
}

function goalCondition(
  condition: FilterCondition,
  params: Params,
  goals: readonly GoalDefinition[],
): string {
  const named = goals.filter((goal) => condition.values.includes(goal.name));
  const any =
    named.length === 0
      ? 'FALSE'
      : `(${named
          .map((goal) =>
            goal.kind === 'page'
              ? `(type = 'pageview' AND regexp_full_match(page, ${params.add(pathPatternRegex(goal.pagePath!))}))`
              : `(type = 'event' AND name = ${params.add(goal.eventName)})`,
          )
          .join(' OR ')})`;
  return condition.op.endsWith('_not') ? `(NOT ${any})` : any;
}

/** The condition's test of `column` (the value as rows show it). */
function conditionTest(condition: FilterCondition, column: string, params: Params): string {
  const negated = condition.op.endsWith('_not');
  const sensitive = condition.caseSensitive;
  const value = (v: string) => params.add(v);
  const list = condition.values;
  let test: string;
  switch (condition.op) {
    case 'is':
    case 'is_not':
      test = sensitive
        ? `${column} IN (${list.map(value).join(', ')})`
        : `lower(${column}) IN (${list.map((v) => value(v.toLowerCase())).join(', ')})`;
      break;
    case 'contains':
    case 'contains_not':
      test = `(${list
        .map((v) =>
          sensitive
            ? `contains(${column}, ${value(v)})`
            : `contains(lower(${column}), ${value(v.toLowerCase())})`,
        )
        .join(' OR ')})`;
      break;
    case 'matches':
    case 'matches_not':
      test = `(${list
        .map((v) => `regexp_matches(${column}, ${value(v)}${sensitive ? '' : ", 'i'"})`)
        .join(' OR ')})`;
      break;
  }
  // A value an event lacks matches no positive condition, and every negative one.
  return negated ? `(NOT coalesce(${test}, FALSE))` : `coalesce(${test}, FALSE)`;
}

/**
 * What a filter on a dimension compares: the value as rows show it, so `(none)`, `unknown` and
 * `direct` can be filtered on; null for an event without the dimension (a page view's property).
 */
function filterExpression(d: string, params: Params): string {
  return eventExpression(d as StatsDimension, params);
}
