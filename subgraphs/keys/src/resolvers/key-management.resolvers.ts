import { badInput, forbidden, notFound, unauthenticated } from '../../../../common/errors';
import { parseIsoInstant } from '../../../../common/iso-instant';
import type { PlanName } from '../plans';
import type { PaymentEventInput } from '../services/billing.service';
import type { Permission } from '../../../../common/identity';
import type { KeysContext } from '../context';
import type { OrganizationView } from '../services/account.service';
import type { ApiKeyView, Expiration } from '../services/credential.service';
import { SESSION_TOKEN_NAME } from '../services/sign-in.service';

interface CreateApiKeyArgs {
  input: {
    organizationId: string;
    name: string;
    description?: string | null;
    permissions?: string[] | null;
    websiteIds?: string[] | null;
    expiration: 'NEVER' | 'ONE_YEAR' | 'NINETY_DAYS' | 'CUSTOM';
    expiresAt?: string | null;
  };
}

function expirationOf(input: CreateApiKeyArgs['input']): Expiration {
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
export const keyManagementResolvers = {
  Query: {
    apiKey: async (_: unknown, args: { id: string }, ctx: KeysContext) => {
      const key = await loadKey(ctx, args.id);
      await ctx.deps.keyPolicy.assertCanRead(ctx.identity, key);
      return key;
    },
  },
  Mutation: {
    createApiKey: async (_: unknown, { input }: CreateApiKeyArgs, ctx: KeysContext) => {
      const userId = await ctx.deps.keyPolicy.assertCanCreate(ctx.identity, input.organizationId);
      return ctx.deps.credentials.createApiKey({
        organizationId: input.organizationId,
        userId,
        name: input.name,
        description: input.description ?? null,
        permissions: input.permissions
          ? (input.permissions.map((p) => p.toLowerCase()) as Permission[])
          : undefined,
        websiteIds: input.websiteIds ?? null,
        expiration: expirationOf(input),
      });
    },
    regenerateApiKey: async (_: unknown, args: { id: string }, ctx: KeysContext) => {
      await ctx.deps.keyPolicy.assertCanManage(ctx.identity, await loadKey(ctx, args.id));
      return ctx.deps.credentials.regenerateApiKey(args.id);
    },
    deleteApiKey: async (_: unknown, args: { id: string }, ctx: KeysContext) => {
      await ctx.deps.keyPolicy.assertCanManage(ctx.identity, await loadKey(ctx, args.id));
      await ctx.deps.credentials.deleteApiKey(args.id);
      return true;
    },
    createAccessToken: async (_: unknown, args: { name: string }, ctx: KeysContext) => {
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
    issueLoginLink: (_: unknown, args: { email: string }, ctx: KeysContext) => {
      assertGateway(ctx);
      return ctx.deps.signIn.issueLink(args.email);
    },
    redeemLoginLink: async (_: unknown, args: { secretHash: string }, ctx: KeysContext) => {
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
    endSession: (_: unknown, args: { secretHash: string }, ctx: KeysContext) => {
      assertGateway(ctx);
      return ctx.deps.signIn.end(args.secretHash);
    },
    applyPaymentEvent: (
      _: unknown,
      { input }: { input: Omit<PaymentEventInput, 'plan'> & { plan: string } },
      ctx: KeysContext,
    ) => {
      // Only the gateway's verified payment hook changes plans.
      if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'payments')
        throw forbidden('Internal field');
      return ctx.deps.billing.apply({ ...input, plan: input.plan.toLowerCase() as PlanName });
    },
    revokeAccessToken: async (_: unknown, args: { id: string }, ctx: KeysContext) => {
      if (ctx.identity.kind !== 'accessToken') throw unauthenticated();
      await ctx.deps.credentials.revokeAccessToken(args.id, ctx.identity.userId);
      return true;
    },
  },
  Organization: {
    apiKeys: (org: OrganizationView, _: unknown, ctx: KeysContext) =>
      ctx.deps.credentials.apiKeysOfOrganization(org.id),
    usage: async (org: OrganizationView, _: unknown, ctx: KeysContext) => {
      await ctx.deps.access.assertMember(ctx.identity, org.id);
      const usage = await ctx.deps.usageStats.forOrganization(
        org.id,
        await ctx.deps.credentials.keyIdsOfOrganization(org.id),
      );
      return { ...usage, resetsAt: usage.resetsAt.toISOString() };
    },
  },
  ApiKey: {
    usage: async (key: ApiKeyView, _: unknown, ctx: KeysContext) => {
      await ctx.deps.keyPolicy.assertCanRead(ctx.identity, key);
      return ctx.deps.usageStats.forKey(key.id);
    },
    calls: async (
      key: ApiKeyView,
      args: {
        from?: string | null;
        to?: string | null;
        endpoint?: string | null;
        first: number;
        after?: string | null;
      },
      ctx: KeysContext,
    ) => {
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
