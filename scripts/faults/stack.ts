/**
 * The stack under test, all of it the suite's own: Redis and a MongoDB-compatible engine in a
 * temporary folder, and the five services from dist/ as child processes, every port free and on
 * loopback. `stop()` ends all of it and removes the folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mongoUriWithDatabase } from '../../common/config';
import { freePort } from '../lib/engines';
import { STACK_DATABASES } from '../lib/stack-record';
import { SERVICES, type ServiceName } from '../lib/stack-services';
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

    const urls = new Map<ServiceName, string>();
    const ports = new Map<ServiceName, number>();
    for (const spec of SERVICES) {
      const port = await freePort();
      ports.set(spec.name, port);
      urls.set(spec.name, `http://127.0.0.1:${port}`);
    }
    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const mongoServer = `mongodb://127.0.0.1:${mongo.port}/`;
    const shared: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX,
      INTERNAL_SECRET: randomBytes(32).toString('hex'),
      ANALYTICS_URL: `${urls.get('analytics')}/graphql`,
      KEYS_URL: `${urls.get('keys')}/graphql`,
      WEBHOOKS_URL: `${urls.get('webhooks')}/graphql`,
      PUBLIC_API_URL: urls.get('rest-facade'),
      ANALYTICS_SEAL_QUIET_SECONDS: '1',
      SHUTDOWN_DRAIN_SECONDS: '2',
    };
    delete shared.MONGODB_URI;
    const envs = new Map<ServiceName, NodeJS.ProcessEnv>(
      SERVICES.map((spec) => [
        spec.name,
        {
          ...shared,
          [spec.portVariable]: String(ports.get(spec.name)),
          ...(spec.database
            ? { MONGODB_URI: mongoUriWithDatabase(mongoServer, spec.database) }
            : {}),
        },
      ]),
    );
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
      adminEnv: {
        ...process.env,
        MONGODB_URI: mongoUriWithDatabase(mongoServer, STACK_DATABASES.keys),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX,
        LOG_LEVEL: 'warn',
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
