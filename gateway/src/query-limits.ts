import { ApolloArmor } from '@escape.tech/graphql-armor';

/**
 * Limits on what one GraphQL document may ask of the supergraph (GraphQL Armor). API keys run
 * only the persisted operations, which are far below them; these bound what a dashboard token can
 * make the subgraphs do in one request (e.g. hundreds of aliased reads or mutations).
 */
export const QUERY_LIMITS = {
  maxAliases: 15,
  maxDepth: 8,
  maxCost: 5_000,
  maxTokens: 1_000,
  maxDirectives: 50,
} as const;

/**
 * Apollo Server options (validation rules, plugins, parse options) enforcing QUERY_LIMITS. The
 * token limit is graphql-js's own parse option rather than Armor's max-tokens plugin: that plugin
 * re-parses in a hook Apollo treats as a server failure, so every document that does not parse
 * got HTTP 500 (graphql-armor#751). Parsed by Apollo, it is a 400 GRAPHQL_PARSE_FAILED.
 */
export function queryLimits() {
  const armor = new ApolloArmor({
    maxAliases: { n: QUERY_LIMITS.maxAliases },
    maxDepth: { n: QUERY_LIMITS.maxDepth },
    costLimit: { maxCost: QUERY_LIMITS.maxCost },
    maxTokens: { enabled: false },
    maxDirectives: { n: QUERY_LIMITS.maxDirectives },
    // Its suggestion blocker misses enum values and leaves the names around a mistake; the
    // engine drops both where the schema is not published (schema-hints.ts).
    blockFieldSuggestion: { enabled: false },
  }).protect();
  return { ...armor, parseOptions: { maxTokens: QUERY_LIMITS.maxTokens } };
}
