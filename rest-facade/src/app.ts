import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { healthRouter, upstreamChecks } from '../../common/platform/health';
import { requestContext } from '../../common/platform/request-context';
import { listen } from '../../common/platform/http-server';
import type { Logger } from '../../common/platform/logger';
import { metricsAccess, metricsRouter, ServiceMetrics } from '../../common/platform/metrics';
import { readManifest, type OperationManifest } from '../../common/contracts/persisted-operations';
import { connectRedis, pingRedis } from '../../common/platform/redis';
import { trustProxySetting } from '../../common/platform/trusted-proxies';
import { ApiError, notFound } from './errors';
import { errorBody } from './envelope';
import { ApiKeyAuthenticator } from './auth/api-key-auth';
import { ReadCache } from './cache/read-cache';
import { CallLogWriter } from './call-log/call-log.writer';
import { CollectorService } from './collect/collector.service';
import type { FacadeConfig } from './config';
import type { ExternalApiDeps, FacadeDeps } from './deps';
import { errorMapper } from './error-mapper';
import { GatewayClient } from './gateway-client';
import { startGatewayEngine, type GatewayEngine } from '../../gateway/src/engine';
import { Headroom } from './limits/headroom';
import { LimitRefusals } from './limits/limit-refusals';
import { UsageLimiter } from './limits/usage-limiter';
import { UsageRestorer } from './limits/usage-restorer';
import { openApiDocument } from './openapi/document';
import { wireRoutes } from './pipeline/route-wiring';
import { matchPathsExactly, refuseTrailingSlash } from './exact-paths';

/**
 * Express 5 parses the query string again on every read of `req.query`; a call reads it several
 * times (the accepted names, then each parameter), so it is parsed once, here.
 */
function parseQueryOnce(req: Request, _res: Response, next: NextFunction): void {
  Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true });
  next();
}

/** An error answered outside the routes (a Node-level refusal, /metrics) in the API's envelope. */
const envelopeErrorBody = (status: number, code: string, message: string) =>
  errorBody(new ApiError({ status, code, message }));

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
  app.set('trust proxy', trustProxySetting(deps.config.trustedProxies));
  app.use(parseQueryOnce);
  // Every REST route, from its declaration in routes/; first, as nearly every request is one.
  wireRoutes(app, { deps, collector, document: openApiDocument() });
  app.use(
    healthRouter([
      { name: 'redis', check: () => pingRedis(deps.redis) },
      // Up, not ready: during a database outage collection still works (docs/api.md).
      ...upstreamChecks(deps.config.subgraphUrls, '/healthz'),
    ]),
  );
  app.use(metricsRouter(deps.metrics, metricsAccess(deps.config, 'public'), envelopeErrorBody));
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
  const callLog = new CallLogWriter(redis, config.redisKeyPrefix, logger);
  const restorer = new UsageRestorer({
    keysUrl: config.subgraphUrls.keys,
    internalSecret: config.internalSecret,
    dispatcher: engine.dispatcher,
    // Calls counted before Redis lost their counters and still being answered: their records
    // must reach the ledger before it is read, or the restored counts would lack them.
    flushCallLog: () => callLog.flushAdmitted(3_000),
  });
  const deps: ExternalApiDeps = {
    ...base,
    auth: new ApiKeyAuthenticator(
      gateway,
      redis,
      config.redisKeyPrefix,
      logger,
      metrics.credentialLookups(),
    ),
    limiter: new UsageLimiter(redis, config.redisKeyPrefix, logger, restorer),
    headroom: new Headroom(),
    callLog,
    refusals: new LimitRefusals(metrics),
    readCache: config.readCache
      ? new ReadCache(
          redis,
          { prefix: config.redisKeyPrefix, ...config.readCache },
          logger,
          metrics.readCacheLookups(),
        )
      : null,
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
