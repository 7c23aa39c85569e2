/**
 * A brute-force recount of a StatsQuery over event rows, written from the definitions in
 * docs/analytics.md, "POST /query/:websiteId" and nothing of the engine's SQL: the engine's answers are
 * checked against it.
 */
import {
  isCondition,
  isPropsDimension,
  isTimeDimension,
  PROPS_PREFIX,
  type FilterCondition,
  type StatsDimension,
  type StatsFilter,
  type StatsQuery,
} from '../../common/contracts/stats-query';
import type { EventRow } from '../../subgraphs/analytics/src/engine/event-rows';
import type { GoalDefinition } from '../../subgraphs/analytics/src/engine/stats-sql';

const DAY_MS = 86_400_000;

interface Visit {
  started: number | null;
  pv: number;
  durationMs: number;
  entryPage: string | null;
  exitPage: string | null;
  source: string | null;
  utm: Record<string, string | null>;
  country: string | null;
  device: string | null;
  browser: string | null;
  os: string | null;
}

function globRegex(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

const goalMatches = (goal: GoalDefinition, e: EventRow) =>
  goal.kind === 'page'
    ? e.type === 'pageview' && globRegex(goal.pagePath!).test(e.page)
    : e.type === 'event' && e.name === goal.eventName;

function bucket(d: string, ts: number): string {
  const date = new Date(ts);
  if (d === 'time:hour') return `${date.toISOString().slice(0, 13)}:00:00Z`;
  if (d === 'time:day') return date.toISOString().slice(0, 10);
  if (d === 'time:month') return `${date.toISOString().slice(0, 7)}-01`;
  // ISO week: from Monday.
  const day = Math.floor(ts / DAY_MS);
  const monday = day - ((new Date(day * DAY_MS).getUTCDay() + 6) % 7);
  return new Date(monday * DAY_MS).toISOString().slice(0, 10);
}

const orUnknown = (v: string | null) => v ?? 'unknown';
const orNone = (v: string | null) => v ?? '(none)';

function eventValue(d: StatsDimension, e: EventRow, exit: string | null): string | null {
  if (isTimeDimension(d)) return bucket(d, e.ts);
  if (isPropsDimension(d)) {
    if (e.type !== 'event') return null;
    const name = d.slice(PROPS_PREFIX.length);
    return e.props.find(([key]) => key === name)?.[1] ?? '(none)';
  }
  switch (d) {
    case 'event':
      return e.type === 'event' ? e.name : null;
    case 'page':
      return e.page;
    case 'exit_page':
      return orNone(exit);
    case 'entry_page':
      return orNone(e.entryPage);
    case 'source':
      return e.source ?? 'direct';
    case 'country':
    case 'device':
    case 'browser':
    case 'os':
      return orUnknown(e[d]);
    case 'hostname':
      return orNone(e.hostname);
    case 'referrer':
      return orNone(e.referrer);
    case 'utm_source':
      return orNone(e.utmSource);
    case 'utm_medium':
      return orNone(e.utmMedium);
    case 'utm_campaign':
      return orNone(e.utmCampaign);
    case 'utm_content':
      return orNone(e.utmContent);
    case 'utm_term':
      return orNone(e.utmTerm);
    case 'goal':
      throw new Error('goal is not an event value');
  }
}

function visitValue(d: StatsDimension, v: Visit, e: EventRow, exit: string | null): string | null {
  if (isTimeDimension(d)) return bucket(d, v.started!);
  switch (d) {
    case 'page':
    case 'entry_page':
      return v.entryPage;
    case 'exit_page':
      return v.exitPage;
    case 'source':
      return v.source ?? 'direct';
    case 'country':
    case 'device':
    case 'browser':
    case 'os':
      return orUnknown(v[d]);
    case 'utm_source':
    case 'utm_medium':
    case 'utm_campaign':
    case 'utm_content':
    case 'utm_term':
      return orNone(v.utm[d] ?? null);
    default:
      return eventValue(d, e, exit);
  }
}

/** The condition's test of an event's value (null: the event lacks it). */
function conditionHolds(c: FilterCondition, value: string | null): boolean {
  const negated = c.op.endsWith('_not');
  if (value === null) return negated;
  const fold = (s: string) => (c.caseSensitive ? s : s.toLowerCase());
  let hit: boolean;
  switch (c.op) {
    case 'is':
    case 'is_not':
      hit = c.values.some((v) => fold(v) === fold(value));
      break;
    case 'contains':
    case 'contains_not':
      hit = c.values.some((v) => fold(value).includes(fold(v)));
      break;
    default:
      hit = c.values.some((v) => new RegExp(v, c.caseSensitive ? '' : 'i').test(value));
  }
  return negated ? !hit : hit;
}

/** Filters compare the value as rows show it ((none), unknown, direct included). */
const filterValue = (d: string, e: EventRow, exit: string | null) =>
  eventValue(d as StatsDimension, e, exit);

function matches(
  f: StatsFilter,
  e: EventRow,
  exit: string | null,
  goals: readonly GoalDefinition[],
): boolean {
  if (isCondition(f)) {
    if (f.dimension === 'goal') {
      const hit = goals.some((g) => f.values.includes(g.name) && goalMatches(g, e));
      return f.op.endsWith('_not') ? !hit : hit;
    }
    return conditionHolds(f, filterValue(f.dimension, e, exit));
  }
  if (f.op === 'not') return !matches(f.filter, e, exit, goals);
  return f.op === 'and'
    ? f.filters.every((x) => matches(x, e, exit, goals))
    : f.filters.some((x) => matches(x, e, exit, goals));
}

function withoutGoals(f: StatsFilter | null): StatsFilter | null {
  if (!f) return null;
  if (isCondition(f)) return f.dimension === 'goal' ? null : f;
  if (f.op === 'not') {
    const inner = withoutGoals(f.filter);
    return inner ? { op: 'not', filter: inner } : null;
  }
  const kept = f.filters.map(withoutGoals).filter((x): x is StatsFilter => x !== null);
  return kept.length ? { op: f.op, filters: kept } : null;
}

export interface RecountRow {
  dimensions: string[];
  metrics: Record<string, number | null>;
}

/** Every row of the answer (unordered, unpaged), keyed by the dimensions' values. */
export function recount(
  rows: readonly EventRow[],
  query: StatsQuery,
  from: number,
  to: number,
  goals: readonly GoalDefinition[],
): Map<string, RecountRow> {
  const around = rows.filter((e) => e.ts >= from - DAY_MS && e.ts < to + DAY_MS);
  const visits = new Map<bigint, Visit>();
  const byVisit = new Map<bigint, EventRow[]>();
  for (const e of around)
    if (e.visit !== null) byVisit.set(e.visit, [...(byVisit.get(e.visit) ?? []), e]);
  for (const [id, events] of byVisit) {
    const ordered = [...events].sort((a, b) => a.ts - b.ts);
    const views = ordered.filter((e) => e.type === 'pageview');
    const first = ordered[0]!;
    visits.set(id, {
      started: views.length ? views[0]!.ts : null,
      pv: views.length,
      durationMs: views.length ? views.at(-1)!.ts - views[0]!.ts : 0,
      entryPage: first.entryPage,
      exitPage: views.length ? views.at(-1)!.page : null,
      source: first.source,
      utm: {
        utm_source: views[0]?.utmSource ?? null,
        utm_medium: views[0]?.utmMedium ?? null,
        utm_campaign: views[0]?.utmCampaign ?? null,
        utm_content: views[0]?.utmContent ?? null,
        utm_term: views[0]?.utmTerm ?? null,
      },
      country: first.country,
      device: first.device,
      browser: first.browser,
      os: first.os,
    });
  }
  const exitOf = (e: EventRow) =>
    e.visit === null ? null : (visits.get(e.visit)?.exitPage ?? null);
  const inRange = rows.filter((e) => e.ts >= from && e.ts < to);
  const dims = query.dimensions;
  const goalDim = dims.includes('goal');
  // One entry per (event, goal) when goal is a dimension.
  type Expanded = { e: EventRow; goal: GoalDefinition | null };
  const expanded: Expanded[] = inRange.flatMap((e): Expanded[] =>
    goalDim
      ? goals.filter((g) => goalMatches(g, e)).map((goal) => ({ e, goal }))
      : [{ e, goal: null }],
  );
  const matched = expanded.filter(
    ({ e }) => !query.filter || matches(query.filter, e, exitOf(e), goals),
  );
  const key = (values: Array<string | null>) => JSON.stringify(values);
  const valuesOf = (x: { e: EventRow; goal: GoalDefinition | null }) =>
    dims.map((d) => (d === 'goal' ? x.goal!.name : eventValue(d, x.e, exitOf(x.e))));
  const out = new Map<string, RecountRow & { visitors: Set<bigint>; visits: Map<bigint, Visit> }>();
  const rowOf = (values: Array<string | null>) => {
    const k = key(values);
    let row = out.get(k);
    if (!row) {
      row = {
        dimensions: values as string[],
        metrics: { pageviews: 0, events: 0, revenue: null },
        visitors: new Set(),
        visits: new Map(),
      };
      out.set(k, row);
    }
    return row;
  };
  for (const x of matched) {
    const values = valuesOf(x);
    if (values.some((v) => v === null)) continue;
    const row = rowOf(values);
    row.visitors.add(x.e.visitor);
    if (x.e.type === 'pageview') row.metrics.pageviews! += 1;
    if (x.e.type === 'event') row.metrics.events! += 1;
    const revenueCounts =
      x.e.revenueAmount !== null && (!goalDim || x.e.revenueCurrency === x.goal!.currency);
    if (revenueCounts) row.metrics.revenue = (row.metrics.revenue ?? 0) + Number(x.e.revenueAmount);
  }
  // Visits make rows of their own values only when a visit metric is asked.
  const visitMetrics = ['sessions', 'bounce_rate', 'visit_duration', 'views_per_visit'];
  const visitsAsked = query.metrics.some((m) => visitMetrics.includes(m));
  for (const x of visitsAsked ? matched : []) {
    if (x.e.visit === null) continue;
    const visit = visits.get(x.e.visit);
    if (!visit || visit.started === null || visit.started < from || visit.started >= to) continue;
    const values = dims.map((d) =>
      d === 'goal' ? x.goal!.name : visitValue(d, visit, x.e, exitOf(x.e)),
    );
    if (values.some((v) => v === null)) continue;
    rowOf(values).visits.set(x.e.visit, visit);
  }
  const allVisitors = new Set(matched.map((x) => x.e.visitor)).size;
  const baseFilter = withoutGoals(query.filter);
  const totals = new Map<string, Set<bigint>>();
  if (query.metrics.includes('conversion_rate'))
    for (const e of inRange) {
      if (baseFilter && !matches(baseFilter, e, exitOf(e), goals)) continue;
      const values = dims.filter((d) => d !== 'goal').map((d) => eventValue(d, e, exitOf(e)));
      const k = key(values);
      totals.set(k, (totals.get(k) ?? new Set()).add(e.visitor));
    }
  const result = new Map<string, RecountRow>();
  for (const [k, row] of out) {
    const sessions = row.visits.size;
    const visitList = [...row.visits.values()];
    const bounces = visitList.filter((v) => v.pv === 1).length;
    const duration = visitList.reduce((s, v) => s + v.durationMs, 0);
    const views = visitList.reduce((s, v) => s + v.pv, 0);
    const visitors = row.visitors.size;
    const otherKey = key(row.dimensions.filter((_, i) => dims[i] !== 'goal'));
    const all = totals.get(otherKey)?.size ?? 0;
    const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
    result.set(k, {
      dimensions: row.dimensions,
      metrics: {
        visitors,
        pageviews: row.metrics.pageviews!,
        events: row.metrics.events!,
        revenue: row.metrics.revenue ?? null,
        sessions,
        bounce_rate: sessions ? round(bounces / sessions, 4) : 0,
        visit_duration: sessions ? round(duration / sessions / 1000, 1) : 0,
        views_per_visit: sessions ? round(views / sessions, 2) : 0,
        conversion_rate: all ? round(visitors / all, 4) : 0,
        percentage: allVisitors ? round(visitors / allVisitors, 4) : 0,
      },
    });
  }
  // Without dimensions there is always one row.
  if (dims.length === 0 && result.size === 0)
    result.set(key([]), {
      dimensions: [],
      metrics: {
        visitors: 0,
        pageviews: 0,
        events: 0,
        revenue: null,
        sessions: 0,
        bounce_rate: 0,
        visit_duration: 0,
        views_per_visit: 0,
        conversion_rate: 0,
        percentage: 0,
      },
    });
  return result;
}
