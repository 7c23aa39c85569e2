import { forbidden, notFound, unauthenticated } from '../../../../common/platform/errors';
import type { CallerIdentity } from '../../../../common/contracts/identity';
import type { Resolvers } from '../generated/resolvers-types';
import type { WebsiteView } from '../services/account.service';
import { upper } from './enum-values';
import { goalResolvers } from './goal.resolvers';
import { keyManagementResolvers } from './key-management.resolvers';
import { usageResolvers } from './usage.resolvers';

function iso(date: Date): string;
function iso(date: Date | null | undefined): string | null;
function iso(date: Date | null | undefined) {
  return date ? date.toISOString() : null;
}

const isCaller = (identity: CallerIdentity, userId: string) =>
  (identity.kind === 'apiKey' || identity.kind === 'accessToken') && identity.userId === userId;

function userIdOf(identity: CallerIdentity): string {
  if (identity.kind === 'apiKey' || identity.kind === 'accessToken') return identity.userId;
  throw unauthenticated();
}

async function required<T>(value: Promise<T | null>, what: string): Promise<T> {
  const found = await value;
  if (!found) throw notFound(what);
  return found;
}

const accountResolvers: Resolvers = {
  Query: {
    me: (_, __, ctx) => ctx.loaders.user.load(userIdOf(ctx.identity)),
    viewer: async (_, __, ctx) => {
      const userId = userIdOf(ctx.identity);
      const preferred = ctx.identity.kind === 'apiKey' ? ctx.identity.organizationId : undefined;
      const billing = await ctx.deps.accounts.billingOrganization(userId, preferred);
      if (!billing) throw forbidden('The caller belongs to no organization');
      return {
        kind: ctx.identity.kind,
        userId,
        apiKeyId: ctx.identity.kind === 'apiKey' ? ctx.identity.keyId : null,
        billing,
      };
    },
    websites: (_, __, ctx) => ctx.deps.access.accessibleWebsites(ctx.identity),
    website: (_, args, ctx) => ctx.deps.access.website(ctx.identity, args.id),
    // The facade's collector resolves the codes it receives; other callers see only websites
    // they may read: a tracking code is public (embedded in every tracked page), a website's
    // name and the rest are not.
    websiteByTrackingCode: async (_, args, ctx) => {
      const website = await ctx.deps.accounts.websiteByTrackingCode(args.trackingCode);
      if (!website || (ctx.identity.kind === 'service' && ctx.identity.name === 'rest-facade'))
        return website;
      return ctx.deps.access.website(ctx.identity, website.id);
    },
    organization: async (_, args, ctx) => {
      await ctx.deps.access.assertMember(ctx.identity, args.id);
      return required(ctx.loaders.organization.load(args.id), 'Organization');
    },
    resolveCredential: (_, args, ctx) => {
      // Only the gateway resolves credentials (the payment hook, also a service, does not).
      if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'gateway')
        throw forbidden('Internal field');
      return ctx.deps.credentials.resolve(args.secretHash);
    },
  },
  Viewer: {
    user: (viewer, _, ctx) => required(ctx.loaders.user.load(viewer.userId), 'User'),
    apiKey: (viewer, _, ctx) => (viewer.apiKeyId ? ctx.loaders.apiKey.load(viewer.apiKeyId) : null),
    plan: (viewer) => upper(viewer.billing.plan),
    limits: (viewer) => viewer.billing.limits,
    billingOrganization: (viewer) => viewer.billing,
  },
  ResolvedCredential: {
    organizationPlan: (credential) =>
      credential.organizationPlan && upper(credential.organizationPlan),
  },
  Organization: {
    __resolveReference: (ref, ctx) => ctx.loaders.organization.load(ref.id),
    plan: (org) => upper(org.plan),
    createdAt: (org) => iso(org.createdAt),
    websites: (org, _, ctx) => ctx.deps.accounts.websitesOfOrganization(org.id),
    members: (org, _, ctx) => ctx.deps.accounts.membershipsOfOrganization(org.id),
  },
  User: {
    __resolveReference: (ref, ctx) => ctx.loaders.user.load(ref.id),
    // Only to the user themselves: a co-member must not walk on into the user's other teams.
    memberships: (user, _, ctx) =>
      isCaller(ctx.identity, user.id) ? ctx.deps.accounts.membershipsOfUser(user.id) : [],
    accessTokens: async (user, _, ctx) => {
      if (ctx.identity.kind !== 'accessToken' || ctx.identity.userId !== user.id) return [];
      const tokens = await ctx.deps.credentials.accessTokensOfUser(user.id);
      return tokens.map((token) => ({
        ...token,
        createdAt: iso(token.createdAt),
        lastUsedAt: iso(token.lastUsedAt),
        revokedAt: iso(token.revokedAt),
        expiresAt: iso(token.expiresAt),
      }));
    },
  },
  Membership: {
    organization: (m, _, ctx) =>
      required(ctx.loaders.organization.load(m.organizationId), 'Organization'),
    user: (m, _, ctx) => required(ctx.loaders.user.load(m.userId), 'User'),
    role: (m) => upper(m.role),
  },
  Website: {
    __resolveReference: (ref, ctx) => ctx.loaders.website.load(ref.id),
    createdAt: (w) => iso(w.createdAt),
    // A website can be reached without a check (by its public tracking code), so what hangs off
    // it is checked here: its organization, and (through this field) its analytics.
    organization: async (w, _, ctx) => {
      if (!(await ctx.deps.access.mayRead(ctx.identity, w)))
        throw forbidden('The caller has no access to this website');
      return required(ctx.loaders.organization.load(w.organizationId), 'Organization');
    },
    readableByCaller: (w, _, ctx) => ctx.deps.access.mayRead(ctx.identity, w),
  },
  ApiKey: {
    __resolveReference: (ref, ctx) => ctx.loaders.apiKey.load(ref.id),
    permissions: (k) => k.permissions.map(upper),
    websiteAccess: (k) => upper(k.websiteAccess),
    websites: async (k, _, ctx) =>
      k.websiteAccess === 'all'
        ? ctx.deps.accounts.websitesOfOrganization(k.organizationId)
        : (await ctx.loaders.website.loadMany(k.websiteIds)).filter(
            (w): w is WebsiteView => Boolean(w) && !(w instanceof Error),
          ),
    expiresAt: (k) => iso(k.expiresAt),
    createdAt: (k) => iso(k.createdAt),
    lastUsedAt: async (k, _, ctx) => iso(await ctx.loaders.keyLastUsedAt.load(k.id)),
    owner: (k, _, ctx) => required(ctx.loaders.user.load(k.userId), 'User'),
    organization: (k, _, ctx) =>
      required(ctx.loaders.organization.load(k.organizationId), 'Organization'),
  },
};

/** Every resolver of the keys subgraph; root types are merged field by field. */
export const keysResolvers: Resolvers = {
  ...accountResolvers,
  ...keyManagementResolvers,
  ...goalResolvers,
  Query: { ...accountResolvers.Query, ...keyManagementResolvers.Query },
  Mutation: {
    ...keyManagementResolvers.Mutation,
    ...usageResolvers.Mutation,
    ...goalResolvers.Mutation,
  },
  Website: { ...accountResolvers.Website, ...goalResolvers.Website },
  Organization: { ...accountResolvers.Organization, ...keyManagementResolvers.Organization },
  ApiKey: { ...accountResolvers.ApiKey, ...keyManagementResolvers.ApiKey },
};
