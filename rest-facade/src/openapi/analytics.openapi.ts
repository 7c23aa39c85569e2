/**
 * OpenAPI 3.1 path items and component schemas of the analytics routes and the public routes
 * (collection, tracking script, live visitors). Request-body schemas are generated from the same
 * zod schemas that validate the requests, so the document cannot drift from the code.
 */
import { COLLECT_BODY_LIMIT_BYTES, collectPayloadSchema } from '../collect/collect.schema';
import { COLLECT_RETRY_AFTER_SECONDS } from '../collect/collected-event.writer';
import { NOT_COUNTED_REASONS } from '../collect/collector.service';
import { COLLECT_EVENTS_PER_MINUTE, LIVE_REQUESTS_PER_MINUTE } from '../collect/public.router';
import {
  HEATMAP_PAGES,
  ROWS,
  type PageSize,
  DEFAULT_LIMIT,
  DEFAULT_RANGE,
  MAX_LIMIT,
  MAX_OFFSET,
  queryBodySchema,
  RANGE_VALUES,
} from '../routes/analytics.routes';
import {
  BODY_ERRORS,
  COUNTED_CALL,
  errorContent,
  responseRef,
  STANDARD_ERRORS,
  successContent,
  successResponse,
  websiteIdParameter,
} from './core.openapi';
import {
  COLLECT_REQUEST_EXAMPLE,
  COUNTRIES_EXAMPLE,
  ERROR_GROUPS_EXAMPLE,
  HEATMAP_PAGES_EXAMPLE,
  LIVE_VISITORS_EXAMPLE,
  OVERVIEW_EXAMPLE,
  PAGES_EXAMPLE,
  QUERY_REQUEST_EXAMPLE,
  QUERY_RESULT_EXAMPLE,
  REPLAY_SESSIONS_EXAMPLE,
  SOURCES_EXAMPLE,
  TECHNOLOGY_EXAMPLE,
  TRACKER_SCRIPT_EXAMPLE,
  VISITORS_EXAMPLE,
} from './examples';
import { jsonSchemaOf } from './json-schema';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const API = '/api/external/v1';
const int = { type: 'integer', minimum: 0 };
const nullableString = { type: ['string', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };

const object = (properties: Record<string, unknown>, description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});

const rangeParameters = [
  {
    name: 'range',
    in: 'query',
    required: false,
    description: `Time window ending now. Default ${DEFAULT_RANGE}. 24h is read in hour buckets (heatmaps, error groups and custom-event breakdowns, kept per UTC day, read the two UTC days the last 24 hours touch), the others in whole UTC days including today. Breakdown visitors are distinct per bucket (hour or day) and summed.`,
    schema: { type: 'string', enum: Object.keys(RANGE_VALUES), default: DEFAULT_RANGE },
  },
  {
    name: 'timeRange',
    in: 'query',
    required: false,
    description: 'Alias of range (used by polling clients). When both are sent they must agree.',
    schema: { type: 'string', enum: Object.keys(RANGE_VALUES) },
  },
];
const limitParameter = (size: PageSize, rows = 'Rows') => ({
  name: 'limit',
  in: 'query',
  required: false,
  description: `${rows} per page, default ${size.defaultLimit}; any value above ${size.maxLimit} is clamped to ${size.maxLimit}. 0, negative, non-integer or empty: 400.`,
  schema: { type: 'integer', minimum: 1, default: size.defaultLimit },
});
const pageParameters = [
  limitParameter(ROWS),
  {
    name: 'offset',
    in: 'query',
    required: false,
    description: `Rows to skip, default 0, at most ${MAX_OFFSET}. Continue with offset + limit until has_more is false. Negative, non-integer, empty or above the maximum: 400.`,
    schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 },
  },
];

const breakdownRow = (valueName: string, description: string) =>
  object({
    [valueName]: {
      type: 'string',
      description: `${description}. "(other)" holds every value past the first 1,000 distinct values of a website in a UTC day.`,
    },
    visitors: { ...int, description: 'Distinct visitors per bucket, summed' },
    pageviews: int,
    sessions: { ...int, description: 'Visits that started with this value (entry page for pages)' },
    bounce_rate: { type: 'number', minimum: 0, maximum: 1 },
    avg_visit_duration: { type: 'number', minimum: 0, description: 'Seconds' },
  });

/** `schema` with a description added to each property named in `descriptions`. */
function withPropertyDescriptions(
  schema: Record<string, unknown>,
  descriptions: Record<string, string>,
): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        descriptions[name] ? { ...property, description: descriptions[name] } : property,
      ]),
    ),
  };
}

const list = (name: string, item: Record<string, unknown>) =>
  object({ [name]: { type: 'array', items: item }, pagination: ref('Pagination') });

export const ANALYTICS_SCHEMAS = {
  Pagination: object({
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
    offset: int,
    has_more: { type: 'boolean' },
  }),
  AnalyticsSummary: object({
    total_visitors: { ...int, description: 'Visits (sessions) in the range' },
    pageviews: int,
    unique_visitors: {
      ...int,
      description:
        'Distinct visitor ids. They rotate at 00:00 UTC (privacy), so a person counts once per UTC day: over several days once per day, and over 24h twice if active on both sides of midnight.',
    },
    sessions: int,
    bounce_rate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'Share of sessions with one page view',
    },
    avg_visit_duration: { type: 'number', minimum: 0, description: 'Seconds per session' },
  }),
  DailyStat: object({
    date: {
      ...dateTime,
      description: 'Start of the bucket (UTC): a day, or an hour for range=24h',
    },
    pageviews: int,
    visitors: int,
    sessions: int,
    bounces: int,
  }),
  AnalyticsOverview: object({
    website_id: { type: 'string' },
    range: { type: 'string', enum: Object.keys(RANGE_VALUES) },
    granularity: { type: 'string', enum: ['hour', 'day'] },
    from: dateTime,
    to: { ...dateTime, description: 'End of the last bucket (exclusive)' },
    summary: ref('AnalyticsSummary'),
    daily_stats: {
      type: 'array',
      items: ref('DailyStat'),
      description:
        'One zero-filled entry per bucket, oldest first: 24 hours for 24h, else 7, 30, 90 or 365 days',
    },
  }),
  Visitor: object({
    id: { type: 'string' },
    country: { ...nullableString, description: 'ISO 3166-1 alpha-2, null when unknown' },
    device: { type: ['string', 'null'], enum: ['desktop', 'mobile', 'tablet', 'other', null] },
    browser: nullableString,
    os: nullableString,
    first_seen: dateTime,
    last_seen: {
      ...dateTime,
      description:
        'Latest event of any kind (page view, click, custom event, error, replay chunk); the range filter uses it.',
    },
    pageviews: int,
    sessions: int,
    entry_page: nullableString,
    last_page: nullableString,
  }),
  VisitorList: list('visitors', ref('Visitor')),
  CountryList: list('countries', breakdownRow('country', 'ISO 3166-1 alpha-2, or "unknown"')),
  PageList: list('pages', breakdownRow('path', 'Page path without query string')),
  SourceList: list(
    'sources',
    breakdownRow('source', 'utm_source, else the referrer host; "direct" when none or internal'),
  ),
  TechnologyRow: object({
    value: { type: 'string' },
    visitors: int,
    pageviews: int,
    sessions: int,
  }),
  Technology: object({
    devices: {
      type: 'array',
      items: ref('TechnologyRow'),
      description: 'desktop, mobile, tablet, other',
    },
    browsers: { type: 'array', items: ref('TechnologyRow') },
    operating_systems: { type: 'array', items: ref('TechnologyRow') },
  }),
  HeatmapPage: object({
    path: { type: 'string' },
    clicks: int,
    visitors: int,
    cells: {
      type: 'array',
      description:
        'Busiest cells first (at most 100): x = whole percent of the viewport width (0–99), y = 50px band of the document from the top (band 400 collects every click below 20,000 px)',
      items: object({ x: { type: 'integer', minimum: 0, maximum: 99 }, y: int, clicks: int }),
    },
  }),
  HeatmapPageList: list('pages', ref('HeatmapPage')),
  ReplaySession: object({
    id: { type: 'string', description: 'Session id chosen by the recorder' },
    visitor_id: { type: 'string' },
    started_at: dateTime,
    last_activity: dateTime,
    chunks: int,
    bytes: int,
    entry_page: { type: 'string' },
    country: nullableString,
    device: nullableString,
    browser: nullableString,
    os: nullableString,
  }),
  ReplaySessionList: list('sessions', ref('ReplaySession')),
  ErrorGroup: object({
    fingerprint: { type: 'string', description: 'Hash of the message and the first stack frame' },
    message: { type: 'string' },
    stack: nullableString,
    occurrences: { ...int, description: 'In the range' },
    affected_visitors: { ...int, description: 'In the range (distinct per day, summed)' },
    total_occurrences: { ...int, description: 'Ever' },
    first_seen: dateTime,
    last_seen: dateTime,
    last_page: nullableString,
  }),
  ErrorGroupList: list('groups', ref('ErrorGroup')),
  QueryRequest: withPropertyDescriptions(
    {
      ...jsonSchemaOf(queryBodySchema),
      description: 'A custom query (modelled on Plausible Stats API v2).',
    },
    {
      metrics:
        'Each at most once: visitors, pageviews, sessions, bounce_rate, visit_duration, events.',
      dimensions:
        'At most one of country, page, source, device, browser, os, event, time:day, time:hour (time:hour needs date_range "24h"). None: one row of totals.',
      filters:
        'Each filter is [operator, dimension, values], in this order. All filters must name the same dimension, and with a breakdown dimension, that one.',
      date_range:
        'A range value, or [from, to]: UTC dates, inclusive, at most 366 days, between 1970-01-01 and 9999-12-30.',
      order_by:
        'Each entry is [metric or the dimension, "asc" or "desc"], in this order. Default: the first metric descending (time ascending).',
      limit: `Rows per page, default ${DEFAULT_LIMIT}; any value above ${MAX_LIMIT} is clamped to ${MAX_LIMIT}.`,
      offset: 'Rows to skip, default 0. Continue with offset + limit until has_more is false.',
    },
  ),
  QueryResult: object({
    metrics: { type: 'array', items: { type: 'string' } },
    dimensions: { type: 'array', items: { type: 'string' } },
    results: {
      type: 'array',
      items: object({
        dimensions: { type: 'array', items: { type: 'string' } },
        metrics: { type: 'array', items: { type: 'number' } },
      }),
    },
    pagination: ref('Pagination'),
    date_range: object({ from: dateTime, to: { ...dateTime, description: 'Exclusive' } }),
  }),
  CollectRequest: {
    ...jsonSchemaOf(collectPayloadSchema),
    description: `One event. Sent as text/plain (sendBeacon, no preflight) or application/json, at most ${COLLECT_BODY_LIMIT_BYTES} bytes. Unknown fields are refused.`,
  },
  CollectAccepted: {
    description:
      'Whether the event is counted. When it is not, nothing is stored and `reason` says why.',
    oneOf: [
      object({ accepted: { const: true } }),
      object({
        accepted: { const: false },
        reason: {
          type: 'string',
          enum: NOT_COUNTED_REASONS,
          description:
            'no_user_agent: the request has no User-Agent. bot: its User-Agent is a known bot, crawler or HTTP client (isbot: Googlebot, curl, python-requests…), not a browser.',
        },
      }),
    ],
  },
  LiveVisitors: object({
    tracking_code: { type: 'string' },
    visitors: { ...int, description: 'Distinct visitors with any event in the window' },
    window_seconds: { const: 300 },
  }),
};

const analyticsGet = (
  operationId: string,
  summary: string,
  description: string,
  data: string,
  example: unknown,
  parameters: unknown[],
) => ({
  get: {
    operationId,
    summary,
    description: `${description} ${COUNTED_CALL}`,
    tags: ['Analytics'],
    parameters: [websiteIdParameter, ...parameters],
    responses: { '200': successResponse(summary, ref(data), example), ...STANDARD_ERRORS },
  },
});

/** An error of a public (key-less) route: the envelope, without usage headers. */
const publicError = (
  description: string,
  codes: readonly string[],
  headers?: Record<string, unknown>,
) => ({
  description,
  ...(headers ? { headers } : {}),
  content: errorContent('EnvelopeError', codes),
});
const retryAfter = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };
const cors = { 'Access-Control-Allow-Origin': { schema: { const: '*' } } };
const trackingCodeParameter = {
  name: 'trackingCode',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'Tracking code of the website (the data-tracking-code of its script tag)',
};

export const ANALYTICS_PATHS = {
  [`${API}/analytics/{websiteId}`]: analyticsGet(
    'getAnalyticsOverview',
    'Summary and one entry per day (per hour for 24h)',
    'Totals of the range (visits, page views, unique visitors, sessions, bounce rate, visit duration) and one zero-filled entry per bucket in daily_stats, in one call: no paging through visitor records.',
    'AnalyticsOverview',
    OVERVIEW_EXAMPLE,
    rangeParameters,
  ),
  [`${API}/analytics/{websiteId}/visitors`]: analyticsGet(
    'listVisitors',
    'Visitors active in the range, in first-seen order (stable for paging)',
    'Visitors with any event in the range. Paged by limit and offset: continue with offset + limit until pagination.has_more is false.',
    'VisitorList',
    VISITORS_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/countries`]: analyticsGet(
    'listCountries',
    'Countries, most visitors first',
    'Visitors, page views, sessions, bounce rate and visit duration per country (ISO 3166-1 alpha-2), paged by limit and offset.',
    'CountryList',
    COUNTRIES_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/pages`]: analyticsGet(
    'listPages',
    'Pages, most visitors first',
    'The same figures per page path (without query string); sessions counts the visits that entered on the page.',
    'PageList',
    PAGES_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/sources`]: analyticsGet(
    'listSources',
    'Traffic sources, most visitors first',
    'The same figures per traffic source: utm_source, else the referrer host; "direct" when there is none or it is internal.',
    'SourceList',
    SOURCES_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/technology`]: analyticsGet(
    'getTechnology',
    'Devices, browsers and operating systems (limit rows each)',
    'Visitors, page views and sessions per device type, browser and operating system, most visitors first; each list holds at most limit rows.',
    'Technology',
    TECHNOLOGY_EXAMPLE,
    [...rangeParameters, pageParameters[0]],
  ),
  [`${API}/heatmaps/{websiteId}/pages`]: analyticsGet(
    'listHeatmapPages',
    'Pages with clicks, most clicked first',
    'Pages clicked in the range, each with its busiest cells: x is the whole percent of the viewport width, y the 50 px band from the top of the document.',
    'HeatmapPageList',
    HEATMAP_PAGES_EXAMPLE,
    [
      ...rangeParameters,
      limitParameter(HEATMAP_PAGES, 'Heatmap pages (each with up to 100 cells)'),
      pageParameters[1]!,
    ],
  ),
  [`${API}/replays/{websiteId}/sessions`]: analyticsGet(
    'listReplaySessions',
    'Recorded sessions, newest first',
    'Sessions the tracking script recorded with activity in the range, with their size, entry page and the visitor’s device.',
    'ReplaySessionList',
    REPLAY_SESSIONS_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/errors/{websiteId}/groups`]: analyticsGet(
    'listErrorGroups',
    'JavaScript error groups, most frequent in the range first',
    'JavaScript errors grouped by message and first stack frame, with their occurrences and affected visitors in the range and their occurrences ever.',
    'ErrorGroupList',
    ERROR_GROUPS_EXAMPLE,
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/query/{websiteId}`]: {
    post: {
      operationId: 'queryAnalytics',
      summary: 'Custom query: metrics, one dimension, filters, date range, order, paging',
      description: `Metrics for at most one dimension (a breakdown, or time by day or hour), with filters, a range value or custom dates, order and paging. The body is JSON, sent as application/json, at most 64 KiB; it is read after the key and the limits. ${COUNTED_CALL}`,
      tags: ['Analytics'],
      parameters: [websiteIdParameter],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: ref('QueryRequest'), example: QUERY_REQUEST_EXAMPLE },
        },
      },
      responses: {
        '200': successResponse('Query result', ref('QueryResult'), QUERY_RESULT_EXAMPLE),
        ...STANDARD_ERRORS,
        ...BODY_ERRORS,
      },
    },
  },
  '/api/collect': {
    post: {
      operationId: 'collectEvent',
      summary: 'Collect one event from the tracking script (public, identified by tracking code)',
      description: `Called by the tracking script, without a key: one event (page view, custom event, click, error or replay chunk) of the website with this tracking code. Sent as text/plain (navigator.sendBeacon, no CORS preflight) or application/json. At most ${COLLECT_EVENTS_PER_MINUTE} events per minute per IP.`,
      tags: ['Public'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'text/plain': { schema: ref('CollectRequest'), example: COLLECT_REQUEST_EXAMPLE },
          'application/json': { schema: ref('CollectRequest'), example: COLLECT_REQUEST_EXAMPLE },
        },
      },
      responses: {
        '202': {
          description:
            'Accepted: queued and applied within milliseconds, or not counted (a bot, or no User-Agent) with the reason',
          headers: cors,
          content: {
            'application/json': { schema: ref('CollectAccepted'), example: { accepted: true } },
          },
        },
        '400': publicError(
          'invalid_json (the body is not JSON, or its bytes do not match their Content-Encoding or length) or invalid_parameters (the message lists every problem); nothing is stored',
          ['invalid_json', 'invalid_parameters'],
        ),
        '404': publicError('unknown_tracking_code', ['unknown_tracking_code']),
        '405': responseRef('MethodNotAllowed'),
        '413': publicError(
          `payload_too_large: the body exceeds ${COLLECT_BODY_LIMIT_BYTES} bytes`,
          ['payload_too_large'],
        ),
        '415': publicError(
          'unsupported_media_type: the body is in a Content-Encoding or charset the server does not read',
          ['unsupported_media_type'],
        ),
        '429': publicError(
          `RATE_LIMIT_EXCEEDED: more than ${COLLECT_EVENTS_PER_MINUTE} events per minute from one IP`,
          ['RATE_LIMIT_EXCEEDED'],
          retryAfter,
        ),
        '503': publicError(
          "service_unavailable; nothing stored. With Retry-After: Redis cannot take events and this instance already holds as many as it may (COLLECT_BUFFER_EVENTS; until then events are held and answered 202), or it cannot reach Redis for the day's salt. Without: the tracking code is not cached and its website cannot be looked up.",
          ['service_unavailable'],
          {
            'Retry-After': {
              description: `Seconds to wait before sending again (${COLLECT_RETRY_AFTER_SECONDS}).`,
              schema: { type: 'integer', minimum: 1 },
            },
          },
        ),
      },
    },
    options: {
      operationId: 'collectPreflight',
      summary: 'CORS preflight: any origin',
      description:
        'The CORS answer for POST /api/collect, to any origin: fetch with application/json asks for it, sendBeacon with text/plain does not.',
      tags: ['Public'],
      security: [],
      responses: { '204': { description: 'CORS headers', headers: cors } },
    },
  },
  '/tracker.js': {
    get: {
      operationId: 'getTrackerScript',
      summary:
        'The tracking script: <script defer src="{base_url}/tracker.js" data-tracking-code="…">',
      description:
        'The script a website embeds to be tracked; it sends its events to POST /api/collect. Public, served to any origin.',
      tags: ['Public'],
      security: [],
      responses: {
        '200': {
          description: 'JavaScript, cacheable for an hour',
          headers: cors,
          content: {
            'application/javascript': {
              schema: { type: 'string' },
              example: TRACKER_SCRIPT_EXAMPLE,
            },
          },
        },
        '405': responseRef('MethodNotAllowed'),
      },
    },
  },
  '/live/{trackingCode}': {
    get: {
      operationId: 'getLiveVisitors',
      summary: 'Visitors active in the last 5 minutes (public; no key)',
      description: `Distinct visitors with any event in the last 5 minutes on the website with this tracking code. Public: no key, not counted, readable from any origin; at most ${LIVE_REQUESTS_PER_MINUTE} requests per minute per IP.`,
      tags: ['Public'],
      security: [],
      parameters: [trackingCodeParameter],
      responses: {
        '200': {
          description: 'Live visitor count; Cache-Control: public, max-age=10',
          headers: { ...cors, 'Cache-Control': { schema: { type: 'string' } } },
          content: successContent(ref('LiveVisitors'), LIVE_VISITORS_EXAMPLE),
        },
        '400': publicError('invalid_parameters: the tracking code is not valid percent-encoding', [
          'invalid_parameters',
        ]),
        '404': publicError('unknown_tracking_code', ['unknown_tracking_code']),
        '405': responseRef('MethodNotAllowed'),
        '429': publicError(
          `RATE_LIMIT_EXCEEDED: more than ${LIVE_REQUESTS_PER_MINUTE} requests per minute from one IP`,
          ['RATE_LIMIT_EXCEEDED'],
          retryAfter,
        ),
        '503': publicError(
          'service_unavailable: the presence counts (Redis) or, for a tracking code not cached, the website lookup cannot be reached; retry shortly',
          ['service_unavailable'],
        ),
      },
    },
    options: {
      operationId: 'livePreflight',
      summary: 'CORS preflight: any origin (the methods allowed: GET, HEAD, OPTIONS)',
      description: 'The CORS answer for GET /live/{trackingCode}, to any origin.',
      tags: ['Public'],
      security: [],
      parameters: [trackingCodeParameter],
      responses: { '204': { description: 'CORS headers', headers: cors } },
    },
  },
};
