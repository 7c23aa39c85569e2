import './tracing';
import { runService } from '../../common/platform/lifecycle';
import { createLogger } from '../../common/platform/logger';
import { startGateway } from './app';
import { loadGatewayConfig } from './config';

runService('gateway', async () => {
  const config = loadGatewayConfig(process.env);
  const logger = createLogger('gateway', config.logLevel);
  const running = await startGateway(config, logger);
  return { service: running, logger, drainMs: config.shutdownDrainMs };
});
