/**
 * POST /query's whole answer recounted from the raw, enriched events: the events become event rows
 * with visits worked out here (docs/analytics.md, "Sessions"), test/support/stats-recount.ts counts
 * them, and this orders, fills and pages the rows as docs/analytics.md, "POST /query/:websiteId" says.
 * Only the request's parsing is the facade's (readQueryBody); nothing of the analytics subgraph.
 */
import type { CollectedEvent } from '../../common/contracts/collected-event';
import {
  isTimeDimension,
  type StatsDateRange,
  type StatsQuery,
} from '../../common/contracts/stats-query';
import type { EventRow } from '../../subgraphs/analytics/src/engine/event-rows';
import { readQueryBody } from '../../rest-facade/src/routes/query-body';
import { recount } from './stats-recount';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A visit ends after 30 minutes without a page view (a gap of exactly 30 minutes goes on). */
const VISIT_TIMEOUT_MS = 30 * 60 * 1000;

type Extras = {
  hostname?: string;
  utm?: Record<'source' | 'medium' | 'campaign' | 'content' | 'term', string | null> | null;
  revenue?: { amount: string; currency: string } | null;
};

/**
 * A website's page views and custom events as event rows, in the order they were appended: a page
 * view more than 30 minutes after the visitor's previous one starts a visit; a custom event belongs
 * to the visit whose last page view is at most 30 minutes before it, else to none.
 */
export function statsRowsOf(events: readonly CollectedEvent[], websiteId: string): EventRow[] {
  const ids = new Map<string, bigint>();
  const idOf = (key: string) => {
    if (!ids.has(key)) ids.set(key, BigInt(ids.size + 1));
    return ids.get(key)!;
  };
  const visits = new Map<string, { id: bigint; last: number; entry: string; source: string }>();
  const rows: EventRow[] = [];
  events.forEach((event, n) => {
    if (event.websiteId !== websiteId) return;
    if (event.type !== 'pageview' && event.type !== 'event') return;
    const visitorKey = `${event.websiteId}|${event.visitorId}`;
    let visit = visits.get(visitorKey);
    const within = visit !== undefined && event.ts - visit.last <= VISIT_TIMEOUT_MS;
    if (event.type === 'pageview') {
      if (!within) {
        visit = {
          id: idOf(`${visitorKey}|${event.ts}`),
          last: event.ts,
          entry: event.path,
          source: event.source,
        };
        visits.set(visitorKey, visit);
      }
      visit!.last = event.ts;
    }
    const current = event.type === 'pageview' || within ? visit! : null;
    const extras = event as CollectedEvent & Extras;
    const revenue = event.type === 'event' ? (extras.revenue ?? null) : null;
    rows.push({
      id: event.eventId ?? String(n),
      ts: event.ts,
      visitor: idOf(visitorKey),
      visit: current?.id ?? null,
      type: event.type,
      name: event.type === 'event' ? event.name : null,
      page: event.path,
      entryPage: current?.entry ?? null,
      hostname: extras.hostname ?? null,
      source: current?.source ?? null,
      referrer: event.type === 'pageview' ? event.referrer : null,
      utmSource: extras.utm?.source ?? null,
      utmMedium: extras.utm?.medium ?? null,
      utmCampaign: extras.utm?.campaign ?? null,
      utmContent: extras.utm?.content ?? null,
      utmTerm: extras.utm?.term ?? null,
      country: event.country,
      device: event.device,
      browser: event.browser,
      os: event.os,
      props:
        event.type === 'event' && event.props
          ? Object.entries(event.props).map(([name, value]) => [name, String(value)])
          : [],
      revenueAmount: revenue?.amount ?? null,
      revenueCurrency: revenue?.currency ?? null,
    });
  });
  return rows;
}

/** [from, to) of a date range asked at `now`: 24h is the 24 hours up to the end of this hour. */
function spanOf(range: StatsDateRange, now: number): { from: number; to: number } {
  if ('last24h' in range) {
    const to = now - (now % HOUR_MS) + HOUR_MS;
    return { from: to - 24 * HOUR_MS, to };
  }
  return {
    from: Date.parse(`${range.from}T00:00:00Z`),
    to: Date.parse(`${range.to}T00:00:00Z`) + DAY_MS,
  };
}

function timeLabels(dimension: string, from: number, to: number): string[] {
  const labels = new Set<string>();
  const step = dimension === 'time:hour' ? HOUR_MS : DAY_MS;
  for (let t = dimension === 'time:hour' ? from : from - (from % DAY_MS); t < to; t += step) {
    const date = new Date(t).toISOString();
    if (dimension === 'time:hour') labels.add(`${date.slice(0, 13)}:00:00Z`);
    else if (dimension === 'time:day') labels.add(date.slice(0, 10));
    else if (dimension === 'time:month') labels.add(`${date.slice(0, 7)}-01`);
    else {
      const day = Math.floor(t / DAY_MS);
      const monday = day - ((new Date(t).getUTCDay() + 6) % 7);
      labels.add(new Date(monday * DAY_MS).toISOString().slice(0, 10));
    }
  }
  return [...labels];
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Nulls last whatever the direction. */
function compareMetric(a: number | null, b: number | null, direction: 'asc' | 'desc'): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return direction === 'asc' ? a - b : b - a;
}

/** The `data` POST /query answers for `body` asked at `now` over the website's rows. */
export function expectedStats(rows: readonly EventRow[], body: unknown, now: number) {
  const query: StatsQuery = readQueryBody(body, now);
  const { from, to } = spanOf(query.dateRange, now);
  const counted = [...recount(rows, query, from, to, []).values()].map((row) => ({
    dimensions: row.dimensions,
    metrics: query.metrics.map((m) => row.metrics[m] ?? null),
  }));
  const timeAt = query.dimensions.findIndex(isTimeDimension);
  const order =
    query.orderBy.length > 0
      ? query.orderBy
      : timeAt >= 0
        ? [{ field: query.dimensions[timeAt]!, direction: 'asc' as const }]
        : [{ field: query.metrics[0]!, direction: 'desc' as const }];
  counted.sort((a, b) => {
    for (const { field, direction } of order) {
      const dim = query.dimensions.indexOf(field as StatsQuery['dimensions'][number]);
      const diff =
        dim >= 0
          ? compareText(a.dimensions[dim]!, b.dimensions[dim]!) * (direction === 'asc' ? 1 : -1)
          : compareMetric(
              a.metrics[query.metrics.indexOf(field as StatsQuery['metrics'][number])]!,
              b.metrics[query.metrics.indexOf(field as StatsQuery['metrics'][number])]!,
              direction,
            );
      if (diff !== 0) return diff;
    }
    for (let i = 0; i < query.dimensions.length; i += 1) {
      const diff = compareText(a.dimensions[i]!, b.dimensions[i]!);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  const series =
    query.dimensions.length === 1 &&
    timeAt === 0 &&
    query.orderBy.length === 0 &&
    query.offset === 0;
  const all = series
    ? timeLabels(query.dimensions[0]!, from, to).map(
        (label) =>
          counted.find((row) => row.dimensions[0] === label) ?? {
            dimensions: [label],
            metrics: query.metrics.map((m) => (m === 'revenue' ? null : 0)),
          },
      )
    : counted;
  const meta: Record<string, unknown> = {};
  if (query.include.totalRows) meta.total_rows = all.length;
  if (query.include.timeLabels && timeAt >= 0)
    meta.time_labels = timeLabels(query.dimensions[timeAt]!, from, to);
  return {
    metrics: query.metrics,
    dimensions: query.dimensions,
    results: all.slice(query.offset, query.offset + query.limit),
    pagination: {
      limit: query.limit,
      offset: query.offset,
      has_more: all.length > query.offset + query.limit,
    },
    date_range: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    ...(Object.keys(meta).length > 0 ? { meta } : {}),
  };
}
