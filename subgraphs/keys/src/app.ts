import { callLogStream } from '../../../common/contracts/call-log';
import type { Logger } from '../../../common/platform/logger';
import type { RedisClient } from '../../../common/platform/redis';
import { isMongoUnavailable } from '../../../common/platform/mongo-outage';
import { fromRoot } from '../../../common/platform/paths';
import { StreamConsumer } from '../../../common/platform/stream-consumer';
import { startSubgraph } from '../../../common/platform/subgraph-runtime';
import { createSubgraphApp } from '../../../common/platform/subgraph-server';
import type { KeysConfig } from './config';
import { createKeysLoaders, type KeysDeps } from './context';
import { createKeysModels, type KeysModels } from './models';
import { createDeclaredIndexes } from '../../../common/platform/mongo';
import { keysResolvers } from './resolvers';
import { AccessService, KeyAccessPolicy } from './services/access.service';
import type { GoalService } from './services/goal.service';
import { CallLogService } from './services/call-log.service';
import { createKeysServices } from './services/keys-services';
import { KeyExpiryJob } from './services/key-expiry.job';
import { PeriodicTask } from '../../../common/platform/periodic-task';
import { UsageStatsService } from './services/usage-stats.service';
import { UsageLedger } from './services/usage-ledger.service';
import { SignInService } from './services/sign-in.service';
import { createUserNoticeMailer } from './services/user-notice.mailer';
import { createWebsiteEventRelay } from './services/website-event-relay';
import type { AccountService } from './services/account.service';
import { createMailTransport } from '../../../common/platform/mail';
import { GOAL_MIRROR_EVERY_MS, writeGoalMirror } from '../../../common/contracts/goal-mirror';

/** The lease whose holder stores the call log and the usage ledger (the others stand by). */
export const callLogLeaseKey = (redisKeyPrefix: string) => `${redisKeyPrefix}keys:call-log-lease`;

export const KEYS_SCHEMA_PATH = fromRoot('subgraphs', 'keys', 'schema.graphql');

export interface KeysServices extends KeysDeps {
  expiryJob: KeyExpiryJob;
  callLogConsumer: StreamConsumer;
  noticeMailer: StreamConsumer;
}

export function startKeysSubgraph(config: KeysConfig, logger: Logger) {
  return startSubgraph<KeysServices>('keys', config, logger, async (stores) => {
    const { connection, redis, readiness, metrics } = stores;
    const models = createKeysModels(connection);
    await createDeclaredIndexes(models);
    const { accounts, credentials, billing, goals } = createKeysServices(
      models,
      redis,
      config.redisKeyPrefix,
      logger,
      { cacheReads: true },
    );
    const ledger = new UsageLedger(models, redis, config.redisKeyPrefix);
    const callLog = new CallLogService(models, ledger);
    const consumers = createConsumers(config, models, redis, callLog, accounts, logger);
    const { callLogConsumer, noticeMailer } = consumers;
    const expiryJob = new KeyExpiryJob(models, redis, config.redisKeyPrefix);
    const tasks = periodicTasks(config, expiryJob, goals, redis, logger);
    if (config.workersEnabled) {
      for (const consumer of Object.values(consumers)) {
        await consumer.start();
        metrics.watchStream(consumer);
      }
      await tasks.start();
    }
    const deps: KeysDeps = {
      accounts,
      credentials,
      access: new AccessService(accounts),
      keyPolicy: new KeyAccessPolicy(accounts),
      callLog,
      usageStats: new UsageStatsService(redis, config.redisKeyPrefix, ledger),
      ledger,
      billing,
      signIn: new SignInService(models, credentials, {
        sessionLifetimeMs: config.sessionLifetimeMs,
      }),
      goals,
    };
    const { app, apollo } = await createSubgraphApp<KeysDeps>({
      name: 'keys',
      schemaPath: KEYS_SCHEMA_PATH,
      resolvers: keysResolvers,
      deps,
      internalSecret: config.internalSecret,
      logger,
      readiness: config.workersEnabled
        ? [
            ...readiness,
            callLogConsumer.readinessCheck('call-log consumer'),
            noticeMailer.readinessCheck('user-notice mailer'),
            consumers.websiteEventRelay.readinessCheck('website-event relay'),
          ]
        : readiness,
      inlineTrace: config.inlineTrace,
      createLoaders: (d) => createKeysLoaders(d),
      metrics,
    });
    return {
      app,
      apollo,
      services: { ...deps, expiryJob, callLogConsumer, noticeMailer },
      async beforeClose() {
        await tasks.stop();
        for (const consumer of Object.values(consumers)) await consumer.stop();
      },
    };
  });
}

/**
 * The keys subgraph's stream consumers: the call log (stored by one instance at a time), the user
 * notices it mails, and the analytics' website findings it relays to the websites' members.
 */
function createConsumers(
  config: KeysConfig,
  models: KeysModels,
  redis: RedisClient,
  callLog: CallLogService,
  accounts: AccountService,
  logger: Logger,
) {
  const callLogConsumer = new StreamConsumer({
    redis,
    stream: callLogStream(config.redisKeyPrefix),
    group: 'keys-call-log',
    logger,
    deleteAcknowledged: true,
    // The usage ledger is read-modify-write (FerretDB's updates are not atomic): one instance
    // stores the call log at a time, the others stand by.
    exclusive: { leaseKey: callLogLeaseKey(config.redisKeyPrefix), leaseMs: 15_000 },
    handle: (entries) => callLog.store(entries),
    // Retried in place, so calls logged during a database outage are stored as soon as it ends
    // (not a claim timeout later); the outage itself never dead-letters them.
    retry: { maxAttempts: 10, isTransient: isMongoUnavailable },
  });
  const noticeMailer = createUserNoticeMailer({
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    models,
    mail: createMailTransport({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      logger,
      production: config.nodeEnv === 'production',
    }),
    logger,
  });
  const websiteEventRelay = createWebsiteEventRelay({
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    accounts,
    logger,
  });
  return { callLogConsumer, noticeMailer, websiteEventRelay };
}

/** The keys subgraph's timed work: the expiry scan, and the goal mirror (written at start too). */
function periodicTasks(
  config: KeysConfig,
  expiryJob: KeyExpiryJob,
  goals: GoalService,
  redis: RedisClient,
  logger: Logger,
) {
  const mirrorGoals = async () =>
    writeGoalMirror(redis, config.redisKeyPrefix, await goals.allByWebsite());
  const tasks = [
    new PeriodicTask(
      'key expiry scan',
      config.expiryScanIntervalMs,
      () => expiryJob.scan(),
      logger,
    ),
    new PeriodicTask('goal mirror', GOAL_MIRROR_EVERY_MS, mirrorGoals, logger),
  ];
  return {
    async start() {
      await mirrorGoals().catch((error: unknown) =>
        logger.warn({ err: (error as Error).message }, 'goal mirror not written at start'),
      );
      for (const task of tasks) task.start();
    },
    async stop() {
      for (const task of tasks) await task.stop();
    },
  };
}
