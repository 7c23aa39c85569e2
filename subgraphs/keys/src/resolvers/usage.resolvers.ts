import { badInput, forbidden } from '../../../../common/platform/errors';
import type { Resolvers } from '../generated/resolvers-types';

/** The facade's restore of usage counters Redis does not have (UsageLedger.restore). */
export const usageResolvers: Resolvers = {
  Mutation: {
    restoreUsage: async (_, args, ctx) => {
      if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'rest-facade')
        throw forbidden('Internal field');
      const at = new Date(args.at);
      if (Number.isNaN(at.getTime())) throw badInput('at must be an ISO 8601 instant');
      await ctx.deps.ledger.restore(args.organizationId, args.keyId, at);
      return true;
    },
  },
};
