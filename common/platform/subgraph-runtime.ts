import type { Connection } from 'mongoose';
import type { RedisClient } from './redis';
import type { Express } from 'express';
import { listen } from './http-server';
import type { Logger } from './logger';
import type { Audience } from '../contracts/identity';
import { metricsAccess, metricsRouter, ServiceMetrics } from './metrics';
import { connectMongo, pingMongo } from './mongo';
import express from 'express';
import { circuitGate, MongoCircuit } from './mongo-circuit';
import { databaseUnavailable } from './graphql-errors';
import { connectRedis, pingRedis } from './redis';
import type { ReadinessCheck } from './health';
import type { SubgraphConfig } from './subgraph-config';

export interface RunningSubgraph<Services> {
  url: string;
  graphqlUrl: string;
  services: Services;
  stop(): Promise<void>;
}

export interface SubgraphParts<Services> {
  app: Express;
  apollo: { stop(): Promise<void> };
  services: Services;
  /** Flushes buffers and stops background work before connections close. */
  beforeClose?: () => Promise<void>;
}

/**
 * Connects a subgraph's stores, builds it with `build`, and listens. Stopping closes HTTP first
 * (draining requests), then background work, then the stores. `/metrics` is served on the
 * subgraph's (internal) port; `build` hands `metrics` to the parts that record series.
 */
export async function startSubgraph<Services>(
  name: Audience,
  config: SubgraphConfig,
  logger: Logger,
  build: (stores: {
    connection: Connection;
    redis: RedisClient;
    readiness: ReadinessCheck[];
    metrics: ServiceMetrics;
  }) => Promise<SubgraphParts<Services>>,
): Promise<RunningSubgraph<Services>> {
  const metrics = new ServiceMetrics(name, { processMetrics: config.nodeEnv !== 'test' });
  const connection = await connectMongo(config.mongoUri);
  const { redis, close: closeRedis } = await connectRedis(
    config.redisUrl,
    logger,
    metrics.countRedisError,
  ).catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  const readiness: ReadinessCheck[] = [
    { name: 'mongodb', check: () => pingMongo(connection) },
    { name: 'redis', check: () => pingRedis(redis) },
  ];
  const parts = await build({ connection, redis, readiness, metrics });
  // While the database does not answer, GraphQL requests are refused at once (503) instead of
  // each waiting out the driver's server selection.
  const circuit = new MongoCircuit(connection, logger);
  circuit.start();
  metrics.watchCircuit(circuit);
  const app = express();
  app.disable('x-powered-by');
  app.use(metrics.httpRequests);
  app.use(metricsRouter(metrics, metricsAccess(config, 'internal')));
  app.use('/graphql', metrics.graphqlOperations(), circuitGate(circuit, databaseUnavailable));
  app.use(parts.app);
  const server = await listen(app, config.port, config.host, {
    drainMs: config.shutdownDrainMs,
  });
  logger.info({ url: server.url }, 'listening');
  return {
    url: server.url,
    graphqlUrl: `${server.url}/graphql`,
    services: parts.services,
    async stop() {
      await server.close();
      await parts.apollo.stop();
      await parts.beforeClose?.();
      circuit.stop();
      await connection.close();
      closeRedis();
    },
  };
}
