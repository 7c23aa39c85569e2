import { z } from 'zod';
import { booleanFlag, ConfigError, parseEnv, type Env } from '../../../common/config';
import { loadSubgraphConfig, type SubgraphConfig } from '../../../common/subgraph-config';

export interface KeysConfig extends SubgraphConfig {
  /** How often expiry warnings are looked for. */
  expiryScanIntervalMs: number;
  /** Run the call-log consumer and the expiry job in this process. */
  workersEnabled: boolean;
}

const schema = z.object({
  KEY_EXPIRY_SCAN_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
  KEYS_WORKERS_ENABLED: booleanFlag(true),
});

export function loadKeysConfig(env: Env): KeysConfig {
  const problems: string[] = [];
  const collect = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (error instanceof ConfigError) problems.push(...error.problems);
      else throw error;
      return undefined;
    }
  };
  const base = collect(() => loadSubgraphConfig('keys', env, 'KEYS_PORT', 4002, 'wa_keys'));
  const own = collect(() => parseEnv('keys', schema, env));
  if (!base || !own) throw new ConfigError('keys', problems);
  return {
    ...base,
    expiryScanIntervalMs: own.KEY_EXPIRY_SCAN_INTERVAL_MS,
    workersEnabled: own.KEYS_WORKERS_ENABLED,
  };
}
