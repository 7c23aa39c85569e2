import { badInput, forbidden, notFound, unauthenticated } from '../../../../common/platform/errors';
import { parseIsoInstant } from '../../../../common/platform/iso-instant';
import type { KeysContext } from '../context';
import type { CreateApiKeyInput, Resolvers } from '../generated/resolvers-types';
import type { ApiKeyView, Expiration } from '../services/credential.service';
import { SESSION_TOKEN_NAME } from '../services/sign-in.service';
import { lower } from './enum-values';

/** undefined for an explicit null: the service's default, as when omitted. */
function expirationOf(input: CreateApiKeyInput): Expiration | undefined {
  if (input.expiresAt && input.expiration !== 'CUSTOM')
    throw badInput('expiresAt goes only with expiration CUSTOM');
  switch (input.expiration) {
    case 'NEVER':
      return 'never';
    case 'NINETY_DAYS':
      return '90d';
    case 'ONE_YEAR':
      return '1y';
    case 'CUSTOM': {
      if (!input.expiresAt) throw badInput('CUSTOM expiration needs expiresAt');
      const expiresAt = parseIsoInstant(input.expiresAt);
      if (!expiresAt)
        throw badInput(
          'expiresAt is not an ISO 8601 date or date-time with offset (e.g. 2027-03-01T00:00:00Z)',
        );
      return expiresAt;
    }
  }
}

const optionalDate = (value: string | null | undefined, name: string) => {
  if (!value) return null;
  const date = parseIsoInstant(value);
  if (!date) throw badInput(`${name} is not an ISO 8601 date or date-time with offset`);
  return date;
};

/** Sign-in links and sessions are handed out by the gateway's sign-in endpoints only. */
function assertGateway(ctx: KeysContext): void {
  if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'gateway')
    throw forbidden('Internal field');
}

async function loadKey(ctx: KeysContext, id: string): Promise<ApiKeyView> {
  const key = await ctx.loaders.apiKey.load(id);
  if (!key) throw notFound('API key');
  return key;
}

/** The dashboard's key lifecycle: create (the only answer with the value), regenerate, delete. */
export const keyManagementResolvers: Resolvers = {
  Query: {
    apiKey: async (_, args, ctx) => {
      const key = await loadKey(ctx, args.id);
      await ctx.deps.keyPolicy.assertCanRead(ctx.identity, key);
      return key;
    },
  },
  Mutation: {
    createApiKey: async (_, { input }, ctx) => {
      const userId = await ctx.deps.keyPolicy.assertCanCreate(ctx.identity, input.organizationId);
      return ctx.deps.credentials.createApiKey({
        organizationId: input.organizationId,
        userId,
        name: input.name,
        description: input.description ?? null,
        permissions: input.permissions ? input.permissions.map(lower) : undefined,
        websiteIds: input.websiteIds ?? null,
        expiration: expirationOf(input),
      });
    },
    regenerateApiKey: async (_, args, ctx) => {
      await ctx.deps.keyPolicy.assertCanManage(ctx.identity, await loadKey(ctx, args.id));
      return ctx.deps.credentials.regenerateApiKey(args.id);
    },
    deleteApiKey: async (_, args, ctx) => {
      await ctx.deps.keyPolicy.assertCanManage(ctx.identity, await loadKey(ctx, args.id));
      await ctx.deps.credentials.deleteApiKey(args.id);
      return true;
    },
    createAccessToken: async (_, args, ctx) => {
      if (ctx.identity.kind !== 'accessToken')
        throw unauthenticated('Access tokens are created with an access token or the admin CLI');
      const created = await ctx.deps.credentials.createAccessToken(
        ctx.identity.userId,
        args.name,
        ctx.identity.tokenId,
      );
      return {
        token: created.token,
        accessToken: {
          id: created.id,
          name: args.name,
          prefix: created.prefix,
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
          revokedAt: null,
          expiresAt: null,
        },
      };
    },
    issueLoginLink: (_, args, ctx) => {
      assertGateway(ctx);
      return ctx.deps.signIn.issueLink(args.email);
    },
    redeemLoginLink: async (_, args, ctx) => {
      assertGateway(ctx);
      const session = await ctx.deps.signIn.redeem(args.secretHash);
      if (!session) return null;
      return {
        token: session.token,
        accessToken: {
          id: session.id,
          name: SESSION_TOKEN_NAME,
          prefix: session.prefix,
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
          revokedAt: null,
          expiresAt: session.expiresAt.toISOString(),
        },
      };
    },
    endSession: (_, args, ctx) => {
      assertGateway(ctx);
      return ctx.deps.signIn.end(args.secretHash);
    },
    applyPaymentEvent: (_, { input }, ctx) => {
      // Only the gateway's verified payment hook changes plans.
      if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'payments')
        throw forbidden('Internal field');
      return ctx.deps.billing.apply({ ...input, plan: lower(input.plan) });
    },
    revokeAccessToken: async (_, args, ctx) => {
      if (ctx.identity.kind !== 'accessToken') throw unauthenticated();
      await ctx.deps.credentials.revokeAccessToken(args.id, ctx.identity.userId);
      return true;
    },
  },
  Organization: {
    apiKeys: (org, _, ctx) => ctx.deps.credentials.apiKeysOfOrganization(org.id),
    usage: async (org, _, ctx) => {
      await ctx.deps.access.assertMember(ctx.identity, org.id);
      const usage = await ctx.deps.usageStats.forOrganization(
        org.id,
        await ctx.deps.credentials.keyIdsOfOrganization(org.id),
      );
      return { ...usage, resetsAt: usage.resetsAt.toISOString() };
    },
  },
  ApiKey: {
    usage: async (key, _, ctx) => {
      await ctx.deps.keyPolicy.assertCanRead(ctx.identity, key);
      return ctx.deps.usageStats.forKey(key.id);
    },
    calls: async (key, args, ctx) => {
      await ctx.deps.keyPolicy.assertCanRead(ctx.identity, key);
      const page = await ctx.deps.callLog.list(key.id, {
        from: optionalDate(args.from, 'from'),
        to: optionalDate(args.to, 'to'),
        endpoint: args.endpoint,
        first: args.first,
        after: args.after,
      });
      return { ...page, nodes: page.nodes.map((n) => ({ ...n, at: n.at.toISOString() })) };
    },
  },
};
