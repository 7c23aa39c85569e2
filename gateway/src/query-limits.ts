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

/** Apollo Server options (validation rules and plugins) enforcing QUERY_LIMITS. */
export function queryLimits(options: { suggestFields: boolean }) {
  return new ApolloArmor({
    maxAliases: { n: QUERY_LIMITS.maxAliases },
    maxDepth: { n: QUERY_LIMITS.maxDepth },
    costLimit: { maxCost: QUERY_LIMITS.maxCost },
    maxTokens: { n: QUERY_LIMITS.maxTokens },
    maxDirectives: { n: QUERY_LIMITS.maxDirectives },
    // "Did you mean …?" helps in the schema explorer and maps the schema for anyone else.
    blockFieldSuggestion: { enabled: !options.suggestFields },
  }).protect();
}
