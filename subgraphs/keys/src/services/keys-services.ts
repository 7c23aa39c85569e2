import type { Redis } from 'ioredis';
import type { Logger } from '../../../../common/logger';
import { buildEvent, publishPlatformEvent } from '../../../../common/platform-events';
import { credentialGenerationKey } from '../../../../common/credential-cache';
import { bumpGeneration } from '../../../../common/versioned-cache';
import { AppError } from '../../../../common/errors';
import { LockBusyError, withRedisLock } from '../../../../common/redis-lock';
import type { KeysModels } from '../models';
import { accountCaching, accountsChanged } from './account-caching';
import { AccountService } from './account.service';
import { CredentialService } from './credential.service';

/** A key change is one database write; waiting 2 s for another change of the key is plenty. */
const KEY_LOCK = { ttlMs: 10_000, waitMs: 2_000 };

const keyBusy = () =>
  new AppError('conflict', 'The key is being changed by another request; try again', 409);

/**
 * The account and credential services wired the one way every writer must use them: revocations
 * drop every instance's credential caches, account writes drop account caches, and key changes
 * become platform events. `cacheReads` is for long-lived processes (the subgraph), not the CLI.
 */
export function createKeysServices(
  models: KeysModels,
  redis: Redis,
  prefix: string,
  logger: Logger,
  options: { cacheReads: boolean },
) {
  const accounts = new AccountService(
    models,
    options.cacheReads
      ? accountCaching(redis, prefix, logger)
      : { changed: accountsChanged(redis, prefix) },
  );
  const credentials = new CredentialService(models, accounts, {
    exclusive: async (keyId, change) => {
      try {
        return await withRedisLock(redis, `${prefix}lock:api-key:${keyId}`, KEY_LOCK, change);
      } catch (error) {
        if (error instanceof LockBusyError) throw keyBusy();
        throw error;
      }
    },
    revoked: () => bumpGeneration(redis, credentialGenerationKey(prefix)),
    keyChanged: async (type, key) => {
      const event = buildEvent(type, key.userId, key.organizationId, {
        keyId: key.id,
        name: key.name,
        prefix: key.prefix,
        expiresAt: key.expiresAt?.toISOString() ?? null,
      });
      await publishPlatformEvent(redis, prefix, event).catch((error: unknown) =>
        logger.error(
          { err: (error as Error).message, eventId: event.id, type },
          'could not publish key event',
        ),
      );
    },
  });
  return { accounts, credentials };
}
