import type { Logger } from '../../common/platform/logger';
import type { ServiceMetrics } from '../../common/platform/metrics';
import type { RedisClient } from '../../common/platform/redis';
import type { ApiKeyAuthenticator } from './auth/api-key-auth';
import type { ReadCache } from './cache/read-cache';
import type { CallLogWriter } from './call-log/call-log.writer';
import type { FacadeConfig } from './config';
import type { GatewayClient } from './gateway-client';
import type { Headroom } from './limits/headroom';
import type { LimitRefusals } from './limits/limit-refusals';
import type { UsageLimiter } from './limits/usage-limiter';

export interface FacadeDeps {
  config: FacadeConfig;
  logger: Logger;
  redis: RedisClient;
  gateway: GatewayClient;
  metrics: ServiceMetrics;
}

/** What the API-key routes need besides: the key, its limits and the call log. */
export interface ExternalApiDeps extends FacadeDeps {
  auth: ApiKeyAuthenticator;
  limiter: UsageLimiter;
  headroom: Headroom;
  callLog: CallLogWriter;
  refusals: LimitRefusals;
  /** Null when the read cache is off (READ_CACHE=off). */
  readCache: ReadCache | null;
}
