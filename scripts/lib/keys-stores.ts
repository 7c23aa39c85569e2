import type { RedisClient } from '../../common/platform/redis';
import { z } from 'zod';
import {
  baseEnvSchema,
  mongoUriDefaultingTo,
  mongoUriWithDatabase,
  parseEnv,
  redisUrl,
  type Env,
} from '../../common/platform/config';
import { createLogger } from '../../common/platform/logger';
import { connectMongo, createDeclaredIndexes } from '../../common/platform/mongo';
import { createRedis, waitForRedis } from '../../common/platform/redis';
import { createKeysModels, type KeysModels } from '../../subgraphs/keys/src/models';
import { createKeysServices } from '../../subgraphs/keys/src/services/keys-services';
import { message, pingMongo, redactUri } from './engines';
import {
  engineRecordFile,
  readEngineRecord,
  readStackRecord,
  stackRecordFile,
  STACK_DATABASES,
  type EngineRecord,
  type StackRecord,
} from './stack-record';

/** Where scripts that write accounts work: the keys database and Redis, and what chose them. */
export interface KeysStoresConfig {
  mongoUri: string;
  redisUrl: string;
  redisKeyPrefix: string;
  /** What chose the database, for the line admin and seed print on stderr. */
  source: string;
}

/** What `npm start` left for the scripts beside it: the stack running now, the engine it last started. */
export interface StackRecords {
  running: StackRecord | null;
  engine: EngineRecord | null;
}

/** Thrown when no setting or record names a keys database that answers. */
export class NoKeysDatabaseError extends Error {
  override name = 'NoKeysDatabaseError';
}

const DEFAULT_SERVER = 'mongodb://127.0.0.1:27017/';
const HOW_TO_FIX = 'start the stack (npm start), or set MONGODB_URI to the keys database';

async function answersWithin1500Ms(uri: string): Promise<boolean> {
  return pingMongo(uri, 1_500).then(
    () => true,
    () => false,
  );
}

/**
 * The keys database and Redis for admin and seed, first found of: MONGODB_URI (one naming no
 * database means `wa_keys`, as npm start reads it); the `npm start` running now; the engine the
 * last `npm start` started (`.data/engine.json`), if it answers; `127.0.0.1:27017`, if it answers.
 * Otherwise a NoKeysDatabaseError that says what was tried. REDIS_URL and REDIS_KEY_PREFIX, unset,
 * are the running stack's, else the services' defaults.
 */
export async function chooseKeysStores(
  env: Env,
  records: StackRecords = { running: readStackRecord(), engine: readEngineRecord() },
  answers: (uri: string) => Promise<boolean> = answersWithin1500Ms,
): Promise<KeysStoresConfig> {
  const { running, engine } = records;
  const prefix = baseEnvSchema.shape.REDIS_KEY_PREFIX;
  const parsed = parseEnv(
    'keys stores',
    z.object({
      MONGODB_URI: mongoUriDefaultingTo(STACK_DATABASES.keys).optional(),
      REDIS_URL: redisUrl.default(running?.redisUrl ?? 'redis://127.0.0.1:6379'),
      REDIS_KEY_PREFIX: running ? prefix.unwrap().default(running.redisKeyPrefix) : prefix,
    }),
    env,
  );
  const chosen = (mongoUri: string, source: string): KeysStoresConfig => ({
    mongoUri,
    redisUrl: parsed.REDIS_URL,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX,
    source,
  });
  if (parsed.MONGODB_URI) return chosen(parsed.MONGODB_URI, 'MONGODB_URI');
  if (running)
    return chosen(running.keysMongoUri, `the running npm start (pid ${running.pid}, stack.json)`);
  if (engine) {
    const uri = mongoUriWithDatabase(`mongodb://127.0.0.1:${engine.port}/`, STACK_DATABASES.keys);
    if (await answers(uri))
      return chosen(uri, `the ${engine.kind} the last npm start started (engine.json)`);
    throw new NoKeysDatabaseError(
      `no keys database: npm start is not running, and the ${engine.kind} it last started (127.0.0.1:${engine.port}, recorded in ${engineRecordFile()}) does not answer; ${HOW_TO_FIX}`,
    );
  }
  const uri = mongoUriWithDatabase(DEFAULT_SERVER, STACK_DATABASES.keys);
  if (await answers(uri)) return chosen(uri, 'the default address (no npm start recorded)');
  throw new NoKeysDatabaseError(
    `no keys database: npm start is not running (no ${stackRecordFile()}), has not started an engine here, and nothing answers on 127.0.0.1:27017; ${HOW_TO_FIX}`,
  );
}

export type KeysStores = ReturnType<typeof createKeysServices> & {
  models: KeysModels;
  redis: RedisClient;
  redisKeyPrefix: string;
};

/**
 * Chooses the keys stores (chooseKeysStores), says which on stderr in one line, connects, runs
 * `work` with the keys subgraph's own services (same rules, same cache invalidation and events as
 * the subgraph), and disconnects.
 */
export async function withKeysStores<T>(
  name: string,
  work: (stores: KeysStores) => Promise<T>,
): Promise<T> {
  const config = await chooseKeysStores(process.env);
  process.stderr.write(
    `${name}: keys database ${redactUri(config.mongoUri)} (${config.source}), Redis ${redactUri(config.redisUrl)} prefix ${JSON.stringify(config.redisKeyPrefix)}\n`,
  );
  const connection = await connectMongo(config.mongoUri).catch((error: unknown) => {
    throw new Error(`the keys database ${redactUri(config.mongoUri)}: ${message(error)}`, {
      cause: error,
    });
  });
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
