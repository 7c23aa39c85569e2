import mongoose, { type Connection } from 'mongoose';

/**
 * Each service (and each in-process test stack) owns its own connection rather than mongoose's
 * global one, so several can live in one process without sharing models or databases.
 */
export async function connectMongo(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: 5_000,
    maxPoolSize: 20,
  });
  await connection.asPromise();
  return connection;
}

export async function pingMongo(connection: Connection): Promise<void> {
  if (!connection.db) throw new Error('not connected');
  await connection.db.admin().ping();
}

/** Creates every declared index of `models`; run at start so no read ever scans. */
export async function createDeclaredIndexes<
  M extends { [K in keyof M]: { createIndexes(): Promise<unknown> } },
>(models: M): Promise<void> {
  const all = Object.values(models) as Array<{ createIndexes(): Promise<unknown> }>;
  await Promise.all(all.map((model) => model.createIndexes()));
}
