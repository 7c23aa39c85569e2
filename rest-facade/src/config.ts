import { z } from 'zod';
import {
  baseEnvSchema,
  toBaseConfig,
  type BaseConfig,
  parseEnv,
  port,
  type Env,
} from '../../common/platform/config';
import { trustedProxies } from '../../common/platform/trusted-proxies';
import {
  engineEnvSchema,
  toEngineConfig,
  type EngineConfig,
} from '../../gateway/src/engine-config';

/** The facade runs the gateway's engine in process, so it takes the engine's settings too. */
const schema = baseEnvSchema.extend(engineEnvSchema.shape).extend({
  FACADE_PORT: port(3000),
  TRUSTED_PROXIES: trustedProxies,
  /**
   * How long the collector trusts a tracking code → website lookup before asking again. While a
   * lookup fails (keys subgraph or its database down), a known code keeps its website anyway.
   */
  TRACKING_CODE_CACHE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Accepted events the collector holds while Redis cannot take them, appended when it is back;
   * past this, collection answers 503 with Retry-After.
   */
  COLLECT_BUFFER_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** The read cache of External API answers (docs/scaling.md, "Cached reads"): on or off. */
  READ_CACHE: z.enum(['on', 'off']).default('on'),
  /**
   * How long a cached answer is served at most, in this process and from Redis: bounds what a
   * change whose writer could not reach Redis afterwards could leave unseen.
   */
  READ_CACHE_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Answers each facade process keeps in memory, in front of Redis. */
  READ_CACHE_LOCAL_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
});

export interface FacadeConfig extends BaseConfig, EngineConfig {
  port: number;
  trustedProxies: string;
  trackingCodeCacheMs: number;
  collectBufferEvents: number;
  /** Null when the read cache is off. */
  readCache: { maxAgeMs: number; localEntries: number } | null;
}

export function loadFacadeConfig(env: Env): FacadeConfig {
  const e = parseEnv('rest-facade', schema, env);
  return {
    ...toBaseConfig('rest-facade', e),
    ...toEngineConfig(e),
    port: e.FACADE_PORT,
    trustedProxies: e.TRUSTED_PROXIES,
    trackingCodeCacheMs: e.TRACKING_CODE_CACHE_SECONDS * 1000,
    collectBufferEvents: e.COLLECT_BUFFER_EVENTS,
    readCache:
      e.READ_CACHE === 'off'
        ? null
        : {
            maxAgeMs: e.READ_CACHE_MAX_AGE_SECONDS * 1000,
            localEntries: e.READ_CACHE_LOCAL_ENTRIES,
          },
  };
}
