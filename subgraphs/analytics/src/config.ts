import { z } from 'zod';
import { loadAll, parseEnv, type Env } from '../../../common/config';
import { loadSubgraphConfig, type SubgraphConfig } from '../../../common/subgraph-config';

export interface AnalyticsConfig extends SubgraphConfig {
  /** Raw events and replay chunks older than this are deleted; counters are kept. */
  retentionDays: number;
  /** Most stream entries applied in one bulkWrite batch. */
  ingestBatchSize: number;
}

const analyticsSchema = z.object({
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  ANALYTICS_INGEST_BATCH: z.coerce.number().int().min(1).max(10_000).default(1_000),
});

export function loadAnalyticsConfig(env: Env): AnalyticsConfig {
  const [base, own] = loadAll(
    'analytics',
    () => loadSubgraphConfig('analytics', env, 'ANALYTICS_PORT', 4001, 'wa_analytics'),
    () =>
      parseEnv('analytics', analyticsSchema, {
        ANALYTICS_RETENTION_DAYS: env.ANALYTICS_RETENTION_DAYS,
        ANALYTICS_INGEST_BATCH: env.ANALYTICS_INGEST_BATCH,
      }),
  );
  return {
    ...base,
    retentionDays: own.ANALYTICS_RETENTION_DAYS,
    ingestBatchSize: own.ANALYTICS_INGEST_BATCH,
  };
}
