/**
 * Jest globalSetup: provides a MongoDB-compatible engine and checks Redis for the whole test run.
 *
 * MongoDB: `MONGODB_URI` if set; otherwise a fresh, throw-away engine on a free 127.0.0.1 port —
 * FerretDB (SQLite backend) from PATH or `.tools/bin/ferretdb` (`npm run ferretdb:install`), or
 * `mongod` from PATH. Test files read `process.env.TEST_MONGODB_URI` (ends with `/`) and append
 * their own database name.
 *
 * Redis: `REDIS_URL` or `redis://127.0.0.1:6379`, exposed as `process.env.TEST_REDIS_URL`. With
 * `TEST_REDIS_CLUSTER=1` (`npm run test:cluster`), a throw-away three-master Redis Cluster of local
 * redis-server processes instead (redis-cluster.ts), as a `redis+cluster://` URL: every stack and
 * test connection then runs on the cluster.
 *
 * The run's id (`TEST_RUN_ID`) starts every Redis key prefix of the run (redis.ts, testRunPrefix),
 * so that global-teardown.ts checks and deletes this run's keys only.
 *
 * Environment changes made here are inherited by the jest workers, which start afterwards.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findMongoEngine,
  message,
  onPath,
  pingMongo,
  pingRedisUrl,
  startEngine,
} from '../../scripts/lib/engines';
import { ENGINE_STATE_KEY, REDIS_CLUSTER_STATE_KEY, type EngineState } from './engine-state';
import { startRedisCluster } from './redis-cluster';

export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  process.env.TEST_REDIS_URL = await provideRedis();
  process.env.TEST_MONGODB_URI = await provideMongo();
}

async function provideMongo(): Promise<string> {
  const external = process.env.MONGODB_URI;
  if (external) {
    const base = baseUri(external);
    await pingMongo(base, 10_000).catch((error: unknown) => {
      throw new Error(`MONGODB_URI is set but not reachable (${base}): ${message(error)}`);
    });
    return base;
  }
  const engine = findMongoEngine();
  if (!engine) {
    throw new Error(
      'No MongoDB-compatible engine for the integration tests: neither MONGODB_URI is set, nor ' +
        '`ferretdb` / `mongod` is on PATH, nor .tools/bin/ferretdb exists.\n' +
        'Run `npm run ferretdb:install` (builds FerretDB into .tools/bin; needs Go), ' +
        'or set MONGODB_URI=mongodb://host:27017/',
    );
  }
  const tmpDir = await mkdtemp(join(tmpdir(), 'wa-test-db-'));
  try {
    const started = await startEngine(engine, tmpDir);
    (globalThis as Record<string, unknown>)[ENGINE_STATE_KEY] = {
      engine: started,
      tmpDir,
    } satisfies EngineState;
    // Last resort if jest exits without running global-teardown.ts (which removes the state).
    process.once('exit', () => {
      if (!(ENGINE_STATE_KEY in globalThis)) return;
      if (started.child.exitCode === null && started.child.signalCode === null)
        started.child.kill('SIGKILL');
      rmSync(tmpDir, { recursive: true, force: true });
    });
    return `mongodb://127.0.0.1:${started.port}/`;
  } catch (error) {
    await rm(tmpDir, { recursive: true, force: true });
    throw error;
  }
}

/** `mongodb://user:pw@host:27017/db?x=y` → `mongodb://user:pw@host:27017/` (tests add the db). */
function baseUri(uri: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match?.[1]) throw new Error(`MONGODB_URI is not a mongodb:// URI: ${uri}`);
  if (match[3])
    console.warn(`[global-setup] MONGODB_URI options ${match[3]} are dropped for the tests`);
  return `${match[1]}/`;
}

/**
 * A throw-away Redis Cluster with TEST_REDIS_CLUSTER; else REDIS_URL, else a local Redis, else a
 * throw-away redis-server when one is installed.
 */
async function provideRedis(): Promise<string> {
  if (process.env.TEST_REDIS_CLUSTER === '1') {
    const cluster = await startRedisCluster();
    (globalThis as Record<string, unknown>)[REDIS_CLUSTER_STATE_KEY] = cluster;
    process.once('exit', () => {
      if (REDIS_CLUSTER_STATE_KEY in globalThis) cluster.kill();
    });
    return cluster.url;
  }
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  try {
    await pingRedisUrl(url);
    return url;
  } catch (error) {
    const path = process.env.REDIS_URL ? undefined : onPath('redis-server');
    if (!path) {
      throw new Error(
        `Redis is not reachable at ${url} (${message(error)}). Start one (e.g. \`redis-server --daemonize yes\`), install redis-server, or set REDIS_URL.`,
        { cause: error },
      );
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'wa-test-redis-'));
    const started = await startEngine({ kind: 'redis-server', path }, dataDir);
    process.once('exit', () => {
      if (started.child.exitCode === null) started.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });
    return `redis://127.0.0.1:${started.port}`;
  }
}
