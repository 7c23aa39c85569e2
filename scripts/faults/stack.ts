/**
 * The stack under test, all of it the suite's own: Redis and a MongoDB-compatible engine in a
 * temporary folder, and the five services from dist/ as child processes, every port free and on
 * loopback. `stop()` ends all of it and removes the folder.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stackEnvironments } from '../lib/service-env';
import { mongoEngine, OwnEngine, redisEngine } from './engines';
import { trackFolder } from './leftovers';
import { Services } from './services';

const REDIS_KEY_PREFIX = 'faults:';

export interface FaultStack {
  redis: OwnEngine;
  mongo: OwnEngine;
  services: Services;
  facadeUrl: string;
  gatewayUrl: string;
  redisKeyPrefix: string;
  /** What the admin CLI needs to reach the keys database and Redis. */
  adminEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * Starts everything. The services' environment is npm start's, with SHUTDOWN_DRAIN_SECONDS=2
 * and seals after one quiet second; their logs (LOG_LEVEL=warn) go to `logDir`.
 */
export async function startFaultStack(
  logDir: string,
  say: (text: string) => void,
): Promise<FaultStack> {
  const workDir = trackFolder(mkdtempSync(path.join(tmpdir(), 'wa-faults-')));
  const stoppers: Array<() => Promise<void>> = [
    async () => rmSync(workDir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const step of stoppers.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    mkdirSync(logDir, { recursive: true });
    const redisDir = path.join(workDir, 'redis');
    const mongoDir = path.join(workDir, 'mongo');
    mkdirSync(redisDir);
    mkdirSync(mongoDir);
    const redis = await OwnEngine.start(redisEngine(), redisDir);
    stoppers.push(() => redis.stop());
    const mongo = await OwnEngine.start(mongoEngine(), mongoDir);
    stoppers.push(() => mongo.stop());
    say(`redis-server on 127.0.0.1:${redis.port}, ${mongo.kind} on 127.0.0.1:${mongo.port}`);

    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const { urls, envs, adminEnv } = await stackEnvironments({
      redisUrl,
      mongoServer: `mongodb://127.0.0.1:${mongo.port}/`,
      redisKeyPrefix: REDIS_KEY_PREFIX,
      // Without the read cache: the suite's reads repeat, and cached answers would make the normal
      // p50 it compares outages with the cache's rather than the operations' (docs/faults.md).
      // Webhook receivers on loopback, retried after 1 s, 3 s, 9 s… (redis_lost_in_flight).
      extra: {
        ANALYTICS_SEAL_QUIET_SECONDS: '1',
        SHUTDOWN_DRAIN_SECONDS: '2',
        READ_CACHE: 'off',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        WEBHOOK_RETRY_BASE_MS: '1000',
      },
    });
    const services = new Services(envs, urls, logDir, say);
    stoppers.push(async () => void (await services.stopAll()));
    await services.startAll();
    say(`five services ready; their logs are in ${path.relative(process.cwd(), logDir)}/`);

    return {
      redis,
      mongo,
      services,
      facadeUrl: services.url('rest-facade'),
      gatewayUrl: services.url('gateway'),
      redisKeyPrefix: REDIS_KEY_PREFIX,
      adminEnv,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
