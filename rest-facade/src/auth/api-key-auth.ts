import type { Request } from 'express';
import type { RedisClient } from '../../../common/platform/redis';
import { createCredentialCache } from '../../../common/platform/credential-cache';
import type { CacheLookup, VersionedCache } from '../../../common/platform/versioned-cache';
import type { Permission } from '../../../common/contracts/identity';
import type { Logger } from '../../../common/platform/logger';
import type { PlanName } from '../../../common/contracts/plans';
import {
  API_KEY_PREFIX,
  looksLikeCredential,
  presentedCredential,
  sha256Hex,
} from '../../../common/platform/secrets';
import { ApiError, invalidApiKey, keyExpired } from '../errors';
import { fromGraphQLErrors } from '../error-mapper';
import type { GatewayClient } from '../gateway-client';

/** The plan whose limits apply to a key (common/plans.ts). */
export type Tier = PlanName;

/** What the facade knows about an authenticated API key. */
export interface KeyContext {
  keyId: string;
  userId: string;
  organizationId: string;
  permissions: Permission[];
  /** null: every website of the organization. */
  websiteIds: string[] | null;
  expiresAt: string | null;
  tier: Tier;
  billingOrganizationId: string;
  requestsPerMinute: number;
  requestsPerMonth: number;
}

interface ViewerData {
  viewer: {
    plan: string;
    limits: { requestsPerMinute: number; requestsPerMonth: number };
    billingOrganization: { id: string };
    user: { id: string };
    apiKey: {
      id: string;
      permissions: string[];
      websiteAccess: string;
      websites: Array<{ id: string }>;
      expiresAt: string | null;
      organization: { id: string };
    } | null;
  };
}

/** The key a refusal was for, when the key was identified (expired, Free plan): see keyExpired. */
export function refusedKeyId(error: unknown): string | null {
  const keyId = error instanceof ApiError ? (error.details as { keyId?: unknown })?.keyId : null;
  return typeof keyId === 'string' ? keyId : null;
}

export interface PresentedKey {
  key: string;
  hash: string;
}

/**
 * Authenticates `X-API-Key` / `Authorization: Bearer` for the External API. The key's context
 * (permissions, plan, limits) comes from the `Viewer` operation and is cached per
 * process; the cache is dropped on every revocation (see VersionedCache).
 */
export class ApiKeyAuthenticator {
  private readonly cache: VersionedCache<KeyContext>;

  constructor(
    private readonly gateway: GatewayClient,
    redis: RedisClient,
    redisKeyPrefix: string,
    logger: Logger,
    /** Told how each lookup went (`credential_cache_lookups_total`). */
    onLookup: (result: CacheLookup) => void = () => undefined,
  ) {
    this.cache = createCredentialCache<KeyContext>(redis, redisKeyPrefix, logger).reportLookups(
      onLookup,
    );
  }

  /** The presented key, once its shape is checked (else the spec's 401), and its hash. */
  presented(req: Request): PresentedKey {
    const key = wellFormedKey(req);
    return { key, hash: sha256Hex(key) };
  }

  /** Returns the key's context, or throws the spec's 401/403 errors. */
  async authenticate(presented: PresentedKey, now = new Date()): Promise<KeyContext> {
    const context = await this.cache.get(presented.hash, () => this.load(presented.key));
    if (!context) throw invalidApiKey();
    if (hasExpired(context, now)) throw keyExpired(context.keyId);
    return context;
  }

  /**
   * The context this process cached for the presented key, if it is cached and unexpired, else
   * null. Unconfirmed: `stillCurrent()` tells whether a revocation happened since; the caller
   * may start undoable work meanwhile (one Redis round trip for both) and must undo it if not.
   */
  cached(presented: PresentedKey, now = new Date()): KeyContext | null {
    const context = this.cache.peek(presented.hash);
    return context && !hasExpired(context, now) ? context : null;
  }

  stillCurrent(): Promise<boolean> {
    return this.cache.isCurrent();
  }

  private async load(key: string): Promise<KeyContext | null> {
    const result = await this.gateway.execute<ViewerData>('Viewer', {}, { credential: key });
    if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
    const { viewer } = result.data;
    if (!viewer.apiKey) return null;
    return {
      keyId: viewer.apiKey.id,
      userId: viewer.user.id,
      organizationId: viewer.apiKey.organization.id,
      permissions: viewer.apiKey.permissions.map((p) => p.toLowerCase()) as Permission[],
      websiteIds:
        viewer.apiKey.websiteAccess.toLowerCase() === 'all'
          ? null
          : viewer.apiKey.websites.map((w) => w.id),
      expiresAt: viewer.apiKey.expiresAt,
      tier: viewer.plan.toLowerCase() as Tier,
      billingOrganizationId: viewer.billingOrganization.id,
      requestsPerMinute: viewer.limits.requestsPerMinute,
      requestsPerMonth: viewer.limits.requestsPerMonth,
    };
  }
}

const hasExpired = (context: KeyContext, now: Date) =>
  context.expiresAt !== null && new Date(context.expiresAt).getTime() <= now.getTime();

/** The presented key when it has the shape of one; otherwise the spec's 401. */
function wellFormedKey(req: Request): string {
  const key = presentedCredential(req.headers);
  if (key === null) throw invalidApiKey('Send your API key in the X-API-Key header');
  if (!key.startsWith(API_KEY_PREFIX) || !looksLikeCredential(key))
    throw invalidApiKey('The API key is malformed');
  return key;
}
