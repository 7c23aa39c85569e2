import type { Request } from 'express';
import type { StatsQuery } from '../../../common/contracts/stats-query';
import { notJsonBody } from '../errors';
import {
  AnalyticsBreakdownDocument,
  AnalyticsOverviewDocument,
  AnalyticsStatsDocument,
  AnalyticsTechnologyDocument,
  AnalyticsVisitorsDocument,
  ErrorGroupsDocument,
  HeatmapPagesDocument,
  ReplaySessionsDocument,
  type AnalyticsStatsQuery,
  type BreakdownDimension,
} from '../generated/operations';
import {
  COUNTRIES_EXAMPLE,
  ERROR_GROUPS_EXAMPLE,
  HEATMAP_PAGES_EXAMPLE,
  OVERVIEW_EXAMPLE,
  PAGES_EXAMPLE,
  QUERY_REQUEST_EXAMPLE,
  QUERY_RESULT_EXAMPLE,
  REPLAY_SESSIONS_EXAMPLE,
  SOURCES_EXAMPLE,
  TECHNOLOGY_EXAMPLE,
  VISITORS_EXAMPLE,
} from '../openapi/examples';
import {
  AnalyticsOverviewSchema,
  CountryListSchema,
  ErrorGroupListSchema,
  HeatmapPageListSchema,
  PageListSchema,
  QueryResultSchema,
  ReplaySessionListSchema,
  SourceListSchema,
  TechnologySchema,
  VisitorListSchema,
} from './analytics.schema';
import { API_BASE, COUNTED_CALL, param, WEBSITE_PARAMS } from './common';
import { WEBSITE_ID } from './path-ids';
import {
  HEATMAP_PAGES,
  NO_QUERY,
  pagedQuery,
  parsePage,
  parseRange,
  RANGE_AND_LIMIT_QUERY,
  RANGE_QUERY,
  restRange,
  ROWS,
  type PageSize,
} from './query-parameters';
import { API_KEY_BODY_ERRORS, API_KEY_ERRORS, USAGE_HEADERS } from './responses';
import { apiKeyRoute, type ApiKeyRoute } from './route';
import { snakeKeys } from './snake-keys';
import { queryBodySchema, readQueryBody } from './query-body';
import type { z } from 'zod';

function statsQuery(req: Request): StatsQuery {
  // Otherwise `curl -d '{…}'` (form-encoded by default) would meet "metrics: expected array".
  if (!req.is('application/json')) throw notJsonBody();
  return readQueryBody(req.body);
}

type StatsAnswer = NonNullable<AnalyticsStatsQuery['website']>['stats'];

/** The REST answer of POST /query: rows, paging, the range, and what `include` asked for. */
function presentStats(stats: StatsAnswer) {
  const meta: Record<string, unknown> = {};
  if (stats.totalRows !== null && stats.totalRows !== undefined) meta.total_rows = stats.totalRows;
  if (stats.timeLabels) meta.time_labels = stats.timeLabels;
  if (stats.comparisonFrom && stats.comparisonTo)
    meta.comparison_date_range = { from: stats.comparisonFrom, to: stats.comparisonTo };
  return {
    metrics: stats.metrics,
    dimensions: stats.dimensions,
    results: stats.results.map((row) => ({
      dimensions: row.dimensions,
      metrics: row.metrics,
      ...(row.comparison ? { comparison: row.comparison } : {}),
    })),
    pagination: { limit: stats.limit, offset: stats.offset, has_more: stats.hasMore },
    date_range: { from: stats.from, to: stats.to },
    ...(Object.keys(meta).length > 0 ? { meta } : {}),
  };
}

/**
 * The website an analytics operation answered about. Null comes only with an error (unknown
 * website, no access), which is answered before any presenter runs.
 */
function websiteOf<W>(data: { website: W | null }): W {
  if (!data.website) throw new Error('the operation answered no website and no error');
  return data.website;
}

const withPage = (req: Request, size: PageSize = ROWS) => ({
  websiteId: param(req, 'websiteId'),
  range: parseRange(req),
  ...parsePage(req, size),
});

const PAGED_QUERY = pagedQuery();

/**
 * What every analytics route shares: a website, an API key with read_analytics, the errors, and
 * an answer that depends on that website's data.
 */
const analytics = {
  auth: 'apiKey',
  counted: true,
  permission: 'read_analytics',
  cache: 'website',
  params: WEBSITE_PARAMS,
  idParam: WEBSITE_ID,
  tag: 'Analytics',
  errors: API_KEY_ERRORS,
} as const;

const ok = (summary: string, schema: z.ZodType, example: unknown) => ({
  status: 200 as const,
  description: summary,
  schema,
  example,
  headers: USAGE_HEADERS,
});

/** A breakdown route: rows renamed after what the value is (`country`, `path`, …). */
function breakdownRoute(
  route: Pick<ApiKeyRoute, 'path' | 'operationId' | 'summary' | 'description'>,
  dimension: BreakdownDimension,
  listName: string,
  valueName: string,
  schema: z.ZodType,
  example: unknown,
): ApiKeyRoute {
  return apiKeyRoute({
    ...analytics,
    ...route,
    method: 'get',
    description: `${route.description} ${COUNTED_CALL}`,
    operation: AnalyticsBreakdownDocument,
    query: PAGED_QUERY,
    variables: (req) => ({ ...withPage(req), dimension }),
    present: (data) => {
      const { breakdown } = websiteOf(data);
      return {
        [listName]: breakdown.rows.map(({ value, ...rest }) =>
          snakeKeys({ [valueName]: value, ...rest }),
        ),
        pagination: snakeKeys(breakdown.pagination),
      };
    },
    response: ok(route.summary, schema, example),
  });
}

/** Analytics routes of the External API. Website access is checked by the keys subgraph. */
export const ANALYTICS_ROUTES: ApiKeyRoute[] = [
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/analytics/:websiteId`,
    operation: AnalyticsOverviewDocument,
    query: RANGE_QUERY,
    variables: (req) => ({ websiteId: param(req, 'websiteId'), range: parseRange(req) }),
    present: (data) => {
      const { id, overview } = websiteOf(data);
      const { series, range, ...rest } = overview;
      return {
        website_id: id,
        range: restRange(range),
        ...snakeKeys(rest),
        daily_stats: snakeKeys(series),
      };
    },
    operationId: 'getAnalyticsOverview',
    summary: 'Summary and one entry per day (per hour for 24h)',
    description: `Totals of the range (visits, page views, unique visitors, sessions, bounce rate, visit duration) and one zero-filled entry per bucket in daily_stats, in one call: no paging through visitor records. ${COUNTED_CALL}`,
    response: ok(
      'Summary and one entry per day (per hour for 24h)',
      AnalyticsOverviewSchema,
      OVERVIEW_EXAMPLE,
    ),
  }),
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/analytics/:websiteId/visitors`,
    operation: AnalyticsVisitorsDocument,
    query: PAGED_QUERY,
    variables: withPage,
    present: (data) => snakeKeys(websiteOf(data).visitors),
    operationId: 'listVisitors',
    summary: 'Visitors active in the range, in first-seen order (stable for paging)',
    description: `Visitors with any event in the range. Paged by limit and offset: continue with offset + limit until pagination.has_more is false. ${COUNTED_CALL}`,
    response: ok(
      'Visitors active in the range, in first-seen order (stable for paging)',
      VisitorListSchema,
      VISITORS_EXAMPLE,
    ),
  }),
  breakdownRoute(
    {
      path: `${API_BASE}/analytics/:websiteId/countries`,
      operationId: 'listCountries',
      summary: 'Countries, most visitors first',
      description:
        'Visitors, page views, sessions, bounce rate and visit duration per country (ISO 3166-1 alpha-2), paged by limit and offset.',
    },
    'COUNTRY',
    'countries',
    'country',
    CountryListSchema,
    COUNTRIES_EXAMPLE,
  ),
  breakdownRoute(
    {
      path: `${API_BASE}/analytics/:websiteId/pages`,
      operationId: 'listPages',
      summary: 'Pages, most visitors first',
      description:
        'The same figures per page path (without query string); sessions counts the visits that entered on the page.',
    },
    'PAGE',
    'pages',
    'path',
    PageListSchema,
    PAGES_EXAMPLE,
  ),
  breakdownRoute(
    {
      path: `${API_BASE}/analytics/:websiteId/sources`,
      operationId: 'listSources',
      summary: 'Traffic sources, most visitors first',
      description:
        'The same figures per traffic source: utm_source, else the referrer host; "direct" when there is none or it is internal.',
    },
    'SOURCE',
    'sources',
    'source',
    SourceListSchema,
    SOURCES_EXAMPLE,
  ),
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/analytics/:websiteId/technology`,
    operation: AnalyticsTechnologyDocument,
    query: RANGE_AND_LIMIT_QUERY,
    variables: (req) => ({
      websiteId: param(req, 'websiteId'),
      range: parseRange(req),
      limit: parsePage(req).limit,
    }),
    present: (data) => snakeKeys(websiteOf(data).technology),
    operationId: 'getTechnology',
    summary: 'Devices, browsers and operating systems (limit rows each)',
    description: `Visitors, page views and sessions per device type, browser and operating system, most visitors first; each list holds at most limit rows. ${COUNTED_CALL}`,
    response: ok(
      'Devices, browsers and operating systems (limit rows each)',
      TechnologySchema,
      TECHNOLOGY_EXAMPLE,
    ),
  }),
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/heatmaps/:websiteId/pages`,
    operation: HeatmapPagesDocument,
    query: pagedQuery(HEATMAP_PAGES, 'Heatmap pages (each with up to 100 cells)'),
    variables: (req) => withPage(req, HEATMAP_PAGES),
    present: (data) => {
      const { pages, pagination } = websiteOf(data).heatmapPages;
      // The engine sends cells as [x, y, clicks] triples; the REST body keeps them objects.
      return {
        pages: pages.map(({ cells, ...page }) => ({
          ...page,
          cells: cells.map(([x, y, clicks]) => ({ x, y, clicks })),
        })),
        pagination: snakeKeys(pagination),
      };
    },
    operationId: 'listHeatmapPages',
    summary: 'Pages with clicks, most clicked first',
    description: `Pages clicked in the range, each with its busiest cells: x is the whole percent of the viewport width, y the 50 px band from the top of the document. ${COUNTED_CALL}`,
    response: ok(
      'Pages with clicks, most clicked first',
      HeatmapPageListSchema,
      HEATMAP_PAGES_EXAMPLE,
    ),
  }),
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/replays/:websiteId/sessions`,
    operation: ReplaySessionsDocument,
    query: PAGED_QUERY,
    variables: withPage,
    present: (data) => snakeKeys(websiteOf(data).replaySessions),
    operationId: 'listReplaySessions',
    summary: 'Recorded sessions, newest first',
    description: `Sessions the tracking script recorded with activity in the range, with their size, entry page and the visitor’s device. ${COUNTED_CALL}`,
    response: ok(
      'Recorded sessions, newest first',
      ReplaySessionListSchema,
      REPLAY_SESSIONS_EXAMPLE,
    ),
  }),
  apiKeyRoute({
    ...analytics,
    method: 'get',
    path: `${API_BASE}/errors/:websiteId/groups`,
    operation: ErrorGroupsDocument,
    query: PAGED_QUERY,
    variables: withPage,
    present: (data) => snakeKeys(websiteOf(data).errorGroups),
    operationId: 'listErrorGroups',
    summary: 'JavaScript error groups, most frequent in the range first',
    description: `JavaScript errors grouped by message and first stack frame, with their occurrences and affected visitors in the range and their occurrences ever. ${COUNTED_CALL}`,
    response: ok(
      'JavaScript error groups, most frequent in the range first',
      ErrorGroupListSchema,
      ERROR_GROUPS_EXAMPLE,
    ),
  }),
  apiKeyRoute({
    ...analytics,
    method: 'post',
    path: `${API_BASE}/query/:websiteId`,
    operation: AnalyticsStatsDocument,
    query: NO_QUERY,
    body: {
      schema: queryBodySchema,
      component: 'QueryRequest',
      mediaTypes: ['application/json'],
      example: QUERY_REQUEST_EXAMPLE,
      limit: '64kb',
    },
    variables: (req) => ({ websiteId: param(req, 'websiteId'), query: statsQuery(req) }),
    present: (data) => presentStats(websiteOf(data).stats),
    operationId: 'queryAnalytics',
    summary: 'Event-level query: metrics by any dimensions, nested filters, goals, comparisons',
    description: `Metrics of every event of a date range by up to four dimensions (pages, entry and exit pages, sources, UTM parameters, countries, devices, browsers, OS, event names and properties, goals, time buckets), with nested filters (is, contains, matches and their negations; and, or, not), comparisons with another period, total rows and time labels, order and paging (docs/analytics.md, "POST /query/:websiteId"). The body is JSON, sent as application/json, at most 64 KiB; it is read after the key and the limits. ${COUNTED_CALL}`,
    response: ok('Query result', QueryResultSchema, QUERY_RESULT_EXAMPLE),
    errors: { ...API_KEY_ERRORS, ...API_KEY_BODY_ERRORS },
  }),
];
