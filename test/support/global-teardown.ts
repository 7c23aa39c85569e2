/**
 * Jest globalTeardown: checks what the run left in Redis and deletes it (key-walk.ts: a key
 * without a time to live that no family of common/contracts/redis-keys.ts matches fails the run),
 * then stops the database engine and the Redis Cluster started by global-setup.ts (if it started
 * them) and removes their temp directories.
 */
import { rm } from 'node:fs/promises';
import { ENGINE_STATE_KEY, REDIS_CLUSTER_STATE_KEY, type EngineState } from './engine-state';
import { describeStrays, sweepRunKeys } from './key-walk';
import { openTestRedis, testRunPrefix } from './redis';
import type { LocalRedisCluster } from './redis-cluster';

export default async function globalTeardown(): Promise<void> {
  try {
    await checkRunKeys();
  } finally {
    await stopEngines();
  }
}

async function checkRunKeys(): Promise<void> {
  const runPrefix = testRunPrefix();
  const redis = await openTestRedis();
  let strays: string[];
  let walked: number;
  try {
    ({ strays, walked } = await sweepRunKeys(redis, runPrefix));
  } finally {
    redis.disconnect();
  }
  if (strays.length === 0) {
    process.stderr.write(
      `[key-walk] ${walked} Redis keys of this run (${runPrefix}*): each expires or is listed in common/contracts/redis-keys.ts; deleted\n`,
    );
    return;
  }
  throw new Error(
    [
      `[key-walk] ${strays.length} of the ${walked} Redis keys this run left (${runPrefix}*) have no time to live and belong to no family of common/contracts/redis-keys.ts (docs/scaling.md, "Keys without a time to live"). Give them a time to live, or list their family with its owner and bound:`,
      ...describeStrays(runPrefix, strays).map((line) => `  ${line}`),
    ].join('\n'),
  );
}

async function stopEngines(): Promise<void> {
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
