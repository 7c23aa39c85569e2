import { totalmem } from 'node:os';
import { z } from 'zod';
import { booleanFlag, loadAll, parseEnv, type Env } from '../../../common/platform/config';
import { loadSubgraphConfig, type SubgraphConfig } from '../../../common/platform/subgraph-config';

export interface AnalyticsConfig extends SubgraphConfig {
  /** Raw events, replay chunks and visitor records older than this are deleted; counters are kept. */
  retentionDays: number;
  /** Most stream entries applied in one batch. */
  ingestBatchSize: number;
  /** How long a day at least two days old must go without events before it is sealed. */
  sealQuietMs: number;
  /** Memory for sealed snapshots kept parsed in process (they never change). */
  cacheBytes: number;
  /** The event-level engine (docs/analytics.md, "The engine"). */
  engine: { threads: number | undefined; memoryLimit: string; maxWebsites: number };
  /** Look for traffic changes and daily reports (services/website-alerts.service.ts). */
  alertsEnabled: boolean;
}

const analyticsSchema = z.object({
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  ANALYTICS_INGEST_BATCH: z.coerce.number().int().min(1).max(10_000).default(1_000),
  ANALYTICS_SEAL_QUIET_SECONDS: z.coerce.number().min(0).max(86_400).default(600),
  ANALYTICS_CACHE_MB: z.coerce.number().int().min(16).max(65_536).default(256),
  /** DuckDB's threads; unset: one per core. */
  ANALYTICS_ENGINE_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  /** What DuckDB holds in memory before it spills to disk; unset: a quarter of the memory here. */
  ANALYTICS_ENGINE_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(64)
    .max(1_048_576)
    .default(() => quarterOfMemoryMb()),
  ANALYTICS_ENGINE_WEBSITES: z.coerce.number().int().min(1).max(1_000_000).default(200),
  ANALYTICS_ALERTS_ENABLED: booleanFlag(true),
});

/**
 * A quarter of the memory this process may use: the machine's, or its container's limit where
 * one is set (a container reports the host's memory as the machine's); at least 512 MB.
 */
export function quarterOfMemoryMb(): number {
  const limit = process.constrainedMemory();
  const memory = limit > 0 ? Math.min(limit, totalmem()) : totalmem();
  return Math.max(512, Math.floor(memory / 4 / 1024 / 1024));
}

export function loadAnalyticsConfig(env: Env): AnalyticsConfig {
  const [base, own] = loadAll(
    'analytics',
    () => loadSubgraphConfig('analytics', env, 'ANALYTICS_PORT', 4001, 'wa_analytics'),
    () =>
      parseEnv('analytics', analyticsSchema, {
        ANALYTICS_RETENTION_DAYS: env.ANALYTICS_RETENTION_DAYS,
        ANALYTICS_INGEST_BATCH: env.ANALYTICS_INGEST_BATCH,
        ANALYTICS_SEAL_QUIET_SECONDS: env.ANALYTICS_SEAL_QUIET_SECONDS,
        ANALYTICS_CACHE_MB: env.ANALYTICS_CACHE_MB,
        ANALYTICS_ENGINE_THREADS: env.ANALYTICS_ENGINE_THREADS,
        ANALYTICS_ENGINE_MEMORY_MB: env.ANALYTICS_ENGINE_MEMORY_MB,
        ANALYTICS_ENGINE_WEBSITES: env.ANALYTICS_ENGINE_WEBSITES,
        ANALYTICS_ALERTS_ENABLED: env.ANALYTICS_ALERTS_ENABLED,
      }),
  );
  return {
    ...base,
    retentionDays: own.ANALYTICS_RETENTION_DAYS,
    ingestBatchSize: own.ANALYTICS_INGEST_BATCH,
    sealQuietMs: own.ANALYTICS_SEAL_QUIET_SECONDS * 1000,
    cacheBytes: own.ANALYTICS_CACHE_MB * 1024 * 1024,
    engine: {
      threads: own.ANALYTICS_ENGINE_THREADS,
      memoryLimit: `${own.ANALYTICS_ENGINE_MEMORY_MB}MB`,
      maxWebsites: own.ANALYTICS_ENGINE_WEBSITES,
    },
    alertsEnabled: own.ANALYTICS_ALERTS_ENABLED,
  };
}
