/**
 * The environment of each of the five services of a stack that a script starts on its own
 * engines (the fault suite, the Prism check): every port free and on loopback, the subgraph URLs
 * between them, each database on the one MongoDB server.
 */
import { randomBytes } from 'node:crypto';
import { mongoUriWithDatabase } from '../../common/platform/config';
import { freePort } from './engines';
import { STACK_DATABASES } from './stack-record';
import { SERVICES, type ServiceName } from './stack-services';

export interface StackEnvironments {
  urls: Map<ServiceName, string>;
  envs: Map<ServiceName, NodeJS.ProcessEnv>;
  /** What the admin CLI needs to reach the keys database and Redis. */
  adminEnv: NodeJS.ProcessEnv;
}

export async function stackEnvironments(options: {
  redisUrl: string;
  mongoServer: string;
  redisKeyPrefix: string;
  /** Added to every service's environment (and overriding the defaults). */
  extra: NodeJS.ProcessEnv;
}): Promise<StackEnvironments> {
  const { redisUrl, mongoServer, redisKeyPrefix } = options;
  const urls = new Map<ServiceName, string>();
  const ports = new Map<ServiceName, number>();
  for (const spec of SERVICES) {
    const port = await freePort();
    ports.set(spec.name, port);
    urls.set(spec.name, `http://127.0.0.1:${port}`);
  }
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    ANALYTICS_URL: `${urls.get('analytics')}/graphql`,
    KEYS_URL: `${urls.get('keys')}/graphql`,
    WEBHOOKS_URL: `${urls.get('webhooks')}/graphql`,
    PUBLIC_API_URL: urls.get('rest-facade'),
    ...options.extra,
  };
  delete shared.MONGODB_URI;
  const envs = new Map<ServiceName, NodeJS.ProcessEnv>(
    SERVICES.map((spec) => [
      spec.name,
      {
        ...shared,
        [spec.portVariable]: String(ports.get(spec.name)),
        ...(spec.database ? { MONGODB_URI: mongoUriWithDatabase(mongoServer, spec.database) } : {}),
      },
    ]),
  );
  const adminEnv = {
    ...process.env,
    MONGODB_URI: mongoUriWithDatabase(mongoServer, STACK_DATABASES.keys),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    LOG_LEVEL: 'warn',
  };
  return { urls, envs, adminEnv };
}
