import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { healthRouter, upstreamChecks } from '../../common/health';
import { requestContext } from '../../common/request-context';
import { listen } from '../../common/http-server';
import type { Logger } from '../../common/logger';
import {
  metricsAccess,
  metricsRouter,
  recordMountPath,
  ServiceMetrics,
} from '../../common/metrics';
import { readManifest, type OperationManifest } from '../../common/persisted-operations';
import { connectRedis, pingRedis } from '../../common/redis';
import { ApiError, notFound } from './api-error';
import { errorBody } from './envelope';
import { ApiKeyAuthenticator } from './auth/api-key-auth';
import { CallLogWriter } from './call-log/call-log.writer';
import { CollectorService } from './collect/collector.service';
import { createPublicRouter } from './collect/public.router';
import type { FacadeConfig } from './config';
import type { FacadeDeps } from './deps';
import { errorMapper } from './error-mapper';
import { API_BASE, createExternalApiRouter, type ExternalApiDeps } from './external-api.router';
import { GatewayClient } from './gateway-client';
import { startGatewayEngine, type GatewayEngine } from '../../gateway/src/engine';
import { Headroom } from './limits/headroom';
import { LimitRefusals } from './limits/limit-refusals';
import { UsageLimiter } from './limits/usage-limiter';
import { openApiDocument } from './openapi/document';
import { createWebhooksRouter } from './webhooks/webhooks.router';
import { matchPathsExactly, refuseTrailingSlash } from './exact-paths';

export { API_BASE };

/** An error answered outside the routes (a Node-level refusal, /metrics) in the API's envelope. */
const envelopeErrorBody = (status: number, code: string, message: string) =>
  errorBody(new ApiError(status, code, message));

export function createFacadeApp(deps: ExternalApiDeps, collector: CollectorService): Express {
  const app = express();
  matchPathsExactly(app);
  app.disable('x-powered-by');
  // Every body carries a fresh timestamp, so an ETag would never match; computing it is waste.
  app.disable('etag');
  app.use(deps.metrics.httpRequests);
  app.use(requestContext({ trustIncoming: false, expose: true }));
  app.use(refuseTrailingSlash);
  // Off by default: X-Forwarded-For is believed only from configured proxies.
  app.set('trust proxy', deps.config.trustedProxies === '' ? false : deps.config.trustedProxies);
  app.use(
    healthRouter([
      { name: 'redis', check: () => pingRedis(deps.redis) },
      // Up, not ready: during a database outage collection still works (docs/api.md).
      ...upstreamChecks(deps.config.subgraphUrls, '/healthz'),
    ]),
  );
  app.use(metricsRouter(deps.metrics, metricsAccess(deps.config, 'public'), envelopeErrorBody));
  const document = openApiDocument();
  app.get(`${API_BASE}/openapi.json`, (_req: Request, res: Response) => {
    res.json(document);
  });
  app.use(API_BASE, recordMountPath, createExternalApiRouter(deps));
  app.use('/v1/cli/mutate/webhooks', recordMountPath, createWebhooksRouter(deps));
  app.use(createPublicRouter(deps, collector));
  app.use((_req: Request, _res: Response, next: NextFunction) => next(notFound()));
  app.use(errorMapper(deps.logger));
  return app;
}

export interface RunningFacade {
  url: string;
  deps: ExternalApiDeps;
  /** The gateway's engine this facade runs its operations on. */
  engine: GatewayEngine;
  stop(): Promise<void>;
}

export async function startFacade(
  config: FacadeConfig,
  logger: Logger,
  manifest: OperationManifest = readManifest(),
): Promise<RunningFacade> {
  const metrics = new ServiceMetrics('rest-facade', { processMetrics: config.nodeEnv !== 'test' });
  const { redis, close: closeRedis } = await connectRedis(
    config.redisUrl,
    logger,
    metrics.countRedisError,
  );
  const engine = await startGatewayEngine(
    { ...config, introspection: false },
    logger,
    redis,
    manifest,
  );
  const gateway = new GatewayClient(engine, manifest, logger);
  const base: FacadeDeps = { config, logger, redis, gateway, metrics };
  const deps: ExternalApiDeps = {
    ...base,
    auth: new ApiKeyAuthenticator(
      gateway,
      redis,
      config.redisKeyPrefix,
      logger,
      metrics.credentialLookups(),
    ),
    limiter: new UsageLimiter(redis, config.redisKeyPrefix, logger),
    headroom: new Headroom(),
    callLog: new CallLogWriter(redis, config.redisKeyPrefix, logger),
    refusals: new LimitRefusals(metrics),
  };
  const collector = new CollectorService(base);
  await collector.start();
  const app = createFacadeApp(deps, collector);
  const server = await listen(app, config.port, config.host, {
    drainMs: config.shutdownDrainMs,
    // Node-level refusals (malformed HTTP, no Host, CONNECT…) in the External API's envelope.
    errorBody: envelopeErrorBody,
  });
  logger.info({ url: server.url }, 'listening');
  return {
    url: server.url,
    deps,
    engine,
    async stop() {
      await server.close();
      await collector.close();
      await deps.callLog.close();
      await engine.stop();
      closeRedis();
    },
  };
}
