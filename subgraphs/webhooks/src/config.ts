import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  booleanFlag,
  ConfigError,
  loadAll,
  parseEnv,
  type Env,
} from '../../../common/platform/config';
import { loadSubgraphConfig, type SubgraphConfig } from '../../../common/platform/subgraph-config';

export interface DeliverySettings {
  /** Per-attempt time-out, connection and response included. */
  timeoutMs: number;
  /** First retry delay; later ones grow by RETRY_FACTOR up to RETRY_CAP_MULTIPLE × this. */
  retryBaseMs: number;
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** Deliveries in flight at once per process; one slow receiver holds up one slot only. */
  concurrency: number;
  /** Of those, at most this many for one webhook. */
  perWebhookConcurrency: number;
  /** How much of a receiver's answer is kept and shown (bytes). */
  responseBodyLimit: number;
  /** A webhook whose every attempt failed for this long (no success between) is disabled. */
  disableAfterMs: number;
}

export interface WebhooksConfig extends SubgraphConfig {
  /** 32-byte AES-256-GCM key that encrypts signing secrets at rest. */
  secretKey: Buffer;
  /** Development only: accept http://127.0.0.1-style receivers. */
  allowLoopback: boolean;
  delivery: DeliverySettings;
  /** Consume the platform-event stream and run the delivery worker in this process. */
  workersEnabled: boolean;
  /** Finished delivery records older than this are deleted (with the workers). */
  deliveryRetentionDays: number;
}

const schema = z.object({
  NODE_ENV: z.string().default('development'),
  INTERNAL_SECRET: z.string().default(''),
  /** 64 hex characters or base64 of 32 bytes. Required in production. */
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine(
      (v) => decodeKey(v) !== null,
      'must be 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)',
    )
    .optional(),
  WEBHOOK_ALLOW_LOOPBACK: booleanFlag(false),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(60_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(9),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(32),
  WEBHOOK_CONCURRENCY_PER_WEBHOOK: z.coerce.number().int().min(1).max(100).default(4),
  WEBHOOK_RESPONSE_BODY_LIMIT: z.coerce.number().int().min(0).max(65_536).default(2_048),
  WEBHOOK_WORKERS_ENABLED: booleanFlag(true),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(0.001).max(365).default(5),
});

function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const decoded = Buffer.from(value, 'base64');
  return decoded.length === 32 ? decoded : null;
}

/**
 * Outside production, a missing WEBHOOK_SECRET_KEY falls back to a key derived from
 * INTERNAL_SECRET, so local stacks and tests need no extra setting.
 */
function deriveDevelopmentKey(internalSecret: string): Buffer {
  return createHash('sha256').update(`webhook-secret-key:${internalSecret}`).digest();
}

export function loadWebhooksConfig(env: Env): WebhooksConfig {
  const [base, e] = loadAll(
    'webhooks',
    () => loadSubgraphConfig('webhooks', env, 'WEBHOOKS_PORT', 4003, 'wa_webhooks'),
    () => parseEnv('webhooks', schema, env),
  );
  const problems: string[] = [];
  if (base.nodeEnv === 'production' && !e.WEBHOOK_SECRET_KEY)
    problems.push('WEBHOOK_SECRET_KEY: required in production');
  if (base.nodeEnv === 'production' && e.WEBHOOK_ALLOW_LOOPBACK)
    problems.push('WEBHOOK_ALLOW_LOOPBACK: must not be true in production');
  if (problems.length > 0) throw new ConfigError('webhooks', problems);
  return {
    ...base,
    secretKey: e.WEBHOOK_SECRET_KEY
      ? (decodeKey(e.WEBHOOK_SECRET_KEY) as Buffer)
      : deriveDevelopmentKey(base.internalSecret),
    allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK,
    delivery: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      perWebhookConcurrency: e.WEBHOOK_CONCURRENCY_PER_WEBHOOK,
      responseBodyLimit: e.WEBHOOK_RESPONSE_BODY_LIMIT,
      disableAfterMs: Math.round(e.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000),
    },
    workersEnabled: e.WEBHOOK_WORKERS_ENABLED,
    deliveryRetentionDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
  };
}
