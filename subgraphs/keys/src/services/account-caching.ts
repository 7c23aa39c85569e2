import type { Redis } from 'ioredis';
import { credentialGenerationKey } from '../../../../common/credential-cache';
import type { Logger } from '../../../../common/logger';
import { bumpGeneration, VersionedCache } from '../../../../common/versioned-cache';
import type { AccountCaching } from './account.service';

export const accountsGenerationKey = (prefix: string) => `${prefix}accounts:generation`;

/**
 * What every writer of accounts must do afterwards: make all instances forget cached accounts,
 * and cached credentials too, since those carry the plan and limits.
 */
export function accountsChanged(redis: Redis, prefix: string): () => Promise<void> {
  return async () => {
    await Promise.all([
      bumpGeneration(redis, accountsGenerationKey(prefix)),
      bumpGeneration(redis, credentialGenerationKey(prefix)),
    ]);
  };
}

/** The keys subgraph's caching of account reads (the CLI only needs `accountsChanged`). */
export function accountCaching(redis: Redis, prefix: string, logger: Logger): AccountCaching {
  return {
    cache: new VersionedCache<{ value: unknown }>(
      redis,
      { generationKey: accountsGenerationKey(prefix), ttlMs: 60_000, negativeTtlMs: 60_000 },
      logger,
    ),
    changed: accountsChanged(redis, prefix),
  };
}
