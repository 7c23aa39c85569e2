import type { RedisClient } from '../../../../common/platform/redis';
import type { Logger } from '../../../../common/platform/logger';
import { buildEvent, publishPlatformEvent } from '../../../../common/contracts/platform-events';
import { credentialGenerationKey } from '../../../../common/platform/credential-cache';
import { bumpGeneration } from '../../../../common/platform/versioned-cache';
import { oneAtATime } from '../../../../common/platform/redis-lock';
import { forgetTokenUse, tokensLastUsed } from '../../../../common/contracts/token-use';
import type { KeysModels } from '../models';
import { accountCaching, accountsChanged } from './account-caching';
import { AccountService } from './account.service';
import { BillingService } from './billing.service';
import { CredentialService } from './credential.service';

/**
 * The account, credential and billing services wired the one way every writer must use them:
 * revocations drop every instance's credential caches, account writes drop account caches, key
 * changes become platform events, and changes of one key or plan take turns. `cacheReads` is for long-lived processes (the subgraph), not the CLI.
 */
export function createKeysServices(
  models: KeysModels,
  redis: RedisClient,
  prefix: string,
  logger: Logger,
  options: { cacheReads: boolean },
) {
  const accounts = new AccountService(
    models,
    options.cacheReads
      ? accountCaching(redis, prefix, logger)
      : { changed: accountsChanged(redis, prefix) },
    oneAtATime(redis, `${prefix}lock:members:`, 'The organization’s members'),
  );
  const credentials = new CredentialService(models, accounts, {
    exclusive: oneAtATime(redis, `${prefix}lock:api-key:`, 'The key'),
    revoked: () => bumpGeneration(redis, credentialGenerationKey(prefix)),
    tokensLastUsed: (tokenIds) => tokensLastUsed(redis, prefix, tokenIds),
    tokensRevoked: (tokenIds) => forgetTokenUse(redis, prefix, tokenIds),
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
    oneAtATime(redis, `${prefix}lock:plan:`, 'The organization’s plan'),
  );
  return { accounts, credentials, billing };
}
