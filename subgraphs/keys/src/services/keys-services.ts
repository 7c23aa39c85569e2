import type { RedisClient } from '../../../../common/platform/redis';
import type { Logger } from '../../../../common/platform/logger';
import { buildEvent, publishPlatformEvent } from '../../../../common/contracts/platform-events';
import { credentialGenerationKey } from '../../../../common/platform/credential-cache';
import { bumpGeneration } from '../../../../common/platform/versioned-cache';
import { oneAtATime } from '../../../../common/platform/redis-lock';
import { forgetTokenUse, tokensLastUsed } from '../../../../common/contracts/token-use';
import type { KeysModels } from '../models';
import { accountCaching, accountsChanged, goalsChanged } from './account-caching';
import { AccountService } from './account.service';
import { BillingService } from './billing.service';
import { CredentialService } from './credential.service';
import { GoalService } from './goal.service';
import { writeWebsiteGoals } from '../../../../common/contracts/goal-mirror';

/**
 * The account, credential, billing and goal services wired the one way every writer must use
 * them: revocations drop every instance's credential caches, account and goal writes drop account
 * caches, key changes become platform events, and changes of one key or plan, and goal creations
 * for one website, take turns. `cacheReads` is for long-lived processes (the subgraph), not the CLI.
 */
export function createKeysServices(
  models: KeysModels,
  redis: RedisClient,
  prefix: string,
  logger: Logger,
  options: { cacheReads: boolean },
) {
  const caching = options.cacheReads
    ? accountCaching(redis, prefix, logger)
    : { changed: accountsChanged(redis, prefix) };
  const accounts = new AccountService(
    models,
    caching,
    oneAtATime(redis, `${prefix}lock:members:`, 'The organization’s members'),
  );
  const announceGoals = goalsChanged(redis, prefix);
  const goals: GoalService = new GoalService(models, {
    cache: caching.cache,
    changed: async (websiteId) => {
      await announceGoals(websiteId);
      // The goal alerts see the change at once; the hourly copy would catch up anyway.
      await writeWebsiteGoals(redis, prefix, websiteId, await goals.mirroredOf(websiteId)).catch(
        (error: unknown) =>
          logger.warn({ err: (error as Error).message, websiteId }, 'goal mirror not updated'),
      );
    },
    turns: oneAtATime(redis, `${prefix}lock:goals:`, 'The website’s goals'),
  });
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
  return { accounts, credentials, billing, goals };
}
