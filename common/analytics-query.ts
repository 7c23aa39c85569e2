/** The vocabulary of POST /query/:websiteId, shared by the facade (validation) and the analytics subgraph (execution). */
export const QUERY_METRICS = [
  'visitors',
  'pageviews',
  'sessions',
  'bounce_rate',
  'visit_duration',
  'events',
] as const;
export const QUERY_DIMENSIONS = [
  'country',
  'page',
  'source',
  'device',
  'browser',
  'os',
  'event',
] as const;
export const TIME_DIMENSIONS = ['time:day', 'time:hour'] as const;

/**
 * The most rows one page of a list holds (visitors, breakdowns, query results): larger `limit`s
 * are clamped to it by the facade and, for the gateway's other callers, by the analytics subgraph.
 */
export const MAX_LIMIT = 1000;
