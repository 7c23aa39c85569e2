/**
 * A question of the website page's Explore section, the URL parameters that keep it, and the
 * event-level query it becomes (`Website.stats`; docs/analytics.md, "POST /query/:websiteId").
 * The query's contract is common/contracts/stats-query.ts, which the dashboard may not import
 * (it is a client): the part of it this section sends is written out here.
 */
import { rangeOf, type Range } from './analytics-ranges';

/** The dimensions offered, by their names in the query language. */
export const DIMENSIONS = [
  { name: 'page', noun: 'page' },
  { name: 'entry_page', noun: 'entry page' },
  { name: 'exit_page', noun: 'exit page' },
  { name: 'source', noun: 'source' },
  { name: 'utm_source', noun: 'UTM source' },
  { name: 'utm_medium', noun: 'UTM medium' },
  { name: 'utm_campaign', noun: 'UTM campaign' },
  { name: 'country', noun: 'country' },
  { name: 'device', noun: 'device' },
  { name: 'browser', noun: 'browser' },
  { name: 'os', noun: 'operating system' },
  { name: 'event', noun: 'event name' },
  { name: 'goal', noun: 'goal' },
] as const;
export type Dimension = (typeof DIMENSIONS)[number]['name'];

export const CONDITIONS = [
  { op: 'is', label: 'is' },
  { op: 'is_not', label: 'is not' },
  { op: 'contains', label: 'contains' },
  { op: 'contains_not', label: 'does not contain' },
] as const;
export type Condition = (typeof CONDITIONS)[number]['op'];

export interface Question {
  by: Dimension;
  thenBy: Dimension | null;
  filter: { dimension: Dimension; op: Condition; value: string } | null;
  range: Range;
}

type Metric = 'visitors' | 'pageviews' | 'events';

/** What the section sends as `StatsQuery`: the normalized query, with one condition at most. */
export interface StatsQuery {
  metrics: Metric[];
  dimensions: Dimension[];
  filter: { op: Condition; dimension: Dimension; values: string[]; caseSensitive: boolean } | null;
  dateRange: { from: string; to: string };
  include: { totalRows: boolean; timeLabels: boolean; comparison: null };
  orderBy: [];
  limit: number;
  offset: number;
}

export const ROW_LIMIT = 50;

const METRIC_LABELS: Record<Metric, string> = {
  visitors: 'Visitors',
  pageviews: 'Page views',
  events: 'Events',
};

const noun = (name: Dimension): string => DIMENSIONS.find((d) => d.name === name)!.noun;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A dimension's name as a label or a column header: "Entry page", "UTM source". */
export const dimensionLabel = (name: Dimension): string => capitalized(noun(name));
export const metricLabel = (metric: Metric): string => METRIC_LABELS[metric];
export const conditionLabel = (op: Condition): string => CONDITIONS.find((c) => c.op === op)!.label;

const isDimension = (value: string | null): value is Dimension =>
  DIMENSIONS.some((d) => d.name === value);
const isCondition = (value: string | null): value is Condition =>
  CONDITIONS.some((c) => c.op === value);

export const dimensionsOf = (question: Question): Dimension[] =>
  question.thenBy ? [question.by, question.thenBy] : [question.by];

/** Visitors and page views; and custom events where a row is an event name or a goal. */
export function metricsOf(question: Question): Metric[] {
  const countsEvents = dimensionsOf(question).some((d) => d === 'event' || d === 'goal');
  return countsEvents ? ['visitors', 'pageviews', 'events'] : ['visitors', 'pageviews'];
}

/** URL parameters of a question, beside the page's own (`range`). */
const PARAMS = ['by', 'then', 'where', 'op', 'value', 'period'] as const;

/** The question the URL holds (`?by=page&then=device&where=source&op=is&value=x&period=7d`). */
export function questionFromParams(params: URLSearchParams): Question | null {
  const by = params.get('by');
  if (!isDimension(by)) return null;
  const then = params.get('then');
  const where = params.get('where');
  const op = params.get('op');
  const value = params.get('value')?.trim() ?? '';
  return {
    by,
    thenBy: isDimension(then) && then !== by ? then : null,
    filter:
      isDimension(where) && isCondition(op) && value !== ''
        ? { dimension: where, op, value }
        : null,
    range: rangeOf(params.get('period')),
  };
}

/** `params` with `question` in place of the question it held; the page's own kept. */
export function withQuestion(params: URLSearchParams, question: Question): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of PARAMS) next.delete(name);
  next.set('by', question.by);
  if (question.thenBy) next.set('then', question.thenBy);
  if (question.filter) {
    next.set('where', question.filter.dimension);
    next.set('op', question.filter.op);
    next.set('value', question.filter.value);
  }
  next.set('period', question.range.param);
  return next;
}

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The query of a question: its range as whole UTC days ending with `now`'s, the first 50 rows,
 * most visitors first (the engine's default order, ties by the dimensions), with the row count.
 */
export function statsQueryOf(question: Question, now: number): StatsQuery {
  const today = now - (now % DAY_MS);
  const { filter } = question;
  return {
    metrics: metricsOf(question),
    dimensions: dimensionsOf(question),
    filter: filter && {
      op: filter.op,
      dimension: filter.dimension,
      values: [filter.value],
      // The language's defaults, which its normalized form spells out: contains ignores case.
      caseSensitive: filter.op !== 'contains' && filter.op !== 'contains_not',
    },
    dateRange: { from: utcDay(today - (question.range.days - 1) * DAY_MS), to: utcDay(today) },
    include: { totalRows: true, timeLabels: false, comparison: null },
    orderBy: [],
    limit: ROW_LIMIT,
    offset: 0,
  };
}

/** The question in words, for the answer's caption. */
export function describe(question: Question): string {
  const metrics = metricsOf(question).map((m) => metricLabel(m).toLowerCase());
  const what = `${capitalized(metrics.slice(0, -1).join(', '))} and ${metrics.at(-1)!}`;
  const by = dimensionsOf(question).map(noun).join(' and ');
  const { filter } = question;
  const where = filter
    ? `, where ${noun(filter.dimension)} ${conditionLabel(filter.op)} “${filter.value}”`
    : '';
  return `${what} by ${by}, ${question.range.label.toLowerCase()}${where}`;
}
