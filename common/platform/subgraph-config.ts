import { z } from 'zod';
import {
  toBaseConfig,
  type BaseConfig,
  baseEnvSchema,
  booleanFlag,
  ConfigError,
  mongoUri,
  parseEnv,
  port,
  type Env,
} from './config';

export interface SubgraphConfig extends BaseConfig {
  port: number;
  mongoUri: string;
  /** Apollo inline tracing (ftv1); off unless something reads it. */
  inlineTrace: boolean;
}

/** What every subgraph reads: the shared settings plus its own port variable and database. */
export function loadSubgraphConfig(
  service: string,
  env: Env,
  portVariable: string,
  defaultPort: number,
  defaultDatabase: string,
): SubgraphConfig {
  const schema = baseEnvSchema.extend({
    SUBGRAPH_PORT: port(defaultPort),
    MONGODB_URI: mongoUri.default(`mongodb://127.0.0.1:27017/${defaultDatabase}`),
    SUBGRAPH_INLINE_TRACE: booleanFlag(false),
  });
  // The port variable is named after the service; validate it under its real name.
  const renamed = { ...env, SUBGRAPH_PORT: env[portVariable] };
  let e: z.infer<typeof schema>;
  try {
    e = parseEnv(service, schema, renamed);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      service,
      error.problems.map((p) => p.replaceAll('SUBGRAPH_PORT', portVariable)),
    );
  }
  return {
    ...toBaseConfig(service, e),
    port: e.SUBGRAPH_PORT,
    mongoUri: e.MONGODB_URI,
    inlineTrace: e.SUBGRAPH_INLINE_TRACE,
  };
}
