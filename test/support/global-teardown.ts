/**
 * Jest globalTeardown: stops the database engine and the Redis Cluster started by global-setup.ts
 * (if it started them) and removes their temp directories. Nothing to do when the tests used an
 * external MONGODB_URI and Redis.
 */
import { rm } from 'node:fs/promises';
import { ENGINE_STATE_KEY, REDIS_CLUSTER_STATE_KEY, type EngineState } from './engine-state';
import type { LocalRedisCluster } from './redis-cluster';

export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const cluster = globals[REDIS_CLUSTER_STATE_KEY] as LocalRedisCluster | undefined;
  delete globals[REDIS_CLUSTER_STATE_KEY];
  await cluster?.stop();
  const state = globals[ENGINE_STATE_KEY] as EngineState | undefined;
  if (!state) return;
  delete globals[ENGINE_STATE_KEY];
  await state.engine.stop();
  await rm(state.tmpDir, { recursive: true, force: true });
}
