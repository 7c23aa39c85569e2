import { badInput } from '../../../../common/platform/errors';
import { DAY_MS } from '../ingest/time-buckets';
import {
  addInto,
  familyOfDim,
  rates,
  zero,
  type Family,
  type Rows,
  type Vector,
} from '../store/counters';
import type { WebsiteIndex } from '../store/day-index';
import type { HotQuery } from '../store/hot-query';
import { asDays, windowOf, type TimeWindow } from './range';
import { todayOf, type ReadModel } from './read-model';
import { paginate, type Page } from './stats.service';
import {
  notAnOrderField,
  QUERY_DIMENSIONS,
  restDimension,
  restOrderField,
} from '../../../../common/contracts/analytics-query';
import type {
  AnalyticsQueryInput,
  QueryDimension,
  QueryMetric as Metric,
  QueryOrderField,
} from '../generated/resolvers-types';

export const MAX_CUSTOM_DAYS = 366;

/** The GraphQL input; its enums are the contract's names (common/contracts/analytics-query.ts). */
export type AnalyticsQuery = AnalyticsQueryInput;
type TimeDimension = Extract<QueryDimension, 'time_day' | 'time_hour'>;
type BreakdownDimension = Exclude<QueryDimension, TimeDimension>;

const isTimeDimension = (d: QueryDimension): d is TimeDimension =>
  d === 'time_day' || d === 'time_hour';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const iso = (ms: number) => new Date(ms).toISOString();

function metricOf(metric: Metric, v: Readonly<Vector>): number {
  switch (metric) {
    case 'pageviews':
      return v[0];
    case 'visitors':
      return v[1];
    case 'sessions':
      return v[2];
    case 'events':
      return v[5];
    case 'bounce_rate':
      return rates(v).bounceRate;
    case 'visit_duration':
      return rates(v).avgVisitDuration;
  }
}

/**
 * Custom dates run from the Unix epoch to the last day whose end (the range's exclusive `to`) is
 * still a four-digit-year date-time: 9999-12-31 would answer with "+010000-01-01T…".
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '9999-12-30';

function parseDay(value: string, name: string): number {
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw badInput(`${name} must be a date YYYY-MM-DD (got ${JSON.stringify(value)})`);
  if (value < FIRST_DAY || value > LAST_DAY)
    throw badInput(`${name} must be from ${FIRST_DAY} to ${LAST_DAY} (got ${value})`);
  return ms;
}

/**
 * Dimensions a visitor can have several values of in a day. Their `visitors` counters are distinct
 * per value, so a sum over several values would count a visitor once per value.
 */
const MANY_PER_VISITOR = new Set(['page', 'source', 'event', 'click', 'error']);

type Entry = [string, Vector];
type Order = AnalyticsQuery['orderBy'];

/** The dimension a query answers per value, and the dimension whose counters it reads. */
interface QueryDimensions {
  dimension: QueryDimension | undefined;
  timeDimension: TimeDimension | undefined;
  /** The requested dimension when it is not a time one. */
  breakdown: BreakdownDimension | undefined;
  /** The breakdown, else the dimension the filters name, else '' (the totals). */
  dataDim: BreakdownDimension | '';
}

/** Which rows a query keeps, in which order, and how many it reads. */
interface RowSelection {
  metrics: Metric[];
  order: Order;
  matches: (value: string) => boolean;
  compare: (a: Entry, b: Entry) => number;
  /** Up to the end of the page, and one more to tell whether there are more. */
  wanted: number;
}

/**
 * Custom queries over the per-dimension counters (a small Plausible Stats API v2). Counters are
 * kept per single dimension, so a query reads one dimension: its breakdown, or the one its filters
 * name; filters on two different dimensions cannot be answered and are refused.
 */
export class QueryService {
  constructor(
    private readonly model: ReadModel,
    private readonly now: () => number = Date.now,
  ) {}

  private window(query: AnalyticsQuery, now: number): TimeWindow {
    const custom = query.from != null || query.to != null;
    if (custom && query.range) throw badInput('date_range: give a range or from/to, not both');
    if (!custom) return windowOf(query.range ?? 'LAST_7_DAYS', now);
    if (query.from == null || query.to == null)
      throw badInput('date_range: from and to are both required');
    const from = parseDay(query.from, 'date_range[0]');
    const to = parseDay(query.to, 'date_range[1]');
    if (from > to) throw badInput('date_range: from must not be after to');
    if ((to - from) / DAY_MS + 1 > MAX_CUSTOM_DAYS)
      throw badInput(`date_range: at most ${MAX_CUSTOM_DAYS} days`);
    return { granularity: 'day', from, lastBucket: to, to: to + DAY_MS };
  }

  async run(websiteId: string, query: AnalyticsQuery, page: Page) {
    const metrics = this.validate(query);
    const dims = dimensionsOf(query);
    refuseSummedVisitors(query, metrics, dims);
    const now = this.now();
    const window = this.readWindow(query, dims, now);
    const order = orderOf(query, metrics, dims);
    const ordered = await this.read(websiteId, dims, window, now, {
      metrics,
      order,
      matches: matcherOf(query.filters),
      compare: comparatorOf(order, metrics),
      wanted: page.offset + page.limit + 1,
    });
    return answerOf(query, metrics, dims, window, ordered, page);
  }

  /** The requested window, in the buckets the counters read are kept in. */
  private readWindow(query: AnalyticsQuery, dims: QueryDimensions, now: number): TimeWindow {
    const window = this.window(query, now);
    if (dims.timeDimension === 'time_hour' && window.granularity !== 'hour')
      throw badInput('dimensions: time:hour needs date_range "24h"');
    return dims.timeDimension === 'time_day' || ['event', 'click', 'error'].includes(dims.dataDim)
      ? asDays(window)
      : window;
  }

  /** The first `wanted` rows in order, from one consistent read. */
  private read(
    websiteId: string,
    dims: QueryDimensions,
    window: TimeWindow,
    now: number,
    selection: RowSelection,
  ): Promise<Entry[]> {
    const { timeDimension, breakdown, dataDim } = dims;
    const family = familyOfDim(dataDim);
    return this.model.consistent(websiteId, (index, q): (() => Promise<Entry[]> | Entry[]) => {
      if (timeDimension && dataDim === '') return this.totalsPerBucket(index, q, window, selection);
      if (timeDimension) return this.matchingPerBucket(index, q, family, window, selection);
      if (dataDim === '') return this.totals(index, q, window);
      return this.matchingRows(index, q, family, window, now, breakdown, selection);
    });
  }

  private totalsPerBucket(
    index: WebsiteIndex,
    q: HotQuery,
    window: TimeWindow,
    selection: RowSelection,
  ): () => Entry[] {
    const series = this.model.series(index, q, window);
    return () =>
      firstInOrder(
        series().buckets.map(([start, v]): Entry => [iso(start), v]),
        selection,
      );
  }

  /** Per bucket, the sum of the rows the filters match. */
  private matchingPerBucket(
    index: WebsiteIndex,
    q: HotQuery,
    family: Family,
    window: TimeWindow,
    selection: RowSelection,
  ): () => Promise<Entry[]> {
    const buckets = this.model.bucketRows(index, q, family, window);
    return async () =>
      firstInOrder(
        (await buckets()).map(([start, rows]): Entry => [
          iso(start),
          sumMatching(rows, selection.matches),
        ]),
        selection,
      );
  }

  /** Without a dimension or filter: the totals; over 24h visitors are exact, as in the overview. */
  private totals(index: WebsiteIndex, q: HotQuery, window: TimeWindow): () => Entry[] {
    const series = this.model.series(index, q, window);
    return () => {
      const { buckets, uniqueVisitors } = series();
      const total = zero();
      for (const [, v] of buckets) addInto(total, v);
      if (uniqueVisitors !== null) total[1] = uniqueVisitors;
      return [['', total]];
    };
  }

  /** The breakdown's first rows the filters match or, without a breakdown, their sum. */
  private matchingRows(
    index: WebsiteIndex,
    q: HotQuery,
    family: Family,
    window: TimeWindow,
    now: number,
    breakdown: BreakdownDimension | undefined,
    { metrics, order, matches, compare, wanted }: RowSelection,
  ): () => Promise<Entry[]> {
    const rows = this.model.rangeRows(index, q, family, window, todayOf(now));
    return async () => {
      const range = await rows();
      if (breakdown)
        return range.top(wanted, { key: JSON.stringify([order, metrics]), compare }, matches);
      const total = zero();
      range.each((value, vector) => {
        if (matches(value)) addInto(total, vector);
      });
      return [['', total]];
    };
  }

  /** What GraphQL's enums cannot say: metrics once each, one dimension, no time filter. */
  private validate(query: AnalyticsQuery): Metric[] {
    if (query.metrics.length === 0) throw badInput('metrics: at least one metric is required');
    if (new Set(query.metrics).size !== query.metrics.length)
      throw badInput('metrics: each metric at most once');
    if (query.dimensions.length > 1) throw badInput('dimensions: at most one dimension');
    for (const [i, f] of query.filters.entries()) {
      if (isTimeDimension(f.dimension))
        throw badInput(
          `filters[${i}]: unknown dimension ${JSON.stringify(restDimension(f.dimension))}; use ${QUERY_DIMENSIONS.join(', ')}`,
        );
      if (f.values.length === 0) throw badInput(`filters[${i}]: at least one value is required`);
    }
    return query.metrics;
  }
}

function dimensionsOf(query: AnalyticsQuery): QueryDimensions {
  const [dimension] = query.dimensions;
  const timeDimension =
    dimension !== undefined && isTimeDimension(dimension) ? dimension : undefined;
  const breakdown = dimension !== undefined && !isTimeDimension(dimension) ? dimension : undefined;
  const filtered = filteredDimension(query, breakdown);
  return { dimension, timeDimension, breakdown, dataDim: breakdown ?? filtered ?? '' };
}

/** The one dimension the filters name, if any: it must be the breakdown's when there is one. */
function filteredDimension(
  query: AnalyticsQuery,
  breakdown: BreakdownDimension | undefined,
): BreakdownDimension | undefined {
  const filterDims = [
    ...new Set(query.filters.flatMap((f) => (isTimeDimension(f.dimension) ? [] : [f.dimension]))),
  ];
  if (filterDims.length > 1)
    throw badInput(
      `filters: all filters must name the same dimension (got ${filterDims.join(', ')}); counters are kept per dimension`,
    );
  if (breakdown && filterDims[0] && filterDims[0] !== breakdown) {
    throw badInput(
      `filters: with dimension ${breakdown}, filters may only name ${breakdown} (got ${filterDims[0]}); counters are kept per dimension`,
    );
  }
  return filterDims[0];
}

function refuseSummedVisitors(
  query: AnalyticsQuery,
  metrics: Metric[],
  { breakdown, dataDim }: QueryDimensions,
): void {
  if (
    dataDim !== breakdown &&
    MANY_PER_VISITOR.has(dataDim) &&
    metrics.includes('visitors') &&
    query.filters.some((f) => f.operator !== 'IS' || f.values.length > 1)
  )
    throw badInput(
      `metrics: visitors cannot be added up over several ${dataDim} values (a visitor is counted once per ${dataDim}); filter on one value with is, or add dimension ${dataDim}`,
    );
}

/** The requested order or, by default, by time, else by the first metric, largest first. */
function orderOf(
  query: AnalyticsQuery,
  metrics: Metric[],
  { dimension, timeDimension }: QueryDimensions,
): Order {
  const order =
    query.orderBy.length > 0
      ? query.orderBy
      : timeDimension
        ? [{ field: timeDimension, direction: 'ASC' as const }]
        : metrics.slice(0, 1).map((field) => ({ field, direction: 'DESC' as const }));
  for (const o of order) {
    if (o.field !== dimension && !isRequestedMetric(o.field, metrics))
      throw badInput(notAnOrderField(restOrderField(o.field)));
  }
  return order;
}

function matcherOf(filters: AnalyticsQuery['filters']): (value: string) => boolean {
  return (value) =>
    filters.every((f) =>
      f.operator === 'IS'
        ? f.values.includes(value)
        : f.operator === 'IS_NOT'
          ? !f.values.includes(value)
          : f.values.some((v) => value.toLowerCase().includes(v.toLowerCase())),
    );
}

function isRequestedMetric(field: QueryOrderField, metrics: readonly Metric[]): field is Metric {
  const requested: readonly QueryOrderField[] = metrics;
  return requested.includes(field);
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** By each field of `order` in turn (a metric, or the dimension value), then by value. */
function comparatorOf(order: Order, metrics: Metric[]): (a: Entry, b: Entry) => number {
  return ([ka, va], [kb, vb]) => {
    for (const o of order) {
      const diff = isRequestedMetric(o.field, metrics)
        ? metricOf(o.field, va) - metricOf(o.field, vb)
        : byKey(ka, kb);
      if (diff !== 0) return o.direction === 'ASC' ? diff : -diff;
    }
    return byKey(ka, kb);
  };
}

function sumMatching(rows: Rows, matches: (value: string) => boolean): Vector {
  const sum = zero();
  for (const [value, vector] of rows) if (matches(value)) addInto(sum, vector);
  return sum;
}

function firstInOrder(entries: Entry[], { compare, wanted }: RowSelection): Entry[] {
  return entries.sort(compare).slice(0, wanted);
}

function answerOf(
  query: AnalyticsQuery,
  metrics: Metric[],
  dims: QueryDimensions,
  window: TimeWindow,
  ordered: Entry[],
  page: Page,
) {
  const { items, pagination } = paginate(ordered.slice(page.offset), page);
  return {
    metrics,
    dimensions: query.dimensions,
    from: new Date(window.from).toISOString(),
    to: new Date(window.to).toISOString(),
    results: items.map(([key, vector]) => ({
      dimensions: dims.dimension ? [key] : [],
      metrics: metrics.map((m) => metricOf(m, vector)),
    })),
    pagination,
  };
}
