import { z } from 'zod';
import {
  baseEnvSchema,
  toBaseConfig,
  type BaseConfig,
  httpUrl,
  parseEnv,
  port,
  type Env,
} from '../../common/config';

const schema = baseEnvSchema.extend({
  FACADE_PORT: port(3000),
  GATEWAY_URL: httpUrl.default('http://127.0.0.1:4000/graphql'),
  /**
   * Express "trust proxy" setting: which proxies may set X-Forwarded-For. Off by default, so a
   * caller cannot choose the IP that is logged. Examples: `loopback`, `10.0.0.0/8`, `1`.
   */
  TRUSTED_PROXIES: z.string().default(''),
});

export interface FacadeConfig extends BaseConfig {
  port: number;
  gatewayUrl: string;
  trustedProxies: string;
}

export function loadFacadeConfig(env: Env): FacadeConfig {
  const e = parseEnv('rest-facade', schema, env);
  return {
    ...toBaseConfig('rest-facade', e),
    port: e.FACADE_PORT,
    gatewayUrl: e.GATEWAY_URL,
    trustedProxies: e.TRUSTED_PROXIES,
  };
}
