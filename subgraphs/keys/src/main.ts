import './tracing';
import { runService } from '../../../common/platform/lifecycle';
import { createLogger } from '../../../common/platform/logger';
import { startKeysSubgraph } from './app';
import { loadKeysConfig } from './config';

runService('keys', async () => {
  const config = loadKeysConfig(process.env);
  const logger = createLogger('keys', config.logLevel);
  const running = await startKeysSubgraph(config, logger);
  return { service: running, logger, drainMs: config.shutdownDrainMs };
});
