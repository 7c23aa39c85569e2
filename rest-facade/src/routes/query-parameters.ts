import type { Request } from 'express';
import { z } from 'zod';
import { invalidParameters } from '../errors';
import { MAX_LIMIT } from '../../../common/contracts/page-size';

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
const RANGES = Object.keys(RANGE_VALUES) as [RestRange, ...RestRange[]];
export const DEFAULT_RANGE: RestRange = '7d';
export const DEFAULT_LIMIT = 100;
export const MAX_OFFSET = 2_000_000_000;

/** How many rows a page holds unless asked, and at most. */
export interface PageSize {
  defaultLimit: number;
  maxLimit: number;
}
export const ROWS: PageSize = { defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT };
/** Heatmap pages come with up to 100 cells each: ten a page unless asked, a hundred at most. */
export const HEATMAP_PAGES: PageSize = { defaultLimit: 10, maxLimit: 100 };

/*
 * The query schemas below are what a route declares: the names it accepts (in this order, which
 * is also the order of a refusal's hint) and their documentation. The values are read by the
 * parse functions further down, not by zod: the messages clients see ("limit must be an integer
 * (got \"1.5\")", a repeated parameter, range and timeRange disagreeing) are part of the contract
 * and zod's coercion cannot keep them (an empty value would become 0, "1.5" a number).
 */

const range = z
  .enum(RANGES)
  .default(DEFAULT_RANGE)
  .optional()
  .meta({
    param: {
      description: `Time window ending now. Default ${DEFAULT_RANGE}. 24h is read in hour buckets (heatmaps, error groups and custom-event breakdowns, kept per UTC day, read the two UTC days the last 24 hours touch), the others in whole UTC days including today. Breakdown visitors are distinct per bucket (hour or day) and summed.`,
    },
  });
const timeRange = z
  .enum(RANGES)
  .optional()
  .meta({
    param: {
      description: 'Alias of range (used by polling clients). When both are sent they must agree.',
    },
  });
const limit = (size: PageSize, rows = 'Rows') =>
  z
    .number()
    .int()
    .min(1)
    .default(size.defaultLimit)
    .optional()
    .meta({
      param: {
        description: `${rows} per page, default ${size.defaultLimit}; any value above ${size.maxLimit} is clamped to ${size.maxLimit}. 0, negative, non-integer or empty: 400.`,
      },
    });
const offset = z
  .number()
  .int()
  .min(0)
  .max(MAX_OFFSET)
  .default(0)
  .optional()
  .meta({
    param: {
      description: `Rows to skip, default 0, at most ${MAX_OFFSET}. Continue with offset + limit until has_more is false. Negative, non-integer, empty or above the maximum: 400.`,
    },
  });

export type QuerySchema = z.ZodObject;

/** No query parameter at all. */
export const NO_QUERY = z.object({});
/** `range` (or `timeRange`), read by parseRange. */
export const RANGE_QUERY = z.object({ range, timeRange });
/** A range and one page of rows, read by parseRange and parsePage. */
export const pagedQuery = (size: PageSize = ROWS, rows?: string) =>
  z.object({ range, timeRange, limit: limit(size, rows), offset });
/** A range and a row count without paging, read by parseRange and parsePage's limit. */
export const RANGE_AND_LIMIT_QUERY = z.object({ range, timeRange, limit: limit(ROWS) });

/** The names a query schema accepts, in its order. */
export const acceptedNames = (schema: QuerySchema): readonly string[] => Object.keys(schema.shape);

/** A parameter's one value; a repeated or nested one is refused. */
export function single(req: Request, name: string): string | undefined {
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
      `range must be one of ${RANGES.join(', ')} (got ${JSON.stringify(value)})`,
    );
  return RANGE_VALUES[value as RestRange];
}

export const restRange = (graphqlRange: unknown): string =>
  Object.entries(RANGE_VALUES).find(([, v]) => v === graphqlRange)?.[0] ?? String(graphqlRange);

/** An integer parameter; absent gives the fallback, present but empty is refused like any non-integer. */
export function integer(req: Request, name: string, fallback: number, min: number): number {
  const raw = single(req, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw))
    throw invalidParameters(`${name} must be an integer (got ${JSON.stringify(raw)})`);
  const value = Number(raw);
  if (value < min) throw invalidParameters(`${name} must be at least ${min} (got ${raw})`);
  return value;
}

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

/**
 * Refuses query parameters a route does not accept. A misspelt filter (`ragne=30d`) would
 * otherwise fall back to the default without a word, and the caller would trust the wrong data.
 */
export function rejectUnknownQueryParameters(req: Request, accepted: readonly string[]): void {
  const unknown = Object.keys(req.query as Record<string, unknown>).filter(
    (name) => !accepted.includes(name),
  );
  if (unknown.length === 0) return;
  const names = unknown.map((name) => JSON.stringify(name)).join(', ');
  const hint =
    accepted.length > 0
      ? `this endpoint accepts ${accepted.join(', ')}`
      : 'this endpoint takes none';
  throw invalidParameters(
    `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}; ${hint}`,
    { unknown, accepted },
  );
}
