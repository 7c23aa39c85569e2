import type { StartedEngine } from '../../scripts/lib/engines';

/** Shared by global-setup.ts and global-teardown.ts (same process, same globalThis). */
export const ENGINE_STATE_KEY = '__WA_TEST_DB_ENGINE__';
/** The Redis Cluster global-setup.ts started (TEST_REDIS_CLUSTER), a LocalRedisCluster. */
export const REDIS_CLUSTER_STATE_KEY = '__WA_TEST_REDIS_CLUSTER__';

export interface EngineState {
  engine: StartedEngine;
  tmpDir: string;
}
