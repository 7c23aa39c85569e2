/**
 * The stack the Prism check proxies: its own Redis and MongoDB-compatible engine in a temporary
 * folder, and the five services from source (run with tsx, so the check needs no build), each on
 * a free loopback port with its log in `logDir`. `stop()` ends all of it, front to back, and
 * removes the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { findMongoEngine, onPath, startEngine, stopChild, type Engine } from '../lib/engines';
import { stackEnvironments } from '../lib/service-env';
import { SERVICES, stopGraceMs, waitUntilReady, type ServiceName } from '../lib/stack-services';

const REDIS_KEY_PREFIX = 'prism:';

export interface PrismStack {
  facadeUrl: string;
  /** What the admin CLI needs to reach the keys database and Redis. */
  adminEnv: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startPrismStack(
  logDir: string,
  say: (text: string) => void,
): Promise<PrismStack> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'wa-prism-'));
  const stoppers: Array<() => Promise<void>> = [
    async () => rmSync(workDir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const step of stoppers.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    mkdirSync(logDir, { recursive: true });
    const mongoEngine = findMongoEngine();
    if (!mongoEngine)
      throw new Error('no MongoDB-compatible engine: run `npm run ferretdb:install` (needs Go)');
    const redisServer = onPath('redis-server');
    if (!redisServer) throw new Error('redis-server is not installed (the check starts its own)');
    const ownEngine = async (engine: Engine, folder: string) => {
      const dataDir = path.join(workDir, folder);
      mkdirSync(dataDir);
      const started = await startEngine(engine, dataDir);
      stoppers.push(() => started.stop());
      return started;
    };
    const redis = await ownEngine({ kind: 'redis-server', path: redisServer }, 'redis');
    const mongo = await ownEngine(mongoEngine, 'mongo');
    const redisUrl = `redis://127.0.0.1:${redis.port}`;
    const mongoServer = `mongodb://127.0.0.1:${mongo.port}/`;
    say(`redis-server on ${redisUrl}, ${mongoEngine.kind} on ${mongoServer}`);

    const { urls, envs, adminEnv } = await stackEnvironments({
      redisUrl,
      mongoServer,
      redisKeyPrefix: REDIS_KEY_PREFIX,
      // The webhook test call delivers to the check's own receiver on loopback.
      extra: { WEBHOOK_ALLOW_LOOPBACK: 'true', SHUTDOWN_DRAIN_SECONDS: '0' },
    });
    const children: Array<{ name: ServiceName; child: ChildProcess; env: NodeJS.ProcessEnv }> = [];
    stoppers.push(async () => {
      for (const { child, env } of [...children].reverse())
        await stopChild(child, stopGraceMs(env));
    });
    const start = (name: ServiceName) => {
      const spec = SERVICES.find((s) => s.name === name)!;
      const env = envs.get(name)!;
      const log = openSync(path.join(logDir, `${name}.log`), 'w');
      // From source, with the loader this script runs under (tsx), as npm start does from source.
      const child = spawn(process.execPath, [...process.execArgv, fromRoot(`${spec.entry}.ts`)], {
        env,
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      children.push({ name, child, env });
      return waitUntilReady(name, urls.get(name)!, child);
    };
    await Promise.all((['analytics', 'keys', 'webhooks'] as const).map(start));
    await start('gateway');
    await start('rest-facade');
    say(`five services ready; their logs are in ${path.relative(process.cwd(), logDir)}/`);

    return {
      facadeUrl: urls.get('rest-facade')!,
      // Never a developer's running npm start: admin reads its records from here.
      adminEnv: { ...adminEnv, STACK_DATA_DIR: workDir },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
