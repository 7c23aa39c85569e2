import { forbidden, notFound, unauthenticated } from '../../../../common/errors';
import type { CallerIdentity } from '../../../../common/identity';
import type { KeysContext } from '../context';
import { keyManagementResolvers } from './key-management.resolvers';
import type {
  MembershipView,
  OrganizationView,
  UserView,
  WebsiteView,
} from '../services/account.service';
import type { ApiKeyView } from '../services/credential.service';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const upper = (value: string) => value.toUpperCase();

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

const accountResolvers = {
  Query: {
    me: (_: unknown, __: unknown, ctx: KeysContext) =>
      ctx.loaders.user.load(userIdOf(ctx.identity)),
    viewer: async (_: unknown, __: unknown, ctx: KeysContext) => {
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
    websites: (_: unknown, __: unknown, ctx: KeysContext) =>
      ctx.deps.access.accessibleWebsites(ctx.identity),
    website: (_: unknown, args: { id: string }, ctx: KeysContext) =>
      ctx.deps.access.website(ctx.identity, args.id),
    // The facade's collector resolves the codes it receives; other callers see only websites
    // they may read: a tracking code is public (embedded in every tracked page), a website's
    // name and the rest are not.
    websiteByTrackingCode: async (_: unknown, args: { trackingCode: string }, ctx: KeysContext) => {
      const website = await ctx.deps.accounts.websiteByTrackingCode(args.trackingCode);
      if (!website || (ctx.identity.kind === 'service' && ctx.identity.name === 'rest-facade'))
        return website;
      return ctx.deps.access.website(ctx.identity, website.id);
    },
    organization: async (_: unknown, args: { id: string }, ctx: KeysContext) => {
      await ctx.deps.access.assertMember(ctx.identity, args.id);
      return required(ctx.loaders.organization.load(args.id), 'Organization');
    },
    resolveCredential: (_: unknown, args: { secretHash: string }, ctx: KeysContext) => {
      // Only the gateway resolves credentials (the payment hook, also a service, does not).
      if (ctx.identity.kind !== 'service' || ctx.identity.name !== 'gateway')
        throw forbidden('Internal field');
      return ctx.deps.credentials.resolve(args.secretHash);
    },
  },
  Viewer: {
    user: (viewer: { userId: string }, _: unknown, ctx: KeysContext) =>
      required(ctx.loaders.user.load(viewer.userId), 'User'),
    apiKey: (viewer: { apiKeyId: string | null }, _: unknown, ctx: KeysContext) =>
      viewer.apiKeyId ? ctx.loaders.apiKey.load(viewer.apiKeyId) : null,
    plan: (viewer: { billing: OrganizationView }) => upper(viewer.billing.plan),
    limits: (viewer: { billing: OrganizationView }) => viewer.billing.limits,
    billingOrganization: (viewer: { billing: OrganizationView }) => viewer.billing,
  },
  Organization: {
    __resolveReference: (ref: { id: string }, ctx: KeysContext) =>
      ctx.loaders.organization.load(ref.id),
    plan: (org: OrganizationView) => upper(org.plan),
    createdAt: (org: OrganizationView) => iso(org.createdAt),
    websites: (org: OrganizationView, _: unknown, ctx: KeysContext) =>
      ctx.deps.accounts.websitesOfOrganization(org.id),
    members: (org: OrganizationView, _: unknown, ctx: KeysContext) =>
      ctx.deps.accounts.membershipsOfOrganization(org.id),
  },
  User: {
    __resolveReference: (ref: { id: string }, ctx: KeysContext) => ctx.loaders.user.load(ref.id),
    // Only to the user themselves: a co-member must not walk on into the user's other teams.
    memberships: (user: UserView, _: unknown, ctx: KeysContext) =>
      isCaller(ctx.identity, user.id) ? ctx.deps.accounts.membershipsOfUser(user.id) : [],
    accessTokens: async (user: UserView, _: unknown, ctx: KeysContext) => {
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
    organization: (m: MembershipView, _: unknown, ctx: KeysContext) =>
      required(ctx.loaders.organization.load(m.organizationId), 'Organization'),
    user: (m: MembershipView, _: unknown, ctx: KeysContext) =>
      required(ctx.loaders.user.load(m.userId), 'User'),
    role: (m: MembershipView) => upper(m.role),
  },
  Website: {
    __resolveReference: (ref: { id: string }, ctx: KeysContext) => ctx.loaders.website.load(ref.id),
    createdAt: (w: WebsiteView) => iso(w.createdAt),
    // A website can be reached without a check (by its public tracking code), so what hangs off
    // it is checked here: its organization, and (through this field) its analytics.
    organization: async (w: WebsiteView, _: unknown, ctx: KeysContext) => {
      if (!(await ctx.deps.access.mayRead(ctx.identity, w)))
        throw forbidden('The caller has no access to this website');
      return required(ctx.loaders.organization.load(w.organizationId), 'Organization');
    },
    readableByCaller: (w: WebsiteView, _: unknown, ctx: KeysContext) =>
      ctx.deps.access.mayRead(ctx.identity, w),
  },
  ApiKey: {
    __resolveReference: (ref: { id: string }, ctx: KeysContext) => ctx.loaders.apiKey.load(ref.id),
    permissions: (k: ApiKeyView) => k.permissions.map(upper),
    websiteAccess: (k: ApiKeyView) => upper(k.websiteAccess),
    websites: async (k: ApiKeyView, _: unknown, ctx: KeysContext) =>
      k.websiteAccess === 'all'
        ? ctx.deps.accounts.websitesOfOrganization(k.organizationId)
        : (await ctx.loaders.website.loadMany(k.websiteIds)).filter(
            (w): w is WebsiteView => Boolean(w) && !(w instanceof Error),
          ),
    expiresAt: (k: ApiKeyView) => iso(k.expiresAt),
    createdAt: (k: ApiKeyView) => iso(k.createdAt),
    lastUsedAt: async (k: ApiKeyView, _: unknown, ctx: KeysContext) =>
      iso(await ctx.loaders.keyLastUsedAt.load(k.id)),
    owner: (k: ApiKeyView, _: unknown, ctx: KeysContext) =>
      required(ctx.loaders.user.load(k.userId), 'User'),
    organization: (k: ApiKeyView, _: unknown, ctx: KeysContext) =>
      required(ctx.loaders.organization.load(k.organizationId), 'Organization'),
  },
};

/** Every resolver of the keys subgraph; root types are merged field by field. */
export const keysResolvers = {
  ...accountResolvers,
  ...keyManagementResolvers,
  Query: { ...accountResolvers.Query, ...keyManagementResolvers.Query },
  Organization: { ...accountResolvers.Organization, ...keyManagementResolvers.Organization },
  ApiKey: { ...accountResolvers.ApiKey, ...keyManagementResolvers.ApiKey },
};
