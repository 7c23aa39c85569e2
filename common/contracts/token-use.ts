import type { RedisClient } from '../platform/redis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../platform/logger';

/** Hash of access token id → when it was last used (ms since the epoch). */
const lastUsedKey = (prefix: string) => `${prefix}usage:tokens:last-used`;

/** A token's last use is recorded at most this often per engine (gateway or facade instance). */
export const TOKEN_USE_RESOLUTION_MS = 60_000;

/**
 * Records dashboard access-token use for the token list's "last used" (the engine that
 * authenticates a token, the gateway's or the facade's for webhook management, sees every use).
 * Off the request path and at most once a minute per token: a dashboard polling every second
 * costs one Redis write a minute.
 */
export class TokenUseRecorder {
  private readonly written = new LRUCache<string, number>({ max: 10_000 });
  private failing = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  record(tokenId: string, now = Date.now()): void {
    const last = this.written.get(tokenId);
    if (last !== undefined && now - last < TOKEN_USE_RESOLUTION_MS) return;
    this.written.set(tokenId, now);
    this.redis.hset(lastUsedKey(this.prefix), tokenId, String(now)).then(
      () => {
        this.failing = false;
      },
      (error: unknown) => {
        this.written.delete(tokenId);
        if (this.failing) return;
        this.failing = true;
        this.logger.warn({ err: (error as Error).message }, 'could not record access token use');
      },
    );
  }
}

/** When each of these tokens was last used, as far as the engines recorded it. */
export async function tokensLastUsed(
  redis: RedisClient,
  prefix: string,
  tokenIds: readonly string[],
): Promise<Map<string, Date>> {
  if (tokenIds.length === 0) return new Map();
  const values = await redis.hmget(lastUsedKey(prefix), ...tokenIds);
  const used = new Map<string, Date>();
  tokenIds.forEach((id, i) => {
    const value = values[i];
    if (value) used.set(id, new Date(Number(value)));
  });
  return used;
}

/** Forgets the last use of tokens that were revoked: the record holds live tokens only. */
export async function forgetTokenUse(
  redis: RedisClient,
  prefix: string,
  tokenIds: readonly string[],
): Promise<void> {
  if (tokenIds.length > 0) await redis.hdel(lastUsedKey(prefix), ...tokenIds);
}
