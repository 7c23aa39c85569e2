import type { RedisClient } from './redis';
import type { Logger } from './logger';
import { VersionedCache } from './versioned-cache';

/** Incremented on every revocation: key deleted or regenerated, token revoked, plan changed. */
export const credentialGenerationKey = (prefix: string) => `${prefix}cred:generation`;

/**
 * What a credential hash resolves to, cached per process for 30 s (unknown hashes for 5 s) and
 * dropped on every instance at once when a credential is revoked.
 */
export function createCredentialCache<T extends object>(
  redis: RedisClient,
  prefix: string,
  logger: Logger,
): VersionedCache<T> {
  return new VersionedCache<T>(
    redis,
    { generationKey: credentialGenerationKey(prefix), ttlMs: 30_000, negativeTtlMs: 5_000 },
    logger,
  );
}
