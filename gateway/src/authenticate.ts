import type { RedisClient } from '../../common/platform/redis';
import {
  invalidApiKey,
  invalidToken,
  keyExpired,
  keysUnavailable,
  paidPlanRequired,
} from './errors';
import { createCredentialCache } from '../../common/platform/credential-cache';
import type { VersionedCache } from '../../common/platform/versioned-cache';
import type {
  CallerIdentity,
  Permission,
  ResolvedCredential,
} from '../../common/contracts/identity';
import type { Logger } from '../../common/platform/logger';
import { API_KEY_PREFIX, looksLikeCredential, sha256Hex } from '../../common/platform/secrets';
export { presentedCredential } from '../../common/platform/secrets';
import type { Dispatcher } from 'undici';
import { postAsService, type GraphQLAnswer } from '../../common/platform/graphql-post';
import { TokenUseRecorder } from '../../common/contracts/token-use';

const RESOLVE_QUERY = `query ResolveCredential($secretHash: String!) {
  resolveCredential(secretHash: $secretHash) { kind id userId organizationId organizationPlan permissions websiteIds expiresAt }
}`;

/** Turns a presented credential into the identity the subgraphs receive, or a 401/403. */
export class Authenticator {
  private readonly cache: VersionedCache<ResolvedCredential>;
  private readonly tokenUse: TokenUseRecorder;

  constructor(
    private readonly keysUrl: string,
    private readonly internalSecret: string,
    private readonly dispatcher: Dispatcher,
    redis: RedisClient,
    redisKeyPrefix: string,
    logger: Logger,
  ) {
    this.cache = createCredentialCache<ResolvedCredential>(redis, redisKeyPrefix, logger);
    this.tokenUse = new TokenUseRecorder(redis, redisKeyPrefix, logger);
  }

  async identify(presented: string | null, now = new Date()): Promise<CallerIdentity> {
    if (presented === null) return { kind: 'anonymous' };
    const isApiKey = presented.startsWith(API_KEY_PREFIX);
    const refuse = isApiKey ? invalidApiKey : invalidToken;
    if (!looksLikeCredential(presented)) throw refuse();
    const hash = sha256Hex(presented);
    const resolved = await this.cache.get(hash, () => this.resolve(hash));
    if (!resolved || (resolved.kind === 'apiKey') !== isApiKey) throw refuse();
    if (resolved.kind === 'accessToken') {
      // Dashboard sessions are access tokens that end on their own.
      if (resolved.expiresAt && new Date(resolved.expiresAt).getTime() <= now.getTime())
        throw refuse();
      this.tokenUse.record(resolved.id, now.getTime());
      return { kind: 'accessToken', tokenId: resolved.id, userId: resolved.userId };
    }
    if (resolved.expiresAt && new Date(resolved.expiresAt).getTime() <= now.getTime())
      throw keyExpired(resolved.id);
    if (resolved.organizationPlan === 'FREE') throw paidPlanRequired(resolved.id);
    return {
      kind: 'apiKey',
      keyId: resolved.id,
      userId: resolved.userId,
      organizationId: resolved.organizationId ?? '',
      permissions: resolved.permissions as Permission[],
      websiteIds: resolved.websiteIds,
    };
  }

  private async resolve(secretHash: string): Promise<ResolvedCredential | null> {
    const resolveRequest = { query: RESOLVE_QUERY, variables: { secretHash } };
    let answer: GraphQLAnswer;
    try {
      answer = await postAsService(this.keysUrl, this.dispatcher, resolveRequest, {
        secret: this.internalSecret,
        service: 'gateway',
        audience: 'keys',
      });
    } catch (error) {
      // Logged once, with the request id, where errors are formatted (hideInternalErrors).
      throw keysUnavailable(error);
    }
    const body = JSON.parse(answer.text) as {
      data?: { resolveCredential: ResolvedCredential | null };
      errors?: Array<{ extensions?: { code?: string } }>;
    };
    const failure = `keys subgraph could not resolve a credential (HTTP ${answer.status})`;
    // The keys subgraph's own store is unreachable: the caller may retry, as above.
    if (body.errors?.some((e) => e.extensions?.code === 'service_unavailable'))
      throw keysUnavailable(new Error(failure));
    if (answer.status !== 200 || body.errors || !body.data) throw new Error(failure);
    return body.data.resolveCredential;
  }
}
