import { forbidden } from '../../../../common/platform/errors';
import type { Resolvers } from '../generated/resolvers-types';
import { lower, upper } from './enum-values';

/** A website's goals: read by whoever may read the website, managed by its organization's admins. */
export const goalResolvers: Resolvers = {
  Website: {
    // Also reached by entity reference (analytics requires the goals), so checked here.
    goals: async (website, _, ctx) => {
      if (!(await ctx.deps.access.mayRead(ctx.identity, website)))
        throw forbidden('The caller has no access to this website');
      return ctx.loaders.goals.load(website.id);
    },
  },
  Goal: {
    kind: (goal) => upper(goal.kind),
    createdAt: (goal) => goal.createdAt.toISOString(),
  },
  Mutation: {
    createGoal: async (_, { input }, ctx) => {
      const website = await ctx.deps.access.websiteToManage(ctx.identity, input.websiteId);
      return ctx.deps.goals.create(website.id, { ...input, kind: lower(input.kind) });
    },
    deleteGoal: async (_, args, ctx) => {
      const website = await ctx.deps.access.websiteToManage(ctx.identity, args.websiteId);
      await ctx.deps.goals.delete(website.id, args.id);
      return true;
    },
  },
};
