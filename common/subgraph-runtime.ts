import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import type { Express } from 'express';
import { listen } from './http-server';
import type { Logger } from './logger';
import { connectMongo, pingMongo } from './mongo';
import express from 'express';
import { circuitGate, MongoCircuit } from './mongo-circuit';
import { databaseUnavailable } from './subgraph-server';
import { createRedis, logRedisErrors, pingRedis, waitForRedis } from './redis';
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
 * (draining requests), then background work, then the stores.
 */
export async function startSubgraph<Services>(
  config: SubgraphConfig,
  logger: Logger,
  build: (stores: {
    connection: Connection;
    redis: Redis;
    readiness: ReadinessCheck[];
  }) => Promise<SubgraphParts<Services>>,
): Promise<RunningSubgraph<Services>> {
  const connection = await connectMongo(config.mongoUri);
  const redis = createRedis(config.redisUrl);
  logRedisErrors(redis, logger);
  try {
    await waitForRedis(redis);
  } catch (error) {
    await connection.close();
    redis.disconnect();
    throw error;
  }
  const readiness: ReadinessCheck[] = [
    { name: 'mongodb', check: () => pingMongo(connection) },
    { name: 'redis', check: () => pingRedis(redis) },
  ];
  const parts = await build({ connection, redis, readiness });
  // While the database does not answer, GraphQL requests are refused at once (503) instead of
  // each waiting out the driver's server selection.
  const circuit = new MongoCircuit(connection, logger);
  circuit.start();
  const app = express();
  app.disable('x-powered-by');
  app.use('/graphql', circuitGate(circuit, databaseUnavailable));
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
      redis.disconnect();
    },
  };
}
