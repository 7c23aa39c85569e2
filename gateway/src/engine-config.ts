import { z } from 'zod';
import { booleanFlag, httpUrl } from '../../common/platform/config';
import { fromRoot } from '../../common/platform/paths';

/**
 * The settings of the supergraph engine (gateway/src/engine.ts), shared by the gateway service and
 * the REST facade, which runs the same engine in its own process.
 */
export const engineEnvSchema = z.object({
  ANALYTICS_URL: httpUrl.default('http://127.0.0.1:4001/graphql'),
  KEYS_URL: httpUrl.default('http://127.0.0.1:4002/graphql'),
  WEBHOOKS_URL: httpUrl.default('http://127.0.0.1:4003/graphql'),
  SUPERGRAPH_PATH: z.string().default(fromRoot('gateway', 'supergraph.graphql')),
  /** Keep-alive undici client to the subgraphs; false uses @apollo/gateway's default fetcher. */
  GATEWAY_FAST_FETCH: booleanFlag(true),
});

export interface EngineConfig {
  subgraphUrls: Record<'analytics' | 'keys' | 'webhooks', string>;
  supergraphPath: string;
  fastFetch: boolean;
}

export function toEngineConfig(e: z.output<typeof engineEnvSchema>): EngineConfig {
  return {
    subgraphUrls: { analytics: e.ANALYTICS_URL, keys: e.KEYS_URL, webhooks: e.WEBHOOKS_URL },
    supergraphPath: e.SUPERGRAPH_PATH,
    fastFetch: e.GATEWAY_FAST_FETCH,
  };
}
