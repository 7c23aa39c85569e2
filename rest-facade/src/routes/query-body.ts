/**
 * The body of POST /query/:websiteId, Plausible's Stats API v2 as this API speaks it, read into the
 * normalized StatsQuery (common/contracts/stats-query.ts) the analytics subgraph runs. Every
 * refusal names the path of what is wrong and what is allowed (400 invalid_parameters).
 */
import { z } from 'zod';
import {
  EVENT_DIMENSIONS,
  FILTER_OPERATORS,
  isPropsDimension,
  isTimeDimension,
  MAX_DIMENSIONS,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_QUERY_LIMIT,
  PROPS_PREFIX,
  STATS_METRICS,
  TIME_DIMENSIONS,
  type FilterOperator,
  type StatsDateRange,
  type StatsDimension,
  type StatsFilter,
  type StatsQuery,
} from '../../../common/contracts/stats-query';
import { invalidParameters } from '../errors';

const DAY_MS = 86_400_000;
export const RELATIVE_RANGES = ['24h', '7d', '30d', '90d', '1y'] as const;
const RANGE_DAYS: Record<Exclude<(typeof RELATIVE_RANGES)[number], '24h'>, number> = {
  '7d': 7,
  '30d': 30,
  '90d': 90,
  '1y': 365,
};
export const DEFAULT_QUERY_LIMIT = 100;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const dateRange = z.union([z.enum(RELATIVE_RANGES), z.tuple([isoDate, isoDate])], {
  error: `must be one of ${RELATIVE_RANGES.map((r) => `"${r}"`).join(', ')}, or ["YYYY-MM-DD", "YYYY-MM-DD"]`,
});
const DIMENSION_NAMES = `${[...EVENT_DIMENSIONS, ...TIME_DIMENSIONS].join(', ')}, or ${PROPS_PREFIX}<name>`;

/** The body's shape (also its JSON Schema, QueryRequest, in the OpenAPI document). */
export const queryBodySchema = z
  .object({
    metrics: z
      .array(z.enum(STATS_METRICS))
      .min(1)
      .max(STATS_METRICS.length)
      .meta({
        description: `Each at most once: ${STATS_METRICS.join(', ')}. Rates are ratios from 0 to 1.`,
      }),
    dimensions: z
      .array(z.string().max(100))
      .max(MAX_DIMENSIONS)
      .default([])
      .meta({
        description: `Up to ${MAX_DIMENSIONS} of ${DIMENSION_NAMES} (time:hour for ranges of up to 31 days). None: one row of totals.`,
      }),
    filters: z
      .array(z.unknown())
      .max(MAX_FILTER_CONDITIONS)
      .default([])
      .meta({
        description: `All must hold. A filter is [operator, dimension, values] or [operator, dimension, values, {"case_sensitive": boolean}] with operator one of ${FILTER_OPERATORS.join(', ')} (matches: RE2 regular expressions); or ["and", [filters]], ["or", [filters]], ["not", filter], nested at most ${MAX_FILTER_DEPTH} deep, ${MAX_FILTER_CONDITIONS} conditions in all. contains and contains_not ignore case unless told; the others respect it unless told. goal filters name the website's goals.`,
        example: [
          ['is', 'country', ['DE', 'AT']],
          [
            'or',
            [
              ['contains', 'page', ['/blog']],
              ['is', 'event:props:plan', ['pro']],
            ],
          ],
        ],
      }),
    date_range: dateRange.default('7d').meta({
      description:
        'A range ending now (24h: the last 24 hours; the others whole UTC days including today), or [from, to]: UTC dates, inclusive, at most 366 days, between 1970-01-01 and 9999-12-30.',
    }),
    include: z
      .strictObject({
        total_rows: z.boolean().optional(),
        time_labels: z.boolean().optional(),
        comparisons: z
          .strictObject({
            mode: z.enum(['previous_period', 'year_over_year', 'custom']),
            date_range: z.tuple([isoDate, isoDate]).optional(),
          })
          .optional(),
      })
      .default({})
      .meta({
        description:
          'total_rows: the rows before paging (meta.total_rows). time_labels: every bucket of the time dimension (meta.time_labels). comparisons: the same query over the previous period, the same period a year before, or custom dates, beside each row (results[].comparison); a range of whole days only.',
      }),
    order_by: z
      .array(z.tuple([z.string().min(1), z.enum(['asc', 'desc'])]))
      .max(5)
      .default([])
      .meta({
        description:
          'Each entry is [a requested metric or dimension, "asc" or "desc"]. Default: the first metric descending (time ascending), then the dimensions.',
      }),
    limit: z
      .number()
      .int()
      .min(1)
      .default(DEFAULT_QUERY_LIMIT)
      .meta({
        description: `Rows per page, default ${DEFAULT_QUERY_LIMIT}; any value above ${MAX_QUERY_LIMIT} is clamped to it.`,
      }),
    offset: z.number().int().min(0).max(2_000_000_000).default(0).meta({
      description: 'Rows to skip, default 0. Continue with offset + limit until has_more is false.',
    }),
  })
  .strict()
  .meta({ description: 'An event-level query (modelled on Plausible Stats API v2).' });

export type QueryBody = z.output<typeof queryBodySchema>;
/** A body as a caller writes it (defaults left out). */
export type QueryBodyInput = z.input<typeof queryBodySchema>;

const refuse = (path: string, message: string) => invalidParameters(`${path}: ${message}`);

function dimension(name: string, path: string): StatsDimension {
  if (
    (EVENT_DIMENSIONS as readonly string[]).includes(name) ||
    isTimeDimension(name) ||
    isPropsDimension(name)
  )
    return name as StatsDimension;
  throw refuse(path, `unknown dimension ${JSON.stringify(name)}; allowed: ${DIMENSION_NAMES}`);
}

/** A filter of the body, checked all the way down, in the normalized form. */
function readFilter(raw: unknown, path: string, depth: number, count: { n: number }): StatsFilter {
  if (depth > MAX_FILTER_DEPTH) throw refuse(path, `filters nest at most ${MAX_FILTER_DEPTH} deep`);
  if (!Array.isArray(raw) || typeof raw[0] !== 'string')
    throw refuse(path, 'a filter is an array starting with its operator');
  const [op] = raw as [string];
  if (op === 'and' || op === 'or') {
    const inner = raw[1];
    if (raw.length !== 2 || !Array.isArray(inner) || inner.length === 0)
      throw refuse(path, `["${op}", [filters]] takes a non-empty list of filters`);
    return {
      op,
      filters: inner.map((f, i) => readFilter(f, `${path}[1][${i}]`, depth + 1, count)),
    };
  }
  if (op === 'not') {
    if (raw.length !== 2) throw refuse(path, '["not", filter] takes one filter');
    return { op: 'not', filter: readFilter(raw[1], `${path}[1]`, depth + 1, count) };
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op))
    throw refuse(
      `${path}[0]`,
      `unknown operator ${JSON.stringify(op)}; allowed: ${FILTER_OPERATORS.join(', ')}, and, or, not`,
    );
  if ((count.n += 1) > MAX_FILTER_CONDITIONS)
    throw refuse(path, `at most ${MAX_FILTER_CONDITIONS} conditions in all`);
  if (raw.length < 3 || raw.length > 4)
    throw refuse(path, `[${op}, dimension, values] or [${op}, dimension, values, modifiers]`);
  const [, dim, values, modifiers] = raw as [string, unknown, unknown, unknown];
  if (typeof dim !== 'string') throw refuse(`${path}[1]`, 'a dimension name');
  const name = dimension(dim, `${path}[1]`);
  if (isTimeDimension(name)) throw refuse(`${path}[1]`, 'time is filtered with date_range');
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > 100 ||
    values.some((v) => typeof v !== 'string' || v.length > 500)
  )
    throw refuse(`${path}[2]`, 'from 1 to 100 strings of at most 500 characters');
  let caseSensitive = !op.startsWith('contains');
  if (modifiers !== undefined) {
    const parsed = z.strictObject({ case_sensitive: z.boolean() }).safeParse(modifiers);
    if (!parsed.success) throw refuse(`${path}[3]`, 'modifiers are {"case_sensitive": boolean}');
    caseSensitive = parsed.data.case_sensitive;
  }
  if (op.startsWith('matches'))
    for (const [i, pattern] of (values as string[]).entries())
      if (!validPattern(pattern))
        throw refuse(`${path}[2][${i}]`, 'not a regular expression (RE2 syntax)');
  return {
    op: op as FilterOperator,
    dimension: name as Exclude<StatsDimension, (typeof TIME_DIMENSIONS)[number]>,
    values: values as string[],
    caseSensitive,
  };
}

/** A rough check before RE2 sees it: what JavaScript cannot parse, RE2 will not either. */
function validPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return !/\(\?[<=!]|\\[1-9]/.test(pattern);
  } catch {
    return false;
  }
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function rangeOf(value: QueryBody['date_range'], now: number): StatsDateRange {
  if (Array.isArray(value)) return { from: value[0], to: value[1] };
  if (value === '24h') return { last24h: true };
  const today = now - (now % DAY_MS);
  return { from: utcDay(today - (RANGE_DAYS[value] - 1) * DAY_MS), to: utcDay(today) };
}

function comparisonOf(body: QueryBody, range: StatsDateRange): StatsDateRange | null {
  const comparisons = body.include.comparisons;
  if (!comparisons) return null;
  if (comparisons.mode === 'custom') {
    if (!comparisons.date_range)
      throw refuse('include.comparisons.date_range', 'custom comparisons need [from, to]');
    return { from: comparisons.date_range[0], to: comparisons.date_range[1] };
  }
  if (comparisons.date_range)
    throw refuse('include.comparisons.date_range', 'only with mode "custom"');
  if ('last24h' in range)
    throw refuse('include.comparisons', 'comparisons need a date range of whole days');
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  if (comparisons.mode === 'previous_period') {
    const days = (to - from) / DAY_MS + 1;
    return { from: utcDay(from - days * DAY_MS), to: utcDay(from - DAY_MS) };
  }
  const yearBefore = (ms: number) => {
    const d = new Date(ms);
    d.setUTCFullYear(d.getUTCFullYear() - 1);
    return utcDay(d.getTime());
  };
  return { from: yearBefore(from), to: yearBefore(to) };
}

/** The body in the normalized form, or a 400 naming what is wrong. */
export function readQueryBody(body: unknown, now = Date.now()): StatsQuery {
  const parsed = queryBodySchema.safeParse(body);
  if (!parsed.success)
    throw invalidParameters(
      parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
        .join('; '),
    );
  const q = parsed.data;
  const dimensions = q.dimensions.map((d, i) => dimension(d, `dimensions[${i}]`));
  if (new Set(dimensions).size !== dimensions.length)
    throw refuse('dimensions', 'each dimension at most once');
  if (dimensions.filter(isTimeDimension).length > 1)
    throw refuse('dimensions', 'at most one time dimension');
  if (new Set(q.metrics).size !== q.metrics.length)
    throw refuse('metrics', 'each metric at most once');
  const count = { n: 0 };
  const filters = q.filters.map((f, i) => readFilter(f, `filters[${i}]`, 1, count));
  const range = rangeOf(q.date_range, now);
  return {
    metrics: q.metrics,
    dimensions,
    filter:
      filters.length === 0 ? null : filters.length === 1 ? filters[0]! : { op: 'and', filters },
    dateRange: range,
    include: {
      totalRows: q.include.total_rows ?? false,
      timeLabels: q.include.time_labels ?? false,
      comparison: comparisonOf(q, range),
    },
    orderBy: q.order_by.map(([field, direction], i) => {
      const known =
        (q.metrics as string[]).includes(field) || (dimensions as string[]).includes(field);
      if (!known)
        throw refuse(
          `order_by[${i}][0]`,
          `${field} is neither a requested metric nor a requested dimension`,
        );
      return { field: field as StatsQuery['orderBy'][number]['field'], direction };
    }),
    limit: Math.min(q.limit, MAX_QUERY_LIMIT),
    offset: q.offset,
  };
}
