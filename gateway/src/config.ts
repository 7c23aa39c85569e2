import { z } from 'zod';
import {
  baseEnvSchema,
  toBaseConfig,
  type BaseConfig,
  booleanFlag,
  httpUrl,
  parseEnv,
  port,
  type Env,
} from '../../common/config';
import { fromRoot } from '../../common/paths';

const schema = baseEnvSchema.extend({
  GATEWAY_PORT: port(4000),
  ANALYTICS_URL: httpUrl.default('http://127.0.0.1:4001/graphql'),
  KEYS_URL: httpUrl.default('http://127.0.0.1:4002/graphql'),
  WEBHOOKS_URL: httpUrl.default('http://127.0.0.1:4003/graphql'),
  SUPERGRAPH_PATH: z.string().default(fromRoot('gateway', 'supergraph.graphql')),
  /** Defaults to on outside production. */
  GATEWAY_INTROSPECTION: z.enum(['true', 'false']).optional(),
  /** Keep-alive undici client to the subgraphs; false uses @apollo/gateway's default fetcher. */
  GATEWAY_FAST_FETCH: booleanFlag(true),
  /**
   * Accept API keys from callers other than the REST facade. Off: such calls would skip the
   * limits, quotas and call log, which the facade applies. On only for benchmarks and tests.
   */
  GATEWAY_DIRECT_API_KEYS: booleanFlag(false),
  /** Shared with the payment processor; signs its inbound webhooks. Unset: the endpoint answers 503. */
  PAYMENT_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface GatewayConfig extends BaseConfig {
  port: number;
  subgraphUrls: Record<'analytics' | 'keys' | 'webhooks', string>;
  supergraphPath: string;
  introspection: boolean;
  fastFetch: boolean;
  directApiKeys: boolean;
  paymentWebhookSecret: string | null;
}

export function loadGatewayConfig(env: Env): GatewayConfig {
  const e = parseEnv('gateway', schema, env);
  const base = toBaseConfig('gateway', e);
  return {
    ...base,
    port: e.GATEWAY_PORT,
    subgraphUrls: { analytics: e.ANALYTICS_URL, keys: e.KEYS_URL, webhooks: e.WEBHOOKS_URL },
    supergraphPath: e.SUPERGRAPH_PATH,
    introspection: e.GATEWAY_INTROSPECTION
      ? e.GATEWAY_INTROSPECTION === 'true'
      : base.nodeEnv !== 'production',
    fastFetch: e.GATEWAY_FAST_FETCH,
    directApiKeys: e.GATEWAY_DIRECT_API_KEYS,
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? null,
  };
}
