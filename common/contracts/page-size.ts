/**
 * The most rows one page of a list holds (visitors, breakdowns, heatmap pages, replays, error
 * groups): larger `limit`s are clamped to it by the facade and, for the gateway's other callers,
 * by the analytics subgraph. POST /query pages by its own bound (stats-query.ts, MAX_QUERY_LIMIT).
 */
export const MAX_LIMIT = 1000;

/** A page of a webhook's deliveries: twenty unless asked, a hundred at most. */
export const DELIVERY_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;
