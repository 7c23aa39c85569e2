import './tracing';
import { runService } from '../../../common/platform/lifecycle';
import { createLogger } from '../../../common/platform/logger';
import { startWebhooksSubgraph } from './app';
import { loadWebhooksConfig } from './config';

runService('webhooks', async () => {
  const config = loadWebhooksConfig(process.env);
  const logger = createLogger('webhooks', config.logLevel);
  const running = await startWebhooksSubgraph(config, logger);
  return { service: running, logger, drainMs: config.shutdownDrainMs };
});
