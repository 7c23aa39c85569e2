import type { Logger } from '../../../common/platform/logger';
import { fromRoot } from '../../../common/platform/paths';
import { PeriodicTask } from '../../../common/platform/periodic-task';
import { startSubgraph } from '../../../common/platform/subgraph-runtime';
import { createSubgraphApp } from '../../../common/platform/subgraph-server';
import type { AnalyticsConfig } from './config';
import { createAnalyticsLoaders, type AnalyticsDeps } from './context';
import { analyticsResolvers } from './resolvers';
import { IngestService } from './services/ingest.service';
import { ReadModel } from './services/read-model';
import { RETENTION_EVERY_MS, RetentionService } from './services/retention.service';
import { StatsService } from './services/stats.service';
import { StatsQueryService } from './services/stats-query.service';
import { openEngine } from './engine';
import { TotalsService } from './services/totals.service';
import { ALERT_CHECK_EVERY_MS, WebsiteAlertsService } from './services/website-alerts.service';
import { publishWebsiteEvent, type WebsiteEvent } from '../../../common/contracts/website-events';
import type { RedisClient } from '../../../common/platform/redis';
import type { DayIndexStore } from './store/day-index';
import { readGoalMirror } from '../../../common/contracts/goal-mirror';
import { GoalAlertsService } from './services/goal-alerts.service';
import { createAnalyticsStore } from './store';

export const ANALYTICS_SCHEMA_PATH = fromRoot('subgraphs', 'analytics', 'schema.graphql');

export function startAnalyticsSubgraph(config: AnalyticsConfig, logger: Logger) {
  return startSubgraph<AnalyticsDeps>('analytics', config, logger, async (stores) => {
    const { connection, redis, readiness, metrics } = stores;
    const store = createAnalyticsStore(connection, redis, config.redisKeyPrefix, config.cacheBytes);
    const engine = await openEngine(connection, redis, store.keys, store.raw, config.engine);
    const model = new ReadModel(
      redis,
      store.keys,
      store.index,
      store.snapshots,
      store.windows,
      store.hotCacheBytes,
    );
    const statsQuery = new StatsQueryService(model, engine.tables, engine.duck);
    const deps: AnalyticsDeps = {
      totals: new TotalsService(model),
      stats: new StatsService(model, config.retentionDays),
      statsQuery,
      ...createAlerts(statsQuery, store.index, redis, config.redisKeyPrefix, logger),
      ingest: new IngestService({ ...store, codec: engine.codec, sealed: engine.sealed }, logger, {
        redisKeyPrefix: config.redisKeyPrefix,
        batchSize: config.ingestBatchSize,
        sealQuietMs: config.sealQuietMs,
        metrics,
      }),
      retention: new RetentionService(store.raw, store.snapshots, config.retentionDays),
    };
    const { app, apollo } = await createSubgraphApp<AnalyticsDeps>({
      name: 'analytics',
      schemaPath: ANALYTICS_SCHEMA_PATH,
      resolvers: analyticsResolvers,
      deps,
      internalSecret: config.internalSecret,
      logger,
      readiness: [...readiness, deps.ingest.readinessCheck()],
      inlineTrace: config.inlineTrace,
      createLoaders: (d) => createAnalyticsLoaders(d),
      metrics,
    });
    await deps.ingest.start();
    const retentionJob = new PeriodicTask(
      'retention clean-up',
      RETENTION_EVERY_MS,
      () => deps.retention.purge(),
      logger,
    );
    retentionJob.start();
    const alertsJob = new PeriodicTask(
      'website alerts',
      ALERT_CHECK_EVERY_MS,
      async () => {
        await deps.alerts.check();
        await deps.goalAlerts.check();
      },
      logger,
    );
    if (config.alertsEnabled) alertsJob.start();
    return {
      app,
      apollo,
      services: deps,
      beforeClose: async () => {
        await retentionJob.stop();
        await alertsJob.stop();
        await deps.ingest.stop();
        engine.close();
      },
    };
  });
}

/** The findings for webhooks' alerts: traffic changes and daily reports, and goals reached. */
function createAlerts(
  statsQuery: StatsQueryService,
  index: DayIndexStore,
  redis: RedisClient,
  prefix: string,
  logger: Logger,
) {
  const publish = (event: WebsiteEvent) => publishWebsiteEvent(redis, prefix, event);
  return {
    alerts: new WebsiteAlertsService(statsQuery, index, publish, logger),
    goalAlerts: new GoalAlertsService(
      statsQuery,
      redis,
      prefix,
      () => readGoalMirror(redis, prefix),
      publish,
      logger,
    ),
  };
}
