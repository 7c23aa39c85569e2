import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMongoEngine, startEngine } from './engines';

export interface BenchDatabase {
  uri: string;
  stop(): Promise<void>;
}

/**
 * The database a benchmark measures: MONGODB_URI when set, otherwise the embedded default
 * (FerretDB on SQLite) started in a temporary folder that `stop` removes.
 */
export async function startBenchDatabase(folderPrefix: string): Promise<BenchDatabase> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  const found = findMongoEngine();
  if (!found) throw new Error('set MONGODB_URI or run `npm run ferretdb:install`');
  const dataDir = mkdtempSync(join(tmpdir(), folderPrefix));
  const engine = await startEngine(found, dataDir);
  return {
    uri: `mongodb://127.0.0.1:${engine.port}/`,
    async stop() {
      await engine.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
