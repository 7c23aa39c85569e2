import {
  announceReadChange,
  readGenerationKey,
  siteTag,
} from '../../../../common/contracts/read-cache';
import type { RedisClient } from '../../../../common/platform/redis';
import { credentialGenerationKey } from '../../../../common/platform/credential-cache';
import type { Logger } from '../../../../common/platform/logger';
import { bumpGeneration, VersionedCache } from '../../../../common/platform/versioned-cache';
import type { AccountCaching } from './account.service';

/** Also dates the facade's cached answers (common/contracts/read-cache.ts). */
export const accountsGenerationKey = (prefix: string) => readGenerationKey(prefix, 'accounts');

/**
 * What every writer of accounts must do afterwards: make all instances forget cached accounts,
 * and cached credentials too, since those carry the plan and limits.
 */
export function accountsChanged(redis: RedisClient, prefix: string): () => Promise<void> {
  return async () => {
    await Promise.all([
      announceReadChange(redis, prefix, 'accounts'),
      bumpGeneration(redis, credentialGenerationKey(prefix)),
    ]);
  };
}

/**
 * What a writer of a website's goals must do afterwards: make all instances forget cached goals
 * (they follow the accounts' generation), and the facade forget its answers about the website,
 * since analytics counts conversions with its goals.
 */
export function goalsChanged(
  redis: RedisClient,
  prefix: string,
): (websiteId: string) => Promise<void> {
  return async (websiteId) => {
    await Promise.all([
      announceReadChange(redis, prefix, 'accounts'),
      announceReadChange(redis, prefix, siteTag(websiteId)),
    ]);
  };
}

/** A read through `cache` (when there is one), under `key`. */
export async function readThrough<T>(
  cache: VersionedCache<{ value: unknown }> | undefined,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  if (!cache) return load();
  const entry = await cache.get(key, async () => ({ value: await load() }));
  return entry!.value as T;
}

/** The keys subgraph's caching of account reads (the CLI only needs `accountsChanged`). */
export function accountCaching(redis: RedisClient, prefix: string, logger: Logger): AccountCaching {
  return {
    cache: new VersionedCache<{ value: unknown }>(
      redis,
      { generationKey: accountsGenerationKey(prefix), ttlMs: 60_000, negativeTtlMs: 60_000 },
      logger,
    ),
    changed: accountsChanged(redis, prefix),
  };
}
