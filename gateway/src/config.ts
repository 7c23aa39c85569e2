import { z } from 'zod';
import {
  baseEnvSchema,
  toBaseConfig,
  type BaseConfig,
  booleanFlag,
  parseEnv,
  port,
  type Env,
} from '../../common/platform/config';
import { trustedProxies } from '../../common/platform/trusted-proxies';
import { engineEnvSchema, toEngineConfig, type EngineConfig } from './engine-config';

const schema = baseEnvSchema.extend(engineEnvSchema.shape).extend({
  GATEWAY_PORT: port(4000),
  /** Defaults to on outside production. */
  GATEWAY_INTROSPECTION: z.enum(['true', 'false']).optional(),
  /**
   * Accept API keys from callers other than the REST facade. Off: such calls would skip the
   * limits, quotas and call log, which the facade applies. On only for benchmarks and tests.
   */
  GATEWAY_DIRECT_API_KEYS: booleanFlag(false),
  /** Shared with the payment processor; signs its inbound webhooks. Unset: the endpoint answers 503. */
  PAYMENT_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The dashboard's public origin, used in mailed sign-in links. Default: this gateway's address. */
  DASHBOARD_URL: z.url().optional(),
  /** The External API's public origin (the REST facade), for the dashboard's tracker snippets. */
  PUBLIC_API_URL: z.url().optional(),
  /** Mails sign-in links (e.g. smtps://user:pass@smtp.example.com). Unset: logged outside production. */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Web Analytics <no-reply@localhost>'),
  /** Sign-in links are limited per client address: behind a proxy, its X-Forwarded-For names it. */
  TRUSTED_PROXIES: trustedProxies,
});

export interface GatewayConfig extends BaseConfig, EngineConfig {
  port: number;
  introspection: boolean;
  directApiKeys: boolean;
  paymentWebhookSecret: string | null;
  /** null: this gateway's own address once it listens. */
  dashboardUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  publicApiUrl: string | null;
  /** TRUSTED_PROXIES (common/platform/trusted-proxies.ts); empty: none. */
  trustedProxies: string;
}

export function loadGatewayConfig(env: Env): GatewayConfig {
  const e = parseEnv('gateway', schema, env);
  const base = toBaseConfig('gateway', e);
  return {
    ...base,
    ...toEngineConfig(e),
    port: e.GATEWAY_PORT,
    introspection: e.GATEWAY_INTROSPECTION
      ? e.GATEWAY_INTROSPECTION === 'true'
      : base.nodeEnv !== 'production',
    directApiKeys: e.GATEWAY_DIRECT_API_KEYS,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? null,
    dashboardUrl: e.DASHBOARD_URL ? e.DASHBOARD_URL.replace(/\/+$/, '') : null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    publicApiUrl: e.PUBLIC_API_URL ? e.PUBLIC_API_URL.replace(/\/+$/, '') : null,
    trustedProxies: e.TRUSTED_PROXIES,
  };
}
