import type { Redis } from 'ioredis';
import type { Logger } from '../../common/logger';
import type { ServiceMetrics } from '../../common/metrics';
import type { FacadeConfig } from './config';
import type { GatewayClient } from './gateway-client';

export interface FacadeDeps {
  config: FacadeConfig;
  logger: Logger;
  redis: Redis;
  gateway: GatewayClient;
  metrics: ServiceMetrics;
}
