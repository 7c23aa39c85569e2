import { badInput } from '../../../../common/errors';
import { DAY_MS } from '../ingest/time-buckets';
import { addInto, familyOfDim, rates, zero, type Rows, type Vector } from '../store/counters';
import { asDays, windowOf, type AnalyticsRange, type TimeWindow } from './range';
import { todayOf, type ReadModel } from './read-model';
import { paginate, type Page } from './stats.service';
import {
  QUERY_DIMENSIONS,
  QUERY_METRICS,
  TIME_DIMENSIONS,
} from '../../../../common/analytics-query';

export { QUERY_DIMENSIONS, QUERY_METRICS, TIME_DIMENSIONS };
export const MAX_CUSTOM_DAYS = 366;

type Metric = (typeof QUERY_METRICS)[number];

export interface AnalyticsQuery {
  metrics: string[];
  dimensions: string[];
  filters: Array<{ operator: 'IS' | 'IS_NOT' | 'CONTAINS'; dimension: string; values: string[] }>;
  range?: AnalyticsRange | null;
  from?: string | null;
  to?: string | null;
  orderBy: Array<{ field: string; direction: 'ASC' | 'DESC' }>;
  limit: number;
  offset: number;
}

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
 * Custom queries over the per-dimension counters (a small Plausible Stats API v2). Counters are
 * kept per single dimension, so a query reads one dimension: its breakdown, or the one its filters
 * name; filters on two different dimensions cannot be answered and are refused.
 */
/**
 * Dimensions a visitor can have several values of in a day. Their `visitors` counters are distinct
 * per value, so a sum over several values would count a visitor once per value.
 */
const MANY_PER_VISITOR = new Set(['page', 'source', 'event', 'click', 'error']);

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
    const [dimension] = query.dimensions;
    const timeDimension = dimension?.startsWith('time:') ? dimension : undefined;
    const breakdown = timeDimension ? undefined : dimension;
    const filterDims = [...new Set(query.filters.map((f) => f.dimension))];
    if (filterDims.length > 1)
      throw badInput(
        `filters: all filters must name the same dimension (got ${filterDims.join(', ')}); counters are kept per dimension`,
      );
    if (breakdown && filterDims[0] && filterDims[0] !== breakdown) {
      throw badInput(
        `filters: with dimension ${breakdown}, filters may only name ${breakdown} (got ${filterDims[0]}); counters are kept per dimension`,
      );
    }
    const dataDim = breakdown ?? filterDims[0] ?? '';
    if (
      dataDim !== breakdown &&
      MANY_PER_VISITOR.has(dataDim) &&
      metrics.includes('visitors') &&
      query.filters.some((f) => f.operator !== 'IS' || f.values.length > 1)
    )
      throw badInput(
        `metrics: visitors cannot be added up over several ${dataDim} values (a visitor is counted once per ${dataDim}); filter on one value with is, or add dimension ${dataDim}`,
      );
    const now = this.now();
    let window = this.window(query, now);
    if (timeDimension === 'time:hour' && window.granularity !== 'hour')
      throw badInput('dimensions: time:hour needs date_range "24h"');
    if (timeDimension === 'time:day' || ['event', 'click', 'error'].includes(dataDim))
      window = asDays(window);

    const family = familyOfDim(dataDim);
    const matches = (value: string) =>
      query.filters.every((f) =>
        f.operator === 'IS'
          ? f.values.includes(value)
          : f.operator === 'IS_NOT'
            ? !f.values.includes(value)
            : f.values.some((v) => value.toLowerCase().includes(v.toLowerCase())),
      );
    const order =
      query.orderBy.length > 0
        ? query.orderBy
        : timeDimension
          ? [{ field: timeDimension, direction: 'ASC' as const }]
          : [{ field: metrics[0] as string, direction: 'DESC' as const }];
    for (const o of order) {
      if (o.field !== dimension && !metrics.includes(o.field as Metric))
        throw badInput(
          `order_by: ${o.field} is neither a requested metric nor the requested dimension`,
        );
    }
    const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const compare = ([ka, va]: [string, Vector], [kb, vb]: [string, Vector]) => {
      for (const o of order) {
        const metric = metrics.includes(o.field as Metric) ? (o.field as Metric) : null;
        const diff = metric ? metricOf(metric, va) - metricOf(metric, vb) : byKey(ka, kb);
        if (diff !== 0) return o.direction === 'ASC' ? diff : -diff;
      }
      return byKey(ka, kb);
    };
    const wanted = page.offset + page.limit + 1;
    const ordered = await this.model.consistent(
      websiteId,
      (index, q): (() => Promise<Array<[string, Vector]>> | Array<[string, Vector]>) => {
        const sumMatching = (rows: Rows) => {
          const sum = zero();
          for (const [value, vector] of rows) if (matches(value)) addInto(sum, vector);
          return sum;
        };
        const sorted = (entries: Array<[string, Vector]>) => entries.sort(compare).slice(0, wanted);
        if (timeDimension && dataDim === '') {
          const series = this.model.series(index, q, window);
          return () => sorted(series().buckets.map(([start, v]) => [iso(start), v]));
        }
        if (timeDimension) {
          const buckets = this.model.bucketRows(index, q, family, window);
          return async () =>
            sorted((await buckets()).map(([start, rows]) => [iso(start), sumMatching(rows)]));
        }
        if (dataDim === '') {
          // Without a dimension or filter: the totals; over 24h visitors are exact, as in the overview.
          const series = this.model.series(index, q, window);
          return () => {
            const { buckets, uniqueVisitors } = series();
            const total = zero();
            for (const [, v] of buckets) addInto(total, v);
            if (uniqueVisitors !== null) total[1] = uniqueVisitors;
            return [['', total]];
          };
        }
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
      },
    );
    const { items, pagination } = paginate(ordered.slice(page.offset), page);
    return {
      metrics,
      dimensions: query.dimensions,
      from: new Date(window.from).toISOString(),
      to: new Date(window.to).toISOString(),
      results: items.map(([key, vector]) => ({
        dimensions: dimension ? [key] : [],
        metrics: metrics.map((m) => metricOf(m, vector)),
      })),
      pagination,
    };
  }

  private validate(query: AnalyticsQuery): Metric[] {
    if (query.metrics.length === 0) throw badInput('metrics: at least one metric is required');
    for (const m of query.metrics) {
      if (!(QUERY_METRICS as readonly string[]).includes(m))
        throw badInput(
          `metrics: unknown metric ${JSON.stringify(m)}; use ${QUERY_METRICS.join(', ')}`,
        );
    }
    if (new Set(query.metrics).size !== query.metrics.length)
      throw badInput('metrics: each metric at most once');
    if (query.dimensions.length > 1) throw badInput('dimensions: at most one dimension');
    const all = [...QUERY_DIMENSIONS, ...TIME_DIMENSIONS] as readonly string[];
    for (const d of query.dimensions)
      if (!all.includes(d))
        throw badInput(`dimensions: unknown dimension ${JSON.stringify(d)}; use ${all.join(', ')}`);
    for (const [i, f] of query.filters.entries()) {
      if (!(QUERY_DIMENSIONS as readonly string[]).includes(f.dimension))
        throw badInput(
          `filters[${i}]: unknown dimension ${JSON.stringify(f.dimension)}; use ${QUERY_DIMENSIONS.join(', ')}`,
        );
      if (f.values.length === 0) throw badInput(`filters[${i}]: at least one value is required`);
    }
    return query.metrics as Metric[];
  }
}
