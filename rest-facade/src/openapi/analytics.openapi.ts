/**
 * OpenAPI 3.1 path items and component schemas of the analytics routes and the public routes
 * (collection, tracking script, live visitors). Request-body schemas are generated from the same
 * zod schemas that validate the requests, so the document cannot drift from the code.
 */
import { z } from 'zod';
import { COLLECT_BODY_LIMIT_BYTES, collectPayloadSchema } from '../collect/collect.schema';
import { COLLECT_RETRY_AFTER_SECONDS } from '../collect/collected-event.writer';
import { NOT_COUNTED_REASONS } from '../collect/collector.service';
import { COLLECT_EVENTS_PER_MINUTE, LIVE_REQUESTS_PER_MINUTE } from '../collect/public.router';
import {
  HEATMAP_PAGES,
  ROWS,
  type PageSize,
  DEFAULT_RANGE,
  MAX_LIMIT,
  MAX_OFFSET,
  queryBodySchema,
  RANGE_VALUES,
} from '../routes/analytics.routes';
import {
  BODY_ERRORS,
  responseRef,
  STANDARD_ERRORS,
  successResponse,
  websiteIdParameter,
} from './core.openapi';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const API = '/api/external/v1';
const int = { type: 'integer', minimum: 0 };
const nullableString = { type: ['string', 'null'] };
const dateTime = { type: 'string', format: 'date-time' };

/** Generated JSON Schema minus `$schema` (the document's dialect already is 2020-12). */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

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
  QueryRequest: {
    ...jsonSchemaOf(queryBodySchema),
    description:
      'A custom query (modelled on Plausible Stats API v2). metrics: visitors, pageviews, sessions, bounce_rate, visit_duration, events. dimensions: at most one of country, page, source, device, browser, os, event, time:day, time:hour (time:hour needs date_range "24h"). filters: [operator, dimension, values]; all filters must name the same dimension, and with a breakdown dimension, that one. date_range: a range value or [from, to] UTC dates, inclusive, at most 366 days, between 1970-01-01 and 9999-12-30. order_by: [[metric or the dimension, asc|desc]]; default: first metric descending (time ascending). limit clamped to 1000.',
  },
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
  data: string,
  parameters: unknown[],
) => ({
  get: {
    operationId,
    summary,
    tags: ['Analytics'],
    parameters: [websiteIdParameter, ...parameters],
    responses: { '200': successResponse(summary, ref(data)), ...STANDARD_ERRORS },
  },
});

const publicError = {
  description: 'Error',
  content: { 'application/json': { schema: ref('EnvelopeError') } },
};
const cors = { 'Access-Control-Allow-Origin': { schema: { const: '*' } } };

export const ANALYTICS_PATHS = {
  [`${API}/analytics/{websiteId}`]: analyticsGet(
    'getAnalyticsOverview',
    'Summary and one entry per day (per hour for 24h)',
    'AnalyticsOverview',
    rangeParameters,
  ),
  [`${API}/analytics/{websiteId}/visitors`]: analyticsGet(
    'listVisitors',
    'Visitors active in the range, in first-seen order (stable for paging)',
    'VisitorList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/countries`]: analyticsGet(
    'listCountries',
    'Countries, most visitors first',
    'CountryList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/pages`]: analyticsGet(
    'listPages',
    'Pages, most visitors first',
    'PageList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/sources`]: analyticsGet(
    'listSources',
    'Traffic sources, most visitors first',
    'SourceList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/analytics/{websiteId}/technology`]: analyticsGet(
    'getTechnology',
    'Devices, browsers and operating systems (limit rows each)',
    'Technology',
    [...rangeParameters, pageParameters[0]],
  ),
  [`${API}/heatmaps/{websiteId}/pages`]: analyticsGet(
    'listHeatmapPages',
    'Pages with clicks, most clicked first',
    'HeatmapPageList',
    [
      ...rangeParameters,
      limitParameter(HEATMAP_PAGES, 'Heatmap pages (each with up to 100 cells)'),
      pageParameters[1]!,
    ],
  ),
  [`${API}/replays/{websiteId}/sessions`]: analyticsGet(
    'listReplaySessions',
    'Recorded sessions, newest first',
    'ReplaySessionList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/errors/{websiteId}/groups`]: analyticsGet(
    'listErrorGroups',
    'JavaScript error groups, most frequent in the range first',
    'ErrorGroupList',
    [...rangeParameters, ...pageParameters],
  ),
  [`${API}/query/{websiteId}`]: {
    post: {
      operationId: 'queryAnalytics',
      summary: 'Custom query: metrics, one dimension, filters, date range, order, paging',
      tags: ['Analytics'],
      parameters: [websiteIdParameter],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref('QueryRequest') } },
      },
      responses: {
        '200': successResponse('Query result', ref('QueryResult')),
        ...STANDARD_ERRORS,
        ...BODY_ERRORS,
      },
    },
  },
  '/api/collect': {
    post: {
      operationId: 'collectEvent',
      summary: 'Collect one event from the tracking script (public, identified by tracking code)',
      tags: ['Public'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'text/plain': { schema: ref('CollectRequest') },
          'application/json': { schema: ref('CollectRequest') },
        },
      },
      responses: {
        '202': {
          description:
            'Accepted: queued and applied within milliseconds, or not counted (a bot, or no User-Agent) with the reason',
          headers: cors,
          content: { 'application/json': { schema: ref('CollectAccepted') } },
        },
        '400': {
          ...publicError,
          description:
            'invalid_json or invalid_parameters (the message lists every problem); nothing is stored',
        },
        '404': { ...publicError, description: 'unknown_tracking_code' },
        '405': responseRef('MethodNotAllowed'),
        '413': { ...publicError, description: 'payload_too_large' },
        '429': {
          ...publicError,
          description: `RATE_LIMIT_EXCEEDED: more than ${COLLECT_EVENTS_PER_MINUTE} events per minute from one IP`,
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        },
        '503': {
          ...publicError,
          description:
            "service_unavailable; nothing stored. With Retry-After: Redis cannot take events and this instance already holds as many as it may (COLLECT_BUFFER_EVENTS; until then events are held and answered 202), or it cannot reach Redis for the day's salt. Without: the tracking code is not cached and its website cannot be looked up.",
          headers: {
            'Retry-After': {
              description: `Seconds to wait before sending again (${COLLECT_RETRY_AFTER_SECONDS}).`,
              schema: { type: 'integer', minimum: 1 },
            },
          },
        },
      },
    },
    options: {
      operationId: 'collectPreflight',
      summary: 'CORS preflight: any origin',
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
      tags: ['Public'],
      security: [],
      responses: {
        '200': {
          description: 'JavaScript, cacheable for an hour',
          headers: cors,
          content: { 'application/javascript': { schema: { type: 'string' } } },
        },
        '405': responseRef('MethodNotAllowed'),
      },
    },
  },
  '/live/{trackingCode}': {
    get: {
      operationId: 'getLiveVisitors',
      summary: 'Visitors active in the last 5 minutes (public; no key)',
      tags: ['Public'],
      security: [],
      parameters: [
        { name: 'trackingCode', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          ...successResponse(
            'Live visitor count; Cache-Control: public, max-age=10',
            ref('LiveVisitors'),
          ),
          headers: { ...cors, 'Cache-Control': { schema: { type: 'string' } } },
        },
        '404': { ...publicError, description: 'unknown_tracking_code' },
        '405': responseRef('MethodNotAllowed'),
        '429': {
          ...publicError,
          description: `RATE_LIMIT_EXCEEDED: more than ${LIVE_REQUESTS_PER_MINUTE} requests per minute from one IP`,
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        },
        '503': {
          ...publicError,
          description:
            'service_unavailable: the presence counts (Redis) or, for a tracking code not cached, the website lookup cannot be reached; retry shortly',
        },
      },
    },
    options: {
      operationId: 'livePreflight',
      summary: 'CORS preflight: any origin (the methods allowed: GET, HEAD, OPTIONS)',
      tags: ['Public'],
      security: [],
      parameters: [
        { name: 'trackingCode', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: { '204': { description: 'CORS headers', headers: cors } },
    },
  },
};
