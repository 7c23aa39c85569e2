import { badInput } from '../../../../common/platform/errors';
import {
  isCondition,
  isTimeDimension,
  MAX_HOUR_DAYS,
  MAX_QUERY_DAYS,
  type StatsAnswer,
  type StatsDateRange,
  type StatsFilter,
  type StatsQuery,
  type StatsRow,
} from '../../../../common/contracts/stats-query';
import type { Duck } from '../engine/duck';
import {
  daySources,
  SourcesMovedError,
  spanName,
  type EventTables,
  type PreparedTables,
} from '../engine/event-tables';
import {
  conversionTotalsRolled,
  eventGoalRolled,
  type RollupSpan,
  type Rollup,
  type RollupDimension,
  rollupsFor,
  type RollupTables,
} from '../engine/day-rollups';
import { queryWithKeys, resolveKeys } from '../engine/dictionary';
import {
  compileRollupQuery,
  compileStatsQuery,
  dictionaryOf,
  isKeyed,
  type CompiledQuery,
  type GoalDefinition,
  type ResolvedKeys,
} from '../engine/stats-sql';
import { DAY_MS, floorHour, HOUR_MS, wholeMonths } from '../ingest/time-buckets';
import { daysBetween, type DayKey } from '../store/hot-keys';
import type { ReadModel } from './read-model';

/** A range read: [from, to) in ms, and its UTC days. */
interface Span {
  from: number;
  to: number;
  days: readonly DayKey[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9999-12-30';

function parseDay(value: string, name: string): number {
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
    throw badInput(`${name} must be a date YYYY-MM-DD (got ${JSON.stringify(value)})`);
  if (value < FIRST_DAY || value > LAST_DAY)
    throw badInput(`${name} must be from ${FIRST_DAY} to ${LAST_DAY} (got ${value})`);
  return ms;
}

export function spanOf(range: StatsDateRange, now: number, name = 'date_range'): Span {
  if ('last24h' in range) {
    const to = floorHour(now) + HOUR_MS;
    const from = to - 24 * HOUR_MS;
    return { from, to, days: daysBetween(from - (from % DAY_MS), to - 1 - ((to - 1) % DAY_MS)) };
  }
  const from = parseDay(range.from, `${name}[0]`);
  const last = parseDay(range.to, `${name}[1]`);
  if (last < from) throw badInput(`${name}: the first date must not be after the second`);
  const days = (last - from) / DAY_MS + 1;
  if (days > MAX_QUERY_DAYS)
    throw badInput(`${name}: at most ${MAX_QUERY_DAYS} days (got ${days})`);
  return { from, to: last + DAY_MS, days: daysBetween(from, last) };
}

/** Every bucket's label of a span, as the engine names buckets (stats-sql.ts). */
function timeLabels(dimension: string, span: Span): string[] {
  const labels: string[] = [];
  if (dimension === 'time:hour') {
    for (let t = span.from; t < span.to; t += HOUR_MS)
      labels.push(`${new Date(t).toISOString().slice(0, 13)}:00:00Z`);
    return labels;
  }
  const seen = new Set<string>();
  for (let t = span.from - (span.from % DAY_MS); t < span.to; t += DAY_MS) {
    const date = new Date(t);
    let label = date.toISOString().slice(0, 10);
    if (dimension === 'time:month') label = `${label.slice(0, 7)}-01`;
    if (dimension === 'time:week') {
      const day = Math.floor(t / DAY_MS);
      const monday = day - ((date.getUTCDay() + 6) % 7);
      label = new Date(monday * DAY_MS).toISOString().slice(0, 10);
    }
    if (!seen.has(label)) {
      seen.add(label);
      labels.push(label);
    }
  }
  return labels;
}

function goalsNamedIn(filter: StatsFilter | null): string[] {
  if (!filter) return [];
  if (isCondition(filter)) return filter.dimension === 'goal' ? filter.values : [];
  if (filter.op === 'not') return goalsNamedIn(filter.filter);
  return filter.filters.flatMap(goalsNamedIn);
}

const ATTEMPTS = 3;

/**
 * What a question is answered from: the website's events (and, for a conversion rate, the day
 * totals of its rollups where they serve), or its day rollups of a dimension.
 */
type Source =
  | { table: string; totals: string | null; keys: ResolvedKeys }
  | {
      rollups: RollupTables;
      dimension: RollupDimension;
      value: string | null;
      /** The dimension's dictionary where it is keyed (its event rows are grouped by key). */
      dictionary: string | null;
      /** The spans kept for its rollups (spanName). */
      spanned: ReadonlySet<string>;
      /** The first instant of the day the question is asked: a range's span ends there at most. */
      today: number;
    };

/** How a question is answered: from its rollups (a plan) or the events, over which ranges. */
interface AnswerPlan {
  plan: ReturnType<typeof rolledPlan>;
  totalsRolled: boolean;
  span: Span;
  comparison: Span | null;
  /** The first instant of the day it is asked. */
  today: number;
}

/**
 * The day rollups a question reads over its range (and its comparison's), or null when it needs
 * the events: a question rollupsFor accepts, or one about a single event goal (eventGoalRolled),
 * whose rows are that event's and whose totals are the days'.
 */
function rolledPlan(
  query: StatsQuery,
  goals: readonly GoalDefinition[],
  span: Span,
  comparison: Span | null,
): { dimension: RollupDimension; rollups: Rollup[]; value: string | null } | null {
  const spans = comparison ? [span, comparison] : [span];
  const [rolled, ...others] = spans.map((s) => rollupsFor(query, s.from, s.to));
  if (rolled && others.every(Boolean)) return { ...rolled, value: null };
  const [event, ...otherEvents] = spans.map((s) => eventGoalRolled(query, s.from, s.to, goals));
  if (!event || !otherEvents.every((other) => other === event)) return null;
  return {
    dimension: 'event',
    rollups: [
      { kind: 'events', dimension: 'event' },
      { kind: 'events', dimension: '' },
    ],
    value: event,
  };
}

/**
 * POST /query's answers, from every event of the range (engine/stats-sql.ts for the statement,
 * engine/event-tables.ts for the data), or from its day rollups where they answer the question
 * exactly (engine/day-rollups.ts): the website's table is brought up to what the day index and
 * the hot tier hold, read in one consistent moment, then queried.
 */
export class StatsQueryService {
  constructor(
    private readonly model: ReadModel,
    private readonly tables: EventTables,
    private readonly duck: Duck,
    private readonly now: () => number = Date.now,
  ) {}

  async run(
    website: string,
    query: StatsQuery,
    goals: readonly GoalDefinition[],
  ): Promise<StatsAnswer> {
    this.check(query, goals);
    const now = this.now();
    const span = spanOf(query.dateRange, now);
    const comparison = query.include.comparison
      ? spanOf(query.include.comparison, now, 'include.comparisons.date_range')
      : null;
    const hours = query.dimensions.includes('time:hour');
    for (const s of [span, comparison])
      if (s && hours && (s.to - s.from) / DAY_MS > MAX_HOUR_DAYS)
        throw badInput(`dimensions: time:hour needs a date range of at most ${MAX_HOUR_DAYS} days`);
    // Answered from the day rollups when both ranges can be, else from the events.
    const plan = rolledPlan(query, goals, span, comparison);
    const totalsRolled =
      conversionTotalsRolled(query, span.from, span.to) &&
      (!comparison || conversionTotalsRolled(query, comparison.from, comparison.to));
    // A question by no time dimension reads the whole months of its ranges as kept sums, or its
    // ranges up to today as one (today changes with every batch: it is read from its day rows).
    const today = now - (now % DAY_MS);
    const spans =
      plan && !query.dimensions.some(isTimeDimension)
        ? [span, comparison].flatMap((s) =>
            s
              ? [
                  { from: s.from, to: Math.min(s.to, today) },
                  wholeMonths(s.from, s.to) ?? [],
                ].flat()
              : [],
          )
        : [];
    const tables = await this.prepare(
      website,
      [...span.days, ...(comparison?.days ?? [])],
      plan?.rollups ?? (totalsRolled ? [{ kind: 'events', dimension: '' }] : []),
      spans,
    );
    try {
      return await this.answerFrom(tables, query, goals, {
        plan,
        totalsRolled,
        span,
        comparison,
        today,
      });
    } finally {
      tables.release();
    }
  }

  /** The answer from the website's tables as prepared. */
  private async answerFrom(
    tables: PreparedTables,
    query: StatsQuery,
    goals: readonly GoalDefinition[],
    { plan, totalsRolled, span, comparison, today }: AnswerPlan,
  ): Promise<StatsAnswer> {
    const source: Source = plan
      ? {
          rollups: tables.rollups,
          dimension: plan.dimension,
          value: plan.value,
          dictionary: isKeyed(plan.dimension) ? dictionaryOf(tables.table, plan.dimension) : null,
          spanned: tables.spanned,
          today,
        }
      : {
          table: tables.table,
          totals: totalsRolled ? tables.rollups.events : null,
          // Once for the range and its comparison: queryWithKeys checks them after each statement.
          keys: await resolveKeys(this.duck, tables.table, query.filter),
        };
    const { rows, totalRows } = await this.rows(query, source, span, goals);
    const hasMore = rows.length > query.limit;
    let results = rows.slice(0, query.limit);
    const timeDimension = query.dimensions.find(isTimeDimension);
    if (comparison) {
      const other = await this.rows(
        { ...query, limit: 10_000_000, offset: 0 },
        source,
        comparison,
        goals,
      );
      results = this.compare(query, results, other.rows, span, comparison);
    }
    return {
      metrics: query.metrics,
      dimensions: query.dimensions,
      limit: query.limit,
      offset: query.offset,
      results,
      totalRows: query.include.totalRows ? totalRows : null,
      timeLabels:
        query.include.timeLabels && timeDimension ? timeLabels(timeDimension, span) : null,
      from: iso(span.from),
      to: iso(span.to),
      comparisonFrom: comparison ? iso(comparison.from) : null,
      comparisonTo: comparison ? iso(comparison.to) : null,
      hasMore,
    };
  }

  private check(query: StatsQuery, goals: readonly GoalDefinition[]): void {
    const names = new Set(goals.map((g) => g.name));
    for (const name of goalsNamedIn(query.filter))
      if (!names.has(name))
        throw badInput(
          `filters: goal ${JSON.stringify(name)} is not one of the website's goals (${[...names].join(', ') || 'it has none'})`,
        );
    const asks = (m: string) => query.metrics.includes(m as StatsQuery['metrics'][number]);
    const goalAsked = query.dimensions.includes('goal') || goalsNamedIn(query.filter).length > 0;
    if (asks('conversion_rate') && !goalAsked)
      throw badInput('metrics: conversion_rate needs the goal dimension or a filter on goal');
    if (asks('revenue') && !query.dimensions.includes('goal'))
      throw badInput(
        'metrics: revenue needs the goal dimension (each goal sums the revenue in its own currency)',
      );
    if (asks('percentage') && query.dimensions.length === 0)
      throw badInput('metrics: percentage needs a dimension');
    for (const { field } of query.orderBy)
      if (
        !query.metrics.includes(field as StatsQuery['metrics'][number]) &&
        !query.dimensions.includes(field as StatsQuery['dimensions'][number])
      )
        throw badInput(
          `order_by: ${field} is neither a requested metric nor a requested dimension`,
        );
  }

  /**
   * The website's tables holding every day of the range (and `rollups` up to date for them), read
   * in one consistent moment.
   */
  private async prepare(
    website: string,
    days: readonly DayKey[],
    rollups: readonly Rollup[],
    spans: readonly RollupSpan[],
  ): Promise<PreparedTables> {
    const unique = [...new Set(days)];
    for (let attempt = 1; ; attempt += 1) {
      const sources = await this.model.consistent(website, (index, q) => {
        const reads = unique
          .filter((day) => index.days.get(day)?.hot)
          .map((day) => [day, q.blockIds(day)] as const);
        return () =>
          daySources(unique, index.days, new Map(reads.map(([day, read]) => [day, read()])));
      });
      try {
        return await this.tables.prepare(website, sources, rollups, spans);
      } catch (error) {
        if (!(error instanceof SourcesMovedError) || attempt === ATTEMPTS) throw error;
      }
    }
  }

  private async rows(
    query: StatsQuery,
    source: Source,
    span: Span,
    goals: readonly GoalDefinition[],
  ): Promise<{ rows: StatsRow[]; totalRows: number }> {
    const { compiled, rows: found } = await this.answer(query, source, span, goals);
    const rows = found.map((row) => ({
      dimensions: compiled.dimensionColumns.map((c) => String(row[c])),
      metrics: query.metrics.map((m) => (row[m] === null ? null : Number(row[m]))),
    }));
    const totalRows = found.length > 0 ? Number(found[0]!.total_rows) : 0;
    return this.zeroFilled(query, rows, totalRows, span);
  }

  /** The statement of the question over the source, and its rows. */
  private async answer(
    query: StatsQuery,
    source: Source,
    span: Span,
    goals: readonly GoalDefinition[],
  ): Promise<{ compiled: CompiledQuery; rows: Array<Record<string, unknown>> }> {
    if ('table' in source)
      return queryWithKeys(this.duck, source.keys, (keys) =>
        compileStatsQuery(query, source.table, span.from, span.to, goals, {
          rollups: source.totals,
          keys,
        }),
      );
    const compiled = compileRollupQuery(
      query,
      source.rollups,
      source.dimension,
      span.from,
      span.to,
      {
        value: source.value,
        dictionary: source.dictionary,
        today: source.today,
        spanKept: (kind, dimension, kept) =>
          source.spanned.has(spanName({ kind, dimension: dimension as RollupDimension }, kept)),
      },
    );
    return { compiled, rows: await this.duck.query(compiled.sql, compiled.params) };
  }

  /**
   * A series by time alone, in time order from its first row, has a row per bucket: zeros where
   * nothing happened.
   */
  private zeroFilled(
    query: StatsQuery,
    rows: StatsRow[],
    totalRows: number,
    span: Span,
  ): { rows: StatsRow[]; totalRows: number } {
    const [dimension] = query.dimensions;
    const series =
      query.dimensions.length === 1 &&
      dimension !== undefined &&
      isTimeDimension(dimension) &&
      query.orderBy.length === 0 &&
      query.offset === 0;
    if (!series) return { rows, totalRows };
    const byLabel = new Map(rows.map((row) => [row.dimensions[0]!, row]));
    const filled = timeLabels(dimension, span).map(
      (label) =>
        byLabel.get(label) ?? {
          dimensions: [label],
          metrics: query.metrics.map((m) => (m === 'revenue' ? null : 0)),
        },
    );
    return { rows: filled.slice(0, query.limit + 1), totalRows: filled.length };
  }

  /**
   * Each row with its counterpart over the comparison range: by the same values, time buckets by
   * their position in the range.
   */
  private compare(
    query: StatsQuery,
    rows: StatsRow[],
    other: StatsRow[],
    span: Span,
    comparison: Span,
  ): StatsRow[] {
    const timeAt = query.dimensions.findIndex(isTimeDimension);
    const labels = timeAt >= 0 ? timeLabels(query.dimensions[timeAt]!, span) : [];
    const otherLabels = timeAt >= 0 ? timeLabels(query.dimensions[timeAt]!, comparison) : [];
    const keyOf = (dims: string[], own: string[]) =>
      JSON.stringify(dims.map((value, i) => (i === timeAt ? String(own.indexOf(value)) : value)));
    const others = new Map(other.map((row) => [keyOf(row.dimensions, otherLabels), row]));
    return rows.map((row) => {
      const match = others.get(keyOf(row.dimensions, labels));
      const metrics = match?.metrics ?? query.metrics.map((m) => (m === 'revenue' ? null : 0));
      return {
        ...row,
        comparison: {
          dimensions: match?.dimensions ?? row.dimensions,
          metrics,
          change: row.metrics.map((value, i) => change(value, metrics[i] ?? null)),
        },
      };
    });
  }
}

/** The relative change from `before` to `now` (0.25 is +25 %); null when before was 0. */
function change(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 10_000) / 10_000;
}
