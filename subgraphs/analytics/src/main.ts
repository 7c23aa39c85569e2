import './tracing';
import { runService } from '../../../common/platform/lifecycle';
import { createLogger } from '../../../common/platform/logger';
import { startAnalyticsSubgraph } from './app';
import { loadAnalyticsConfig } from './config';

runService('analytics', async () => {
  const config = loadAnalyticsConfig(process.env);
  const logger = createLogger('analytics', config.logLevel);
  const running = await startAnalyticsSubgraph(config, logger);
  return { service: running, logger, drainMs: config.shutdownDrainMs };
});
