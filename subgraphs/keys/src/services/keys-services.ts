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
import { BillingService } from './billing.service';
import { CredentialService } from './credential.service';

/** A change is one or two database writes; waiting 2 s for another change of it is plenty. */
const CHANGE_LOCK = { ttlMs: 10_000, waitMs: 2_000 };

/**
 * Runs changes of one thing (an API key, an organization's plan) one at a time across instances:
 * FerretDB 1.x applies a conditional update as a read-modify-write of the whole document, so two
 * overlapping changes of one document could lose one. Waiting too long is a 409.
 */
function oneAtATime(redis: Redis, prefix: string, kind: string, what: string) {
  return async <T>(id: string, change: () => Promise<T>): Promise<T> => {
    try {
      return await withRedisLock(redis, `${prefix}lock:${kind}:${id}`, CHANGE_LOCK, change);
    } catch (error) {
      if (error instanceof LockBusyError)
        throw new AppError(
          'conflict',
          `${what} is being changed by another request; try again`,
          409,
        );
      throw error;
    }
  };
}

/**
 * The account, credential and billing services wired the one way every writer must use them: revocations
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
    exclusive: oneAtATime(redis, prefix, 'api-key', 'The key'),
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
  const billing = new BillingService(
    models,
    accounts,
    oneAtATime(redis, prefix, 'plan', 'The organization’s plan'),
  );
  return { accounts, credentials, billing };
}
