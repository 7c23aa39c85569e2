import type { Redis } from 'ioredis';
import { z } from 'zod';
import { baseEnvSchema, mongoUri, parseEnv, redisUrl, type Env } from '../../common/config';
import { createLogger } from '../../common/logger';
import { connectMongo, createDeclaredIndexes } from '../../common/mongo';
import { createRedis, waitForRedis } from '../../common/redis';
import { createKeysModels, type KeysModels } from '../../subgraphs/keys/src/models';
import { createKeysServices } from '../../subgraphs/keys/src/services/keys-services';
import { readStackRecord } from './stack-record';

/**
 * What scripts that write accounts need: the keys database and Redis, no port or secret. Unset,
 * they are those of the `npm start` running now (.data/stack.json), else the local defaults.
 */
export function loadKeysStoresConfig(env: Env, running = readStackRecord()) {
  const parsed = parseEnv(
    'keys stores',
    z.object({
      MONGODB_URI: mongoUri.default(running?.keysMongoUri ?? 'mongodb://127.0.0.1:27017/wa_keys'),
      REDIS_URL: redisUrl.default(running?.redisUrl ?? 'redis://127.0.0.1:6379'),
      REDIS_KEY_PREFIX: running
        ? baseEnvSchema.shape.REDIS_KEY_PREFIX.unwrap().default(running.redisKeyPrefix)
        : baseEnvSchema.shape.REDIS_KEY_PREFIX,
    }),
    env,
  );
  return {
    mongoUri: parsed.MONGODB_URI,
    redisUrl: parsed.REDIS_URL,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX,
  };
}

export type KeysStores = ReturnType<typeof createKeysServices> & {
  models: KeysModels;
  redis: Redis;
  redisKeyPrefix: string;
};

/**
 * Connects to the keys stores, runs `work` with the keys subgraph's own services (same rules,
 * same cache invalidation and events as the subgraph), and disconnects.
 */
export async function withKeysStores<T>(
  name: string,
  work: (stores: KeysStores) => Promise<T>,
): Promise<T> {
  const config = loadKeysStoresConfig(process.env);
  const connection = await connectMongo(config.mongoUri);
  const redis = createRedis(config.redisUrl);
  redis.on('error', () => undefined);
  try {
    await waitForRedis(redis);
    const models = createKeysModels(connection);
    await createDeclaredIndexes(models);
    const services = createKeysServices(
      models,
      redis,
      config.redisKeyPrefix,
      createLogger(name, 'error'),
      { cacheReads: false },
    );
    return await work({ ...services, models, redis, redisKeyPrefix: config.redisKeyPrefix });
  } finally {
    await connection.close();
    redis.disconnect();
  }
}
