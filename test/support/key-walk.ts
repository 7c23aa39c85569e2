/**
 * What a test run leaves in Redis, checked when every test file is done (global-teardown.ts):
 * every key of the run must expire by itself or belong to a family of
 * common/contracts/redis-keys.ts (docs/scaling.md, "Keys without a time to live"). Every prefix
 * of a run starts with `test:<run id>:` (redis.ts, testRunPrefix), so the walk sees this run's
 * keys only, on one server or on every master of a cluster, whatever other runs share the Redis.
 */
import type { Redis } from 'ioredis';
import { familyWithoutTtl } from '../../common/contracts/redis-keys';
import { keyHolders, type RedisClient } from '../../common/platform/redis';

/** Keys asked about per pipeline. */
const BATCH = 500;

export interface RunKeys {
  /** How many keys the run left. */
  walked: number;
  /** Those without a time to live that no family matches. */
  strays: string[];
}

/**
 * Walks every key under `runPrefix` and returns the strays; then deletes every key of the run
 * (with or without a time to live), whatever the verdict.
 */
export async function sweepRunKeys(redis: RedisClient, runPrefix: string): Promise<RunKeys> {
  const run: RunKeys = { walked: 0, strays: [] };
  for (const node of keyHolders(redis)) {
    const keys = await scan(node, `${runPrefix}*`);
    run.walked += keys.length;
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      const ttls = await replies(node, batch, (pipeline, key) => pipeline.pttl(key));
      batch.forEach((key, j) => {
        // -1: no time to live (-2: gone meanwhile).
        if (ttls[j] === -1 && !familyWithoutTtl(afterPrefix(runPrefix, key))) run.strays.push(key);
      });
      await replies(node, batch, (pipeline, key) => pipeline.unlink(key));
    }
  }
  return run;
}

/** The strays by shape (`<p>` and ids replaced), with how many each and one of them in full. */
export function describeStrays(runPrefix: string, strays: readonly string[]): string[] {
  const shapes = new Map<string, { count: number; example: string }>();
  for (const key of strays) {
    const shape = `<p>${shapeOf(afterPrefix(runPrefix, key))}`;
    const seen = shapes.get(shape) ?? { count: 0, example: key };
    seen.count += 1;
    shapes.set(shape, seen);
  }
  return [...shapes].map(
    ([shape, { count, example }]) =>
      `${shape}  ×${count}  (e.g. ${example.length > 160 ? `${example.slice(0, 160)}…` : example})`,
  );
}

/** A key of the run without `test:<run id>:<its user's name>:`, as the platform named it. */
const afterPrefix = (runPrefix: string, key: string) =>
  key.slice(runPrefix.length).replace(/^[^:]*:/, '');

const shapeOf = (key: string) =>
  key
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/[0-9a-f]{24}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}/g, '<hour>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<day>')
    .replace(/[^:{}]{100,}/g, '<long>')
    .replace(/\d{5,}/g, '<n>');

async function scan(node: Redis, match: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** One command per key on `node` (where SCAN found them), in one pipeline; their replies. */
async function replies(
  node: Redis,
  keys: readonly string[],
  command: (pipeline: ReturnType<Redis['pipeline']>, key: string) => void,
): Promise<unknown[]> {
  const pipeline = node.pipeline();
  for (const key of keys) command(pipeline, key);
  const results = (await pipeline.exec()) ?? [];
  return results.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
