import { z } from 'zod';
import { booleanFlag, loadAll, parseEnv, type Env } from '../../../common/config';
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
  const [base, own] = loadAll(
    'keys',
    () => loadSubgraphConfig('keys', env, 'KEYS_PORT', 4002, 'wa_keys'),
    () => parseEnv('keys', schema, env),
  );
  return {
    ...base,
    expiryScanIntervalMs: own.KEY_EXPIRY_SCAN_INTERVAL_MS,
    workersEnabled: own.KEYS_WORKERS_ENABLED,
  };
}
