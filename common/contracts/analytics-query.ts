/**
 * The vocabulary of POST /query/:websiteId, shared by the facade (validation, and the mapping
 * below to the GraphQL `AnalyticsQueryInput`) and the analytics subgraph (execution, messages).
 */
export const QUERY_METRICS = [
  'visitors',
  'pageviews',
  'sessions',
  'bounce_rate',
  'visit_duration',
  'events',
] as const;
export const QUERY_DIMENSIONS = [
  'country',
  'page',
  'source',
  'device',
  'browser',
  'os',
  'event',
] as const;
export const TIME_DIMENSIONS = ['time:day', 'time:hour'] as const;

export type RestMetric = (typeof QUERY_METRICS)[number];
export type RestBreakdownDimension = (typeof QUERY_DIMENSIONS)[number];
export type RestDimension = RestBreakdownDimension | (typeof TIME_DIMENSIONS)[number];

/**
 * The GraphQL enums' values (subgraphs/analytics/schema.graphql): the REST names, but for the time
 * dimensions, whose colon no GraphQL name may hold.
 */
export type QueryMetric = RestMetric;
export type QueryDimension = RestBreakdownDimension | 'time_day' | 'time_hour';
export type QueryOrderField = QueryMetric | QueryDimension;

export const queryDimension = (name: RestDimension): QueryDimension =>
  name === 'time:day' ? 'time_day' : name === 'time:hour' ? 'time_hour' : name;

export const restDimension = (value: QueryDimension): RestDimension =>
  value === 'time_day' ? 'time:day' : value === 'time_hour' ? 'time:hour' : value;

const isMetric = (name: string): name is RestMetric =>
  (QUERY_METRICS as readonly string[]).includes(name);
const isDimension = (name: string): name is RestDimension =>
  (QUERY_DIMENSIONS as readonly string[]).includes(name) ||
  (TIME_DIMENSIONS as readonly string[]).includes(name);

/** A REST order_by field as the GraphQL `QueryOrderField` value; undefined when it names neither. */
export const queryOrderField = (name: string): QueryOrderField | undefined =>
  isMetric(name) ? name : isDimension(name) ? queryDimension(name) : undefined;

/** A `QueryOrderField` value as the REST body names it. */
export const restOrderField = (value: QueryOrderField): RestMetric | RestDimension =>
  isMetric(value) ? value : restDimension(value);

/** Why an order_by field is refused: the analytics subgraph's words, the facade's when unknown. */
export const notAnOrderField = (name: string) =>
  `order_by: ${name} is neither a requested metric nor the requested dimension`;

/** The names a POST /query body uses, once the facade validated its shape. */
export interface RestQueryNames {
  metrics: readonly RestMetric[];
  dimensions: readonly RestDimension[];
  filters: ReadonlyArray<
    readonly ['is' | 'is_not' | 'contains', RestBreakdownDimension, readonly string[]]
  >;
  order_by: ReadonlyArray<readonly [string, 'asc' | 'desc']>;
}

/** The part of the GraphQL `AnalyticsQueryInput` those names become. */
export interface QueryInputNames {
  metrics: QueryMetric[];
  dimensions: QueryDimension[];
  filters: Array<{
    operator: 'IS' | 'IS_NOT' | 'CONTAINS';
    dimension: QueryDimension;
    values: string[];
  }>;
  orderBy: Array<{ field: QueryOrderField; direction: 'ASC' | 'DESC' }>;
}

/**
 * Metrics, dimensions, filters and order of a POST /query body as the GraphQL `AnalyticsQueryInput`
 * takes them (the facade adds the range and the page). An order_by field that is no metric or
 * dimension at all has no GraphQL value: `refuse` makes the error thrown for it, worded as the
 * subgraph words a field that is not requested.
 */
export function toQueryInput(
  body: RestQueryNames,
  refuse: (message: string) => Error,
): QueryInputNames {
  return {
    metrics: [...body.metrics],
    dimensions: body.dimensions.map(queryDimension),
    filters: body.filters.map(([operator, dimension, values]) => ({
      operator: operator === 'is' ? 'IS' : operator === 'is_not' ? 'IS_NOT' : 'CONTAINS',
      dimension,
      values: [...values],
    })),
    orderBy: body.order_by.map(([name, direction]) => {
      const field = queryOrderField(name);
      if (field === undefined) throw refuse(notAnOrderField(name));
      return { field, direction: direction === 'asc' ? 'ASC' : 'DESC' };
    }),
  };
}

/**
 * The query a result echoes, in the REST body's names; every other field, and the order of all,
 * as they came.
 */
export function toRestQueryResult<
  T extends { metrics: readonly QueryMetric[]; dimensions: readonly QueryDimension[] },
>(
  result: T,
): Omit<T, 'metrics' | 'dimensions'> & { metrics: RestMetric[]; dimensions: RestDimension[] } {
  return {
    ...result,
    metrics: [...result.metrics],
    dimensions: result.dimensions.map(restDimension),
  };
}

/**
 * The most rows one page of a list holds (visitors, breakdowns, query results): larger `limit`s
 * are clamped to it by the facade and, for the gateway's other callers, by the analytics subgraph.
 */
export const MAX_LIMIT = 1000;
