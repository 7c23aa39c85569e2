/**
 * The event-level query language of POST /query/:websiteId (modelled on Plausible's Stats API
 * v2), in the normalized form the facade hands the analytics subgraph: the facade reads the REST
 * body (arrays, as Plausible writes them) into this, and the subgraph checks it again with the same
 * schema before it runs it (docs/analytics.md, "POST /query/:websiteId").
 */
import { z } from 'zod';

export const STATS_METRICS = [
  'visitors',
  'pageviews',
  'sessions',
  'bounce_rate',
  'visit_duration',
  'events',
  'views_per_visit',
  'conversion_rate',
  'percentage',
  'revenue',
] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];

/** Dimensions of a visit (its first page view decides them) and of each event. */
export const EVENT_DIMENSIONS = [
  'page',
  'entry_page',
  'exit_page',
  'hostname',
  'source',
  'referrer',
  'utm_medium',
  'utm_source',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'country',
  'device',
  'browser',
  'os',
  'event',
  'goal',
] as const;
export const TIME_DIMENSIONS = ['time:hour', 'time:day', 'time:week', 'time:month'] as const;
export const PROPS_PREFIX = 'event:props:';

export type EventDimension = (typeof EVENT_DIMENSIONS)[number];
export type TimeDimension = (typeof TIME_DIMENSIONS)[number];
export type PropsDimension = `${typeof PROPS_PREFIX}${string}`;
export type StatsDimension = EventDimension | TimeDimension | PropsDimension;

export const FILTER_OPERATORS = [
  'is',
  'is_not',
  'contains',
  'contains_not',
  'matches',
  'matches_not',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** How deep `and`, `or` and `not` may nest. */
export const MAX_FILTER_DEPTH = 5;
/** Conditions in one query, however nested. */
export const MAX_FILTER_CONDITIONS = 50;
export const MAX_DIMENSIONS = 4;
export const MAX_QUERY_LIMIT = 10_000;
export const MAX_QUERY_DAYS = 366;
/** Hours are answered for ranges of at most this many days. */
export const MAX_HOUR_DAYS = 31;

export interface FilterCondition {
  op: FilterOperator;
  dimension: EventDimension | PropsDimension;
  values: string[];
  /** Default: false for contains/contains_not (as before), true for the others. */
  caseSensitive: boolean;
}
export type StatsFilter =
  | FilterCondition
  | { op: 'and' | 'or'; filters: StatsFilter[] }
  | { op: 'not'; filter: StatsFilter };

/** UTC days, inclusive; or the last 24 hours. */
export type StatsDateRange = { from: string; to: string } | { last24h: true };

export interface StatsQuery {
  metrics: StatsMetric[];
  dimensions: StatsDimension[];
  /** Null: every event of the range. */
  filter: StatsFilter | null;
  dateRange: StatsDateRange;
  include: {
    totalRows: boolean;
    timeLabels: boolean;
    /** The same query over another range, beside each row. */
    comparison: StatsDateRange | null;
  };
  orderBy: Array<{ field: StatsMetric | StatsDimension; direction: 'asc' | 'desc' }>;
  limit: number;
  offset: number;
}

export const isCondition = (filter: StatsFilter): filter is FilterCondition =>
  'dimension' in filter;

export const isPropsDimension = (name: string): name is PropsDimension =>
  name.startsWith(PROPS_PREFIX) && name.length > PROPS_PREFIX.length;
export const isTimeDimension = (name: string): name is TimeDimension =>
  (TIME_DIMENSIONS as readonly string[]).includes(name);

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const dateRange = z.union([
  z.strictObject({ from: day, to: day }),
  z.strictObject({ last24h: z.literal(true) }),
]);
const dimensionName = z
  .string()
  .max(100)
  .refine(
    (name) =>
      (EVENT_DIMENSIONS as readonly string[]).includes(name) ||
      isTimeDimension(name) ||
      isPropsDimension(name),
  );
const condition = z.strictObject({
  op: z.enum(FILTER_OPERATORS),
  dimension: dimensionName,
  values: z.array(z.string().max(500)).min(1).max(100),
  caseSensitive: z.boolean(),
});
const filter: z.ZodType<StatsFilter> = z.lazy(() =>
  z.union([
    condition,
    z.strictObject({ op: z.enum(['and', 'or']), filters: z.array(filter).min(1).max(20) }),
    z.strictObject({ op: z.literal('not'), filter }),
  ]),
) as z.ZodType<StatsFilter>;

/** The normalized query as the subgraph receives it (checked again there). */
export const statsQuerySchema = z
  .strictObject({
    metrics: z.array(z.enum(STATS_METRICS)).min(1).max(STATS_METRICS.length),
    dimensions: z.array(dimensionName).max(MAX_DIMENSIONS),
    filter: filter.nullable(),
    dateRange,
    include: z.strictObject({
      totalRows: z.boolean(),
      timeLabels: z.boolean(),
      comparison: dateRange.nullable(),
    }),
    orderBy: z
      .array(
        z.strictObject({
          field: z.union([z.enum(STATS_METRICS), dimensionName]),
          direction: z.enum(['asc', 'desc']),
        }),
      )
      .max(5),
    limit: z.number().int().min(1).max(MAX_QUERY_LIMIT),
    offset: z.number().int().min(0).max(2_000_000_000),
  })
  .refine((q) => new Set(q.metrics).size === q.metrics.length, {
    path: ['metrics'],
    message: 'each metric at most once',
  })
  .refine((q) => new Set(q.dimensions).size === q.dimensions.length, {
    path: ['dimensions'],
    message: 'each dimension at most once',
  })
  .refine((q) => q.dimensions.filter(isTimeDimension).length <= 1, {
    path: ['dimensions'],
    message: 'at most one time dimension',
  }) as unknown as z.ZodType<StatsQuery>;

/** A row of an answer: the dimensions' values and the metrics' values, in the order asked. */
export interface StatsRow {
  dimensions: string[];
  metrics: Array<number | null>;
  /** With a comparison: the same row over the other range, and the change of each metric. */
  comparison?: {
    dimensions: string[];
    metrics: Array<number | null>;
    change: Array<number | null>;
  };
}

export interface StatsAnswer {
  metrics: StatsMetric[];
  dimensions: StatsDimension[];
  limit: number;
  offset: number;
  results: StatsRow[];
  /** Rows before paging (include.totalRows). */
  totalRows: number | null;
  /** Every time bucket of the range (include.timeLabels), whether it has data or not. */
  timeLabels: string[] | null;
  /** The range read, [from, to) as ISO instants; and the comparison's. */
  from: string;
  to: string;
  comparisonFrom: string | null;
  comparisonTo: string | null;
  hasMore: boolean;
}
