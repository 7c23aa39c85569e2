import type { Request } from 'express';
import { toQueryInput, toRestQueryResult } from '../../../common/contracts/analytics-query';
import { invalidParameters, notJsonBody } from '../api-error';
import {
  AnalyticsBreakdownDocument,
  AnalyticsOverviewDocument,
  AnalyticsQueryDocument,
  AnalyticsTechnologyDocument,
  AnalyticsVisitorsDocument,
  ErrorGroupsDocument,
  HeatmapPagesDocument,
  ReplaySessionsDocument,
  type AnalyticsQueryInput,
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
  queryBodySchema,
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
  MAX_LIMIT,
  NO_QUERY,
  pagedQuery,
  parsePage,
  parseRange,
  RANGE_AND_LIMIT_QUERY,
  RANGE_QUERY,
  RANGE_VALUES,
  restRange,
  ROWS,
  type PageSize,
  type RestRange,
} from './query-parameters';
import { API_KEY_BODY_ERRORS, API_KEY_ERRORS, USAGE_HEADERS } from './responses';
import { apiKeyRoute, type ApiKeyRoute } from './route';
import { snakeKeys } from './snake-keys';
import type { z } from 'zod';

function queryInput(req: Request): AnalyticsQueryInput {
  // Otherwise `curl -d '{…}'` (form-encoded by default) would meet "metrics: expected array".
  if (!req.is('application/json')) throw notJsonBody();
  const parsed = queryBodySchema.safeParse(req.body);
  if (!parsed.success) {
    throw invalidParameters(
      parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
        .join('; '),
    );
  }
  const body = parsed.data;
  const custom = Array.isArray(body.date_range);
  return {
    ...toQueryInput(body, (message) => invalidParameters(message)),
    range: custom ? null : RANGE_VALUES[body.date_range as RestRange],
    from: custom ? body.date_range[0] : null,
    to: custom ? body.date_range[1] : null,
    limit: Math.min(body.limit, MAX_LIMIT),
    offset: body.offset,
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
    operation: AnalyticsQueryDocument,
    query: NO_QUERY,
    body: {
      schema: queryBodySchema,
      component: 'QueryRequest',
      mediaTypes: ['application/json'],
      example: QUERY_REQUEST_EXAMPLE,
      limit: '64kb',
    },
    variables: (req) => ({ websiteId: param(req, 'websiteId'), input: queryInput(req) }),
    present: (data) => {
      const { from, to, ...rest } = toRestQueryResult(websiteOf(data).query);
      return { ...snakeKeys(rest), date_range: { from, to } };
    },
    operationId: 'queryAnalytics',
    summary: 'Custom query: metrics, one dimension, filters, date range, order, paging',
    description: `Metrics for at most one dimension (a breakdown, or time by day or hour), with filters, a range value or custom dates, order and paging. The body is JSON, sent as application/json, at most 64 KiB; it is read after the key and the limits. ${COUNTED_CALL}`,
    response: ok('Query result', QueryResultSchema, QUERY_RESULT_EXAMPLE),
    errors: { ...API_KEY_ERRORS, ...API_KEY_BODY_ERRORS },
  }),
];
