import { z } from 'zod';

export type Env = Record<string, string | undefined>;

/** Thrown when the environment does not satisfy a service's schema; lists every problem at once. */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Runs the loaders of one service's configuration (shared and own settings) and reports the
 * problems of all of them at once, so a bad environment is fixed in one go.
 */
export function loadAll<T extends readonly unknown[]>(
  service: string,
  ...loaders: { [K in keyof T]: () => T[K] }
): T {
  const problems: string[] = [];
  const results = loaders.map((load) => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  });
  if (problems.length > 0) throw new ConfigError(service, problems);
  return results as unknown as T;
}

/**
 * Validates `env` against `schema` once. Empty strings count as unset, so `FOO=` falls back to
 * the default instead of failing with a confusing type error.
 */
export function parseEnv<S extends z.ZodType>(service: string, schema: S, env: Env): z.output<S> {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    const got = cleaned[variable];
    return got === undefined
      ? `${variable}: ${issue.message}`
      : `${variable}: ${issue.message} (got ${JSON.stringify(redactIfSecret(variable, got))})`;
  });
  throw new ConfigError(service, problems);
}

function redactIfSecret(variable: string, value: string): string {
  if (/SECRET|PASSWORD|TOKEN|KEY/i.test(variable)) return '[redacted]';
  // Connection strings carry passwords (`redis://:pw@host`), malformed ones included.
  return /_(URL|URI)$/i.test(variable)
    ? value.replace(/^((?:[^/@]*\/\/)?)[^@]*@/, '$1[redacted]@')
    : value;
}

export const port = (fallback: number) =>
  z.coerce.number().int().min(0).max(65535).default(fallback);

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const mongoUri = z
  .string()
  .regex(/^mongodb(\+srv)?:\/\/.+/, 'must be a mongodb:// or mongodb+srv:// URI');

/** Scheme, credentials and hosts; the database path; the options. Hosts may be a list (`a:1,b:2`). */
const MONGO_URI_PARTS = /^(mongodb(?:\+srv)?:\/\/[^/?#]*)(\/[^?#]*)?([?#].*)?$/;

/** The database a MongoDB URI names, or undefined when it names none (the driver then uses `test`). */
export function mongoUriDatabase(uri: string): string | undefined {
  const path = MONGO_URI_PARTS.exec(uri)?.[2]?.slice(1);
  return path ? decodeURIComponent(path) : undefined;
}

/** `uri` naming `database` instead of the one it names, if any; credentials and options kept. */
export function mongoUriWithDatabase(uri: string, database: string): string {
  const parts = MONGO_URI_PARTS.exec(uri);
  if (!parts) throw new Error('not a mongodb:// or mongodb+srv:// URI');
  return `${parts[1]}/${encodeURIComponent(database)}${parts[3] ?? ''}`;
}

/**
 * A MongoDB URI that means `database` when it names none, as `npm start` reads a server's address
 * (`mongodb://host:port/`): without this the driver would use `test`, which no service reads.
 */
export const mongoUriDefaultingTo = (database: string) =>
  mongoUri.transform((uri) => (mongoUriDatabase(uri) ? uri : mongoUriWithDatabase(uri, database)));

/**
 * One server (`redis://`, `rediss://`, with the usual `/db` and credentials) or a Redis Cluster:
 * `redis+cluster://[user:password@]host:port,host:port,…` (`rediss+cluster://` for TLS), the seed
 * nodes ioredis learns the cluster's layout from (common/platform/redis.ts).
 */
export const redisUrl = z
  .string()
  .regex(
    /^rediss?(\+cluster)?:\/\/.+/,
    'must be a redis://, rediss://, redis+cluster:// or rediss+cluster:// URL',
  );

/** Unset means development, which only a service listening on loopback may assume (toBaseConfig). */
export const nodeEnv = z.enum(['development', 'production', 'test']).optional();

export const logLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');

export const internalSecret = z
  .string()
  .min(32, 'must be at least 32 characters (generate one with `openssl rand -hex 32`)');

export const booleanFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Settings every service shares: where it runs, how it logs, how it reaches Redis. */
export const baseEnvSchema = z.object({
  NODE_ENV: nodeEnv,
  LOG_LEVEL: logLevel,
  HOST: z.string().default('127.0.0.1'),
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]*$/, 'letters, digits and : . _ - only')
    .default('wa:'),
  INTERNAL_SECRET: internalSecret,
  /**
   * Stopping, how long a server keeps answering (every answer with `Connection: close`, /readyz
   * 503) before it closes, so load balancers stop sending first. Default 5 in production, else 0.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).optional(),
  /**
   * Bearer token a scrape of `GET /metrics` must present (common/metrics.ts, metricsAccess).
   * Without it, the facade and the gateway do not serve /metrics on their public port in
   * production.
   */
  METRICS_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (generate one with `openssl rand -hex 32`)')
    .optional(),
});

export interface BaseConfig {
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  host: string;
  redisUrl: string;
  redisKeyPrefix: string;
  internalSecret: string;
  shutdownDrainMs: number;
  /** null: scrapes of /metrics need no token. */
  metricsToken: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The shared settings of a parsed `baseEnvSchema`, under their config names. A service reachable
 * from other hosts must say which environment it runs in: left unset, NODE_ENV would mean
 * development (introspection and the schema explorer on, a derived webhook key).
 */
export function toBaseConfig(service: string, e: z.output<typeof baseEnvSchema>): BaseConfig {
  if (!e.NODE_ENV && !LOOPBACK_HOSTS.has(e.HOST))
    throw new ConfigError(service, [
      `NODE_ENV: required when HOST is not a loopback address (got HOST ${JSON.stringify(e.HOST)}); set production for a deployment`,
    ]);
  return {
    nodeEnv: e.NODE_ENV ?? 'development',
    logLevel: e.LOG_LEVEL,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    internalSecret: e.INTERNAL_SECRET,
    shutdownDrainMs: shutdownDrainMs(e.SHUTDOWN_DRAIN_SECONDS, e.NODE_ENV),
    metricsToken: e.METRICS_TOKEN ?? null,
  };
}

/** SHUTDOWN_DRAIN_SECONDS in ms; unset, 5 s in production (a load balancer to leave), else 0. */
export const shutdownDrainMs = (seconds: number | undefined, nodeEnv: string | undefined) =>
  (seconds ?? (nodeEnv === 'production' ? 5 : 0)) * 1000;
