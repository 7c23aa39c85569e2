import { Types } from 'mongoose';
import type { Permission, ResolvedCredential } from '../../../../common/contracts/identity';
import type { PlanName } from '../../../../common/contracts/plans';

export type { ResolvedCredential };

/** A credential as this subgraph resolves it: its plan as stored (the resolver names the enum). */
export interface StoredCredential extends Omit<ResolvedCredential, 'organizationPlan'> {
  organizationPlan: PlanName | null;
}
import { badInput, forbidden, notFound, unauthenticated } from '../../../../common/platform/errors';
import {
  ACCESS_TOKEN_PREFIX,
  API_KEY_PREFIX,
  displayPrefix,
  generateSecret,
  sha256Hex,
} from '../../../../common/platform/secrets';
import type { KeysModels } from '../models';
import { assertObjectId, type AccountService } from './account.service';

export const DEFAULT_PERMISSIONS: Permission[] = ['read_analytics', 'track_events'];
/** What a plain member's key may carry: the rest is for organization owners and admins. */
const MEMBER_GRANTABLE = new Set<Permission>(DEFAULT_PERMISSIONS);

export type Expiration = 'never' | '1y' | '90d' | Date;

export interface CreateApiKeyInput {
  organizationId: string;
  userId: string;
  name: string;
  description?: string | null;
  permissions?: Permission[];
  /** null or undefined: every website of the organization. */
  websiteIds?: string[] | null;
  expiration?: Expiration;
}

export interface ApiKeyView {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  description: string | null;
  prefix: string;
  permissions: Permission[];
  websiteAccess: 'all' | 'selected';
  websiteIds: string[];
  expiresAt: Date | null;
  createdAt: Date;
}

export interface AccessTokenView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
}

export interface CredentialHooks {
  /** Runs a change of one key alone: no other change of that key overlaps it, on any instance. */
  exclusive<T>(keyId: string, change: () => Promise<T>): Promise<T>;
  /** After a credential stops being valid, so every cache of it can forget it at once. */
  revoked(secretHash: string): Promise<void>;
  /** After a key is created, regenerated or deleted: a platform event for the owner's webhooks. */
  keyChanged(
    type: 'api_key.created' | 'api_key.regenerated' | 'api_key.deleted',
    key: ApiKeyView,
  ): Promise<void>;
  /** When these access tokens were last used, as the gateways recorded it (common/token-use.ts). */
  tokensLastUsed(tokenIds: readonly string[]): Promise<Map<string, Date>>;
  /** After access tokens were revoked: their last use need not be kept. */
  tokensRevoked(tokenIds: readonly string[]): Promise<void>;
}

const DAY_MS = 86_400_000;

export function expiryDate(expiration: Expiration, now = new Date()): Date | null {
  if (expiration === 'never') return null;
  if (expiration === '1y') {
    const d = new Date(now);
    d.setUTCFullYear(d.getUTCFullYear() + 1);
    return d;
  }
  if (expiration === '90d') return new Date(now.getTime() + 90 * DAY_MS);
  if (Number.isNaN(expiration.getTime())) throw badInput('Expiration is not a valid date');
  if (expiration.getTime() <= now.getTime())
    throw badInput('A custom expiration must be in the future');
  return expiration;
}

/** API keys and access tokens: creation, lookup by hash, regeneration, deletion. */
export class CredentialService {
  constructor(
    private readonly models: KeysModels,
    private readonly accounts: AccountService,
    private readonly hooks: CredentialHooks,
  ) {}

  async createApiKey(input: CreateApiKeyInput): Promise<{ key: string; apiKey: ApiKeyView }> {
    const organizationId = assertObjectId(input.organizationId, 'Organization');
    const userId = assertObjectId(input.userId, 'User');
    const memberships = await this.accounts.membershipsOfUser(input.userId);
    const membership = memberships.find((m) => m.organizationId === input.organizationId);
    if (!membership) throw badInput('The key owner must be a member of the organization');
    const permissions = [...new Set(input.permissions ?? DEFAULT_PERMISSIONS)];
    if (membership.role === 'member' && permissions.some((p) => !MEMBER_GRANTABLE.has(p)))
      throw forbidden(
        'Only an organization owner or admin may hold a key with manage_websites, manage_team or admin',
      );
    const websiteIds = input.websiteIds ? [...new Set(input.websiteIds)] : null;
    if (websiteIds) {
      if (websiteIds.length === 0)
        throw badInput('Selected-websites access needs at least one website');
      const websites = await this.accounts.websitesByIds(websiteIds);
      if (
        websites.length !== new Set(websiteIds).size ||
        websites.some((w) => w.organizationId !== input.organizationId)
      ) {
        throw badInput('Every selected website must belong to the organization');
      }
    }
    const key = generateSecret(API_KEY_PREFIX);
    const doc = await this.models.ApiKey.create({
      organizationId,
      userId,
      name: input.name,
      description: input.description ?? null,
      secretHash: sha256Hex(key),
      prefix: displayPrefix(key),
      permissions,
      websiteAccess: websiteIds ? 'selected' : 'all',
      websiteIds: (websiteIds ?? []).map((id) => new Types.ObjectId(id)),
      expiresAt: expiryDate(input.expiration ?? '1y'),
    });
    const apiKey = toApiKey(doc.toObject());
    await this.hooks.keyChanged('api_key.created', apiKey);
    return { key, apiKey };
  }

  /**
   * Issues a new value for the key; the old value stops working at once. Changes of one key run
   * one at a time (`exclusive`): on FerretDB 1.x a regeneration overlapping a deletion could
   * otherwise write the deleted key back to life.
   */
  async regenerateApiKey(id: string): Promise<{ key: string; apiKey: ApiKeyView }> {
    const _id = assertObjectId(id, 'API key');
    const key = generateSecret(API_KEY_PREFIX);
    const changed = await this.hooks.exclusive(id, async () => {
      const previous = await this.models.ApiKey.findOneAndUpdate(
        { _id, deletedAt: null },
        { $set: { secretHash: sha256Hex(key), prefix: displayPrefix(key) } },
      ).lean();
      const current = previous && (await this.models.ApiKey.findById(_id).lean());
      return previous && { previous, current: current ?? previous };
    });
    if (!changed) throw notFound('API key');
    await this.hooks.revoked(changed.previous.secretHash);
    const apiKey = toApiKey(changed.current);
    await this.hooks.keyChanged('api_key.regenerated', apiKey);
    return { key, apiKey };
  }

  async deleteApiKey(id: string): Promise<void> {
    const _id = assertObjectId(id, 'API key');
    const previous = await this.hooks.exclusive(id, () =>
      this.models.ApiKey.findOneAndUpdate(
        { _id, deletedAt: null },
        // The hash is replaced too, so the unique index never matches the old value again.
        { $set: { deletedAt: new Date(), secretHash: `deleted:${id}` } },
      ).lean(),
    );
    if (!previous) throw notFound('API key');
    await this.hooks.revoked(previous.secretHash);
    await this.hooks.keyChanged('api_key.deleted', toApiKey(previous));
  }

  async apiKeysByIds(ids: readonly string[]): Promise<ApiKeyView[]> {
    const valid = ids.filter((id) => Types.ObjectId.isValid(id));
    const docs = await this.models.ApiKey.find({ _id: { $in: valid }, deletedAt: null }).lean();
    return docs.map(toApiKey);
  }

  async apiKeysOfOrganization(organizationId: string): Promise<ApiKeyView[]> {
    const docs = await this.models.ApiKey.find({
      organizationId: assertObjectId(organizationId, 'Organization'),
      deletedAt: null,
    })
      .sort({ createdAt: -1, _id: -1 })
      .lean();
    return docs.map(toApiKey);
  }

  /** Ids of every key the organization ever had, deleted ones included (usage history). */
  async keyIdsOfOrganization(organizationId: string): Promise<string[]> {
    const docs = await this.models.ApiKey.find(
      { organizationId: assertObjectId(organizationId, 'Organization') },
      { _id: 1 },
    ).lean();
    return docs.map((doc) => String(doc._id));
  }

  /**
   * `createdWith`: the token the dashboard used to ask. The new token joins that token's lineage,
   * so revoking a leaked token also ends the tokens made with it. Checked again after the insert:
   * a revocation that ran in between has either seen the new token or left its ancestor revoked.
   * `expiresAt`: for dashboard sessions; other tokens live until revoked.
   */
  async createAccessToken(
    userId: string,
    name: string,
    createdWith?: string,
    expiresAt: Date | null = null,
  ): Promise<{ token: string; id: string; prefix: string }> {
    const [user] = await this.accounts.usersByIds([userId]);
    if (!user) throw notFound('User');
    let lineage: Types.ObjectId[] = [];
    if (createdWith) {
      const parent = await this.models.AccessToken.findOne({
        _id: assertObjectId(createdWith, 'Access token'),
        revokedAt: null,
      }).lean();
      if (!parent) throw unauthenticated('The access token was revoked');
      lineage = [...parent.lineage, parent._id];
    }
    const token = generateSecret(ACCESS_TOKEN_PREFIX);
    const doc = await this.models.AccessToken.create({
      userId: new Types.ObjectId(userId),
      name,
      secretHash: sha256Hex(token),
      prefix: displayPrefix(token),
      lineage,
      expiresAt,
    });
    if (
      lineage.length > 0 &&
      (await this.models.AccessToken.exists({ _id: { $in: lineage }, revokedAt: { $ne: null } }))
    ) {
      await this.models.AccessToken.updateOne(
        { _id: doc._id },
        { $set: { revokedAt: new Date() } },
      );
      throw unauthenticated('The access token was revoked');
    }
    return { token, id: String(doc._id), prefix: doc.prefix };
  }

  /** The user's live access tokens, newest first, with their last use (never their values). */
  async accessTokensOfUser(userId: string, now = new Date()): Promise<AccessTokenView[]> {
    const docs = (
      await this.models.AccessToken.find({
        userId: assertObjectId(userId, 'User'),
        revokedAt: null,
      })
        .sort({ createdAt: -1, _id: -1 })
        .lean()
    ).filter((doc) => !doc.expiresAt || doc.expiresAt > now);
    const used = await this.hooks.tokensLastUsed(docs.map((doc) => String(doc._id)));
    return docs.map((doc) => ({
      id: String(doc._id),
      name: doc.name,
      prefix: doc.prefix,
      createdAt: doc.createdAt,
      lastUsedAt: used.get(String(doc._id)) ?? null,
      revokedAt: null,
      expiresAt: doc.expiresAt ?? null,
    }));
  }

  /**
   * Revokes a token and every token created with it (its lineage). With `userId` (the dashboard),
   * only that user's own tokens: someone else's is reported as not found. Without it (the admin
   * CLI), any token.
   */
  async revokeAccessToken(id: string, userId?: string): Promise<void> {
    const owner = userId ? { userId: assertObjectId(userId, 'User') } : {};
    const now = new Date();
    const previous = await this.models.AccessToken.findOneAndUpdate(
      { _id: assertObjectId(id, 'Access token'), ...owner, revokedAt: null },
      { $set: { revokedAt: now } },
    ).lean();
    if (!previous) throw notFound('Access token');
    await this.models.AccessToken.updateMany(
      { lineage: previous._id, revokedAt: null },
      { $set: { revokedAt: now } },
    );
    await this.hooks.revoked(previous.secretHash);
    const descendants = await this.models.AccessToken.find({ lineage: previous._id }, { _id: 1 })
      .lean()
      .then((docs) => docs.map((doc) => String(doc._id)));
    await this.hooks.tokensRevoked([String(previous._id), ...descendants]);
  }

  /** Revokes the live access token whose value has this hash (a dashboard session ending). */
  async revokeAccessTokenByHash(secretHash: string): Promise<boolean> {
    const token = await this.models.AccessToken.findOne({ secretHash, revokedAt: null }).lean();
    if (!token) return false;
    await this.revokeAccessToken(String(token._id));
    return true;
  }

  /** Finds the live credential with this hash; expired keys are returned so callers can say so. */
  async resolve(secretHash: string): Promise<StoredCredential | null> {
    const key = await this.models.ApiKey.findOne({ secretHash, deletedAt: null }).lean();
    if (key) {
      const [organization] = await this.accounts.organizationsByIds([String(key.organizationId)]);
      return {
        kind: 'apiKey',
        id: String(key._id),
        userId: String(key.userId),
        organizationId: String(key.organizationId),
        organizationPlan: organization?.plan ?? null,
        permissions: key.permissions,
        websiteIds: key.websiteAccess === 'selected' ? key.websiteIds.map(String) : null,
        expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null,
      };
    }
    const token = await this.models.AccessToken.findOne({ secretHash, revokedAt: null }).lean();
    if (token) {
      return {
        kind: 'accessToken',
        id: String(token._id),
        userId: String(token.userId),
        organizationId: null,
        organizationPlan: null,
        permissions: [],
        websiteIds: null,
        expiresAt: token.expiresAt ? token.expiresAt.toISOString() : null,
      };
    }
    return null;
  }
}

function toApiKey(doc: {
  _id: unknown;
  organizationId: unknown;
  userId: unknown;
  name: string;
  description?: string | null;
  prefix: string;
  permissions: string[];
  websiteAccess: string;
  websiteIds: unknown[];
  expiresAt?: Date | null;
  createdAt: Date;
}): ApiKeyView {
  return {
    id: String(doc._id),
    organizationId: String(doc.organizationId),
    userId: String(doc.userId),
    name: doc.name,
    description: doc.description ?? null,
    prefix: doc.prefix,
    permissions: doc.permissions as Permission[],
    websiteAccess: doc.websiteAccess as 'all' | 'selected',
    websiteIds: doc.websiteIds.map(String),
    expiresAt: doc.expiresAt ?? null,
    createdAt: doc.createdAt,
  };
}
