import type { Request } from 'express';
import { z } from 'zod';
import { invalidParameters, notJsonBody } from '../api-error';
import type { RouteDefinition } from './route-definition';
import {
  MAX_LIMIT,
  QUERY_DIMENSIONS,
  QUERY_METRICS,
  TIME_DIMENSIONS,
} from '../../../common/analytics-query';

export { MAX_LIMIT };

/** REST range values and the GraphQL enum each stands for. */
export const RANGE_VALUES = {
  '24h': 'LAST_24_HOURS',
  '7d': 'LAST_7_DAYS',
  '30d': 'LAST_30_DAYS',
  '90d': 'LAST_90_DAYS',
  '1y': 'LAST_YEAR',
} as const;
export type RestRange = keyof typeof RANGE_VALUES;
export const DEFAULT_RANGE: RestRange = '7d';
export const DEFAULT_LIMIT = 100;
export const MAX_OFFSET = 2_000_000_000;
const RANGE_QUERY = ['range', 'timeRange'] as const;
const PAGED_QUERY = [...RANGE_QUERY, 'limit', 'offset'] as const;

function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw invalidParameters(`${name} must be given once, as a plain value`);
  return value;
}

/** `range`, or its alias `timeRange` (used by the spec's polling example); default 7d. */
export function parseRange(req: Request): (typeof RANGE_VALUES)[RestRange] {
  const range = single(req, 'range');
  const alias = single(req, 'timeRange');
  if (range !== undefined && alias !== undefined && range !== alias)
    throw invalidParameters('range and timeRange disagree; send one of them');
  const value = range ?? alias ?? DEFAULT_RANGE;
  if (!Object.hasOwn(RANGE_VALUES, value))
    throw invalidParameters(
      `range must be one of ${Object.keys(RANGE_VALUES).join(', ')} (got ${JSON.stringify(value)})`,
    );
  return RANGE_VALUES[value as RestRange];
}

export const restRange = (graphqlRange: unknown): string =>
  Object.entries(RANGE_VALUES).find(([, v]) => v === graphqlRange)?.[0] ?? String(graphqlRange);

/** An integer parameter; absent gives the fallback, present but empty is refused like any non-integer. */
function integer(req: Request, name: string, fallback: number, min: number): number {
  const raw = single(req, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw))
    throw invalidParameters(`${name} must be an integer (got ${JSON.stringify(raw)})`);
  const value = Number(raw);
  if (value < min) throw invalidParameters(`${name} must be at least ${min} (got ${raw})`);
  return value;
}

/** How many rows a page holds unless asked, and at most. */
export interface PageSize {
  defaultLimit: number;
  maxLimit: number;
}
export const ROWS: PageSize = { defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT };
/** Heatmap pages come with up to 100 cells each: ten a page unless asked, a hundred at most. */
export const HEATMAP_PAGES: PageSize = { defaultLimit: 10, maxLimit: 100 };

/**
 * limit (default 100, any larger value clamped to 1000, or the route's own) and offset (default
 * 0, at most 2e9).
 */
export function parsePage(req: Request, size: PageSize = ROWS): { limit: number; offset: number } {
  const limit = Math.min(integer(req, 'limit', size.defaultLimit, 1), size.maxLimit);
  const offset = integer(req, 'offset', 0, 0);
  if (offset > MAX_OFFSET) throw invalidParameters(`offset must be at most ${MAX_OFFSET}`);
  return { limit, offset };
}

/** Field names are few and repeat in every row: each is converted once. */
const snakeNames = new Map<string, string>();
const snake = (key: string) => {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 1_000) snakeNames.set(key, name);
  }
  return name;
};

/** GraphQL's camelCase field names become the REST API's snake_case, at every depth. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const key in value)
      result[snake(key)] = snakeKeys((value as Record<string, unknown>)[key]);
    return result;
  }
  return value;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

/** The body of POST /query/:websiteId (modelled on Plausible's Stats API v2); published as JSON Schema. */
export const queryBodySchema = z
  .object({
    metrics: z.array(z.enum(QUERY_METRICS)).min(1).max(QUERY_METRICS.length),
    dimensions: z
      .array(z.enum([...QUERY_DIMENSIONS, ...TIME_DIMENSIONS]))
      .max(1)
      .default([]),
    filters: z
      .array(
        z.tuple([
          z.enum(['is', 'is_not', 'contains']),
          z.enum(QUERY_DIMENSIONS),
          z.array(z.string().min(1).max(500)).min(1).max(100),
        ]),
      )
      .max(20)
      .default([]),
    date_range: z
      .union([z.enum(['24h', '7d', '30d', '90d', '1y']), z.tuple([isoDate, isoDate])], {
        error: 'must be one of "24h", "7d", "30d", "90d", "1y", or ["YYYY-MM-DD", "YYYY-MM-DD"]',
      })
      .default('7d'),
    order_by: z
      .array(z.tuple([z.string().min(1), z.enum(['asc', 'desc'])]))
      .max(3)
      .default([]),
    limit: z.number().int().min(1).default(DEFAULT_LIMIT),
    offset: z.number().int().min(0).max(MAX_OFFSET).default(0),
  })
  .strict();

function queryInput(req: Request) {
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
    metrics: body.metrics,
    dimensions: body.dimensions,
    filters: body.filters.map(([operator, dimension, values]) => ({
      operator: operator.toUpperCase(),
      dimension,
      values,
    })),
    range: custom ? null : RANGE_VALUES[body.date_range as RestRange],
    from: custom ? body.date_range[0] : null,
    to: custom ? body.date_range[1] : null,
    orderBy: body.order_by.map(([field, direction]) => ({
      field,
      direction: direction.toUpperCase(),
    })),
    limit: Math.min(body.limit, MAX_LIMIT),
    offset: body.offset,
  };
}

const websiteId = (req: Request) => String(req.params.websiteId);
type Website<K extends string> = { website: Record<K, Record<string, unknown>> };
const field = <K extends string>(data: Record<string, unknown>, key: K) =>
  (data as Website<K>).website[key];

const withPage = (req: Request, size: PageSize = ROWS) => ({
  websiteId: websiteId(req),
  range: parseRange(req),
  ...parsePage(req, size),
});

/** A breakdown route: rows renamed after what the value is (`country`, `path`, …). */
function breakdownRoute(
  path: string,
  dimension: string,
  listName: string,
  valueName: string,
): RouteDefinition {
  return {
    method: 'get',
    path,
    operation: 'AnalyticsBreakdown',
    query: PAGED_QUERY,
    permission: 'read_analytics',
    variables: (req) => ({ ...withPage(req), dimension }),
    present: (data) => {
      const breakdown = field(data, 'breakdown') as {
        rows: Array<Record<string, unknown>>;
        pagination: unknown;
      };
      return {
        [listName]: breakdown.rows.map(({ value, ...rest }) =>
          snakeKeys({ [valueName]: value, ...rest }),
        ),
        pagination: snakeKeys(breakdown.pagination),
      };
    },
  };
}

/** Analytics routes of the External API. Website access is checked by the keys subgraph. */
export const ANALYTICS_ROUTES: RouteDefinition[] = [
  {
    method: 'get',
    path: '/analytics/:websiteId',
    operation: 'AnalyticsOverview',
    query: RANGE_QUERY,
    permission: 'read_analytics',
    variables: (req) => ({ websiteId: websiteId(req), range: parseRange(req) }),
    present: (data) => {
      const overview = field(data, 'overview') as { range: string; series: unknown[] } & Record<
        string,
        unknown
      >;
      const { series, range, ...rest } = overview;
      return {
        website_id: (data as Website<'id'>).website.id,
        range: restRange(range),
        ...(snakeKeys(rest) as object),
        daily_stats: snakeKeys(series),
      };
    },
  },
  {
    method: 'get',
    path: '/analytics/:websiteId/visitors',
    operation: 'AnalyticsVisitors',
    query: PAGED_QUERY,
    permission: 'read_analytics',
    variables: withPage,
    present: (data) => snakeKeys(field(data, 'visitors')),
  },
  breakdownRoute('/analytics/:websiteId/countries', 'COUNTRY', 'countries', 'country'),
  breakdownRoute('/analytics/:websiteId/pages', 'PAGE', 'pages', 'path'),
  breakdownRoute('/analytics/:websiteId/sources', 'SOURCE', 'sources', 'source'),
  {
    method: 'get',
    path: '/analytics/:websiteId/technology',
    operation: 'AnalyticsTechnology',
    query: [...RANGE_QUERY, 'limit'],
    permission: 'read_analytics',
    variables: (req) => ({
      websiteId: websiteId(req),
      range: parseRange(req),
      limit: parsePage(req).limit,
    }),
    present: (data) => snakeKeys(field(data, 'technology')),
  },
  {
    method: 'get',
    path: '/heatmaps/:websiteId/pages',
    operation: 'HeatmapPages',
    query: PAGED_QUERY,
    permission: 'read_analytics',
    variables: (req) => withPage(req, HEATMAP_PAGES),
    present: (data) => {
      const { pages, pagination } = field(data, 'heatmapPages') as {
        pages: Array<{ cells: Array<[number, number, number]> }>;
        pagination: unknown;
      };
      // The engine sends cells as [x, y, clicks] triples; the REST body keeps them objects.
      return {
        pages: pages.map(({ cells, ...page }) => ({
          ...page,
          cells: cells.map(([x, y, clicks]) => ({ x, y, clicks })),
        })),
        pagination: snakeKeys(pagination),
      };
    },
  },
  {
    method: 'get',
    path: '/replays/:websiteId/sessions',
    operation: 'ReplaySessions',
    query: PAGED_QUERY,
    permission: 'read_analytics',
    variables: withPage,
    present: (data) => snakeKeys(field(data, 'replaySessions')),
  },
  {
    method: 'get',
    path: '/errors/:websiteId/groups',
    operation: 'ErrorGroups',
    query: PAGED_QUERY,
    permission: 'read_analytics',
    variables: withPage,
    present: (data) => snakeKeys(field(data, 'errorGroups')),
  },
  {
    method: 'post',
    path: '/query/:websiteId',
    operation: 'AnalyticsQuery',
    query: [],
    permission: 'read_analytics',
    variables: (req) => ({ websiteId: websiteId(req), input: queryInput(req) }),
    present: (data) => {
      const { from, to, ...rest } = field(data, 'query');
      return { ...(snakeKeys(rest) as object), date_range: { from, to } };
    },
  },
];
