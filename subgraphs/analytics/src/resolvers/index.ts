import { MAX_LIMIT } from '../../../../common/contracts/page-size';
import { statsQuerySchema, type StatsQuery } from '../../../../common/contracts/stats-query';
import { GraphQLScalarType } from 'graphql';
import { badInput, forbidden, unauthenticated } from '../../../../common/platform/errors';
import type { CallerIdentity } from '../../../../common/contracts/identity';
import type { AnalyticsContext } from '../context';
import type { Resolvers } from '../generated/resolvers-types';
import type { Page } from '../services/stats.service';
import type { GoalDefinition } from '../engine/stats-sql';
import type { WebsiteRef } from './parents';

/**
 * Website access is decided by the keys subgraph, which owns memberships: every figure requires
 * its `readableByCaller` verdict for the caller, whatever path led to the website. Here the key's
 * permission is checked as well.
 */
export function assertCanReadAnalytics(identity: CallerIdentity, website: WebsiteRef): void {
  if (website.readableByCaller !== true)
    throw forbidden('The caller has no access to this website');
  if (identity.kind === 'accessToken') return;
  if (identity.kind === 'apiKey') {
    if (!identity.permissions.includes('read_analytics'))
      throw forbidden('This API key lacks the read analytics data permission');
    return;
  }
  if (identity.kind === 'anonymous') throw unauthenticated();
  throw forbidden('Analytics are read by users and API keys only');
}

function pageOf(args: { limit: number; offset: number }): Page {
  if (!Number.isInteger(args.limit) || args.limit < 1)
    throw badInput('limit must be a positive integer');
  if (!Number.isInteger(args.offset) || args.offset < 0)
    throw badInput('offset must be a non-negative integer');
  return { limit: Math.min(args.limit, MAX_LIMIT), offset: args.offset };
}

/** The website's goals as the engine takes them. */
function goalDefinitions(website: WebsiteRef): GoalDefinition[] {
  return (website.goals ?? []).map((goal) => ({
    name: goal.name,
    kind: goal.kind === 'PAGE' ? 'page' : 'event',
    pagePath: goal.pagePath ?? null,
    eventName: goal.eventName ?? null,
    currency: goal.currency ?? null,
  }));
}

/** Checks permission, then runs the read. */
const guarded =
  <Args, Result>(
    read: (website: WebsiteRef, args: Args, ctx: AnalyticsContext) => Promise<Result>,
  ) =>
  (website: WebsiteRef, args: Args, ctx: AnalyticsContext) => {
    assertCanReadAnalytics(ctx.identity, website);
    return read(website, args, ctx);
  };

/** Input only: a StatsQuery, checked against the contract's schema. */
const StatsQueryScalar = new GraphQLScalarType({
  name: 'StatsQuery',
  serialize: () => {
    throw badInput('StatsQuery is an input type');
  },
  parseValue: (value) => {
    const parsed = statsQuerySchema.safeParse(value);
    if (!parsed.success)
      throw badInput(
        `query: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    return parsed.data;
  },
  parseLiteral: () => {
    throw badInput('StatsQuery is passed as a variable');
  },
});

/** Output only: `[x, y, clicks]` triples (schema.graphql). */
const HeatmapCells = new GraphQLScalarType({
  name: 'HeatmapCells',
  serialize: (value) => value,
  parseValue: () => {
    throw badInput('HeatmapCells is an output type');
  },
  parseLiteral: () => {
    throw badInput('HeatmapCells is an output type');
  },
});

export const analyticsResolvers: Resolvers = {
  HeatmapCells,
  StatsQuery: StatsQueryScalar,
  Website: {
    // The representation carries the `@requires` fields besides the key.
    __resolveReference: (ref: WebsiteRef) => ({
      id: ref.id,
      readableByCaller: ref.readableByCaller,
      goals: ref.goals,
    }),
    totalPageviews: guarded((w, _, ctx) => ctx.loaders.pageviews.load(w.id)),
    overview: guarded((w, args, ctx) => ctx.deps.stats.overview(w.id, args.range)),
    visitors: guarded((w, args, ctx) => ctx.deps.stats.visitors(w.id, args.range, pageOf(args))),
    breakdown: guarded((w, args, ctx) =>
      ctx.deps.stats.breakdown(w.id, args.dimension, args.range, pageOf(args)),
    ),
    technology: guarded((w, args, ctx) =>
      ctx.deps.stats.technology(w.id, args.range, pageOf({ limit: args.limit, offset: 0 }).limit),
    ),
    heatmapPages: guarded((w, args, ctx) =>
      ctx.deps.stats.heatmapPages(w.id, args.range, pageOf(args)),
    ),
    replaySessions: guarded((w, args, ctx) =>
      ctx.deps.stats.replaySessions(w.id, args.range, pageOf(args)),
    ),
    errorGroups: guarded((w, args, ctx) =>
      ctx.deps.stats.errorGroups(w.id, args.range, pageOf(args)),
    ),
    stats: guarded((w, args, ctx) =>
      ctx.deps.statsQuery.run(w.id, args.query as StatsQuery, goalDefinitions(w)),
    ),
  },
};
