import './tracing';
import { runService } from '../../common/platform/lifecycle';
import { createLogger } from '../../common/platform/logger';
import { startFacade } from './app';
import { loadFacadeConfig } from './config';

runService('rest-facade', async () => {
  const config = loadFacadeConfig(process.env);
  const logger = createLogger('rest-facade', config.logLevel);
  const running = await startFacade(config, logger);
  return { service: running, logger, drainMs: config.shutdownDrainMs };
});
