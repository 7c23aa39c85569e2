/**
 * A website's goals: what counts as a conversion. The keys subgraph stores them (website
 * configuration); analytics reads them through the supergraph (`Website.goals`) and matches
 * events against them with `pagePathMatcher`, so both sides share one meaning of a pattern.
 */
export const GOAL_KINDS = ['page', 'event'] as const;
export type GoalKind = (typeof GOAL_KINDS)[number];

/** Goals per website; the analytics engine evaluates every goal for every event it counts. */
export const MAX_GOALS_PER_WEBSITE = 100;
export const MAX_GOAL_NAME_LENGTH = 120;
/** The collector keeps at most this much of a page's path (docs/analytics.md): longer never matches. */
export const MAX_GOAL_PAGE_PATH_LENGTH = 512;
/** The collector refuses longer custom event names (rest-facade/src/collect/collect.schema.ts). */
export const MAX_GOAL_EVENT_NAME_LENGTH = 100;

/** A goal as the supergraph hands it on (the keys subgraph's `Goal` type). */
export interface GoalDefinition {
  kind: GoalKind;
  /** Page goals: the path pattern. */
  pagePath: string | null;
  /** Event goals: the custom event's name, compared exactly. */
  eventName: string | null;
  /** Event goals: the ISO 4217 code of the revenue the event carries, upper case. */
  currency: string | null;
}

/**
 * Whether a recorded page path (as the collector stores it: the URL's path, percent-encoded, no
 * query string or fragment) matches a page goal's pattern. The whole path must match; `*` stands
 * for any run of characters, `/` included, and every other character for itself (Plausible's
 * page goals): `/blog/*` matches `/blog/a` and `/blog/a/b` but not `/blog`, `/blog*` all three.
 */
export function pagePathMatcher(pattern: string): (path: string) => boolean {
  const source = pattern
    .split('*')
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  const regex = new RegExp(`^${source}$`, 's');
  return (path) => regex.test(path);
}
