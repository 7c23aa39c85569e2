import { z } from 'zod';
import { booleanFlag, loadAll, parseEnv, type Env } from '../../../common/platform/config';
import { loadSubgraphConfig, type SubgraphConfig } from '../../../common/platform/subgraph-config';

export interface KeysConfig extends SubgraphConfig {
  /** How often expiry warnings are looked for. */
  expiryScanIntervalMs: number;
  /** Run the call-log consumer and the expiry job in this process. */
  workersEnabled: boolean;
  /** How long a dashboard session lasts after sign-in. */
  sessionLifetimeMs: number;
  /** Mails users the notices of other services (a webhook disabled); null: logged outside production. */
  smtpUrl: string | null;
  mailFrom: string;
}

const schema = z.object({
  KEY_EXPIRY_SCAN_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
  KEYS_WORKERS_ENABLED: booleanFlag(true),
  DASHBOARD_SESSION_HOURS: z.coerce
    .number()
    .min(0.0001)
    .max(24 * 30)
    .default(12),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Web Analytics <no-reply@localhost>'),
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
    sessionLifetimeMs: Math.round(own.DASHBOARD_SESSION_HOURS * 3_600_000),
    smtpUrl: own.SMTP_URL ?? null,
    mailFrom: own.MAIL_FROM,
  };
}
