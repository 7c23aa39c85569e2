/**
 * Local engines for development and tests: a MongoDB-compatible server (FerretDB on SQLite, or
 * mongod) and Redis, found on the machine and started as child processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis, type RedisOptions } from 'ioredis';
import mongoose from 'mongoose';
import { ROOT } from '../../common/platform/paths';
import { parseRedisClusterUrl } from '../../common/platform/redis';

export interface Engine {
  kind: 'ferretdb' | 'mongod' | 'redis-server';
  path: string;
}

export interface StartedEngine {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export function findMongoEngine(): Engine | undefined {
  const ferretdb = onPath('ferretdb') ?? executable(join(ROOT, '.tools', 'bin', 'ferretdb'));
  if (ferretdb) return { kind: 'ferretdb', path: ferretdb };
  const mongod = onPath('mongod');
  if (mongod) return { kind: 'mongod', path: mongod };
  return undefined;
}

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const found = executable(join(dir, name));
    if (found) return found;
  }
  return undefined;
}

function executable(path: string): string | undefined {
  try {
    accessSync(path, fsConstants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

function engineArgs(engine: Engine, port: number, dataDir: string): string[] {
  switch (engine.kind) {
    case 'ferretdb':
      return [
        `--listen-addr=127.0.0.1:${port}`,
        '--handler=sqlite',
        `--sqlite-url=file:${dataDir}/`,
        `--state-dir=${dataDir}`,
        '--telemetry=disable',
        '--log-level=error',
        '--debug-addr=-', // no metrics/pprof listener
      ];
    case 'mongod':
      return ['--port', String(port), '--bind_ip', '127.0.0.1', '--dbpath', dataDir, '--quiet'];
    case 'redis-server':
      return [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dataDir,
      ];
  }
}

/**
 * Starts the engine on a free port (retrying if the port is taken) and waits until it answers.
 * `outlivesCtrlC` puts it in a process group of its own, so a Ctrl+C in the terminal does not
 * reach it and it stops only when `stop()` is called (after the services that use it).
 * `extraArgs` are added to the engine's own (a Redis Cluster node's settings); a function of the
 * port gets the one the engine is started on.
 */
export async function startEngine(
  engine: Engine,
  dataDir: string,
  preferredPort?: number,
  options: {
    outlivesCtrlC?: boolean;
    extraArgs?: (port: number) => Promise<string[]> | string[];
  } = {},
): Promise<StartedEngine> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port =
      attempt === 1 && preferredPort && (await portIsFree(preferredPort))
        ? preferredPort
        : await freePort();
    const extraArgs = (await options.extraArgs?.(port)) ?? [];
    const child = spawn(engine.path, [...engineArgs(engine, port, dataDir), ...extraArgs], {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.outlivesCtrlC ?? false,
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    try {
      await waitUntilReady(
        child,
        () => output,
        () =>
          engine.kind === 'redis-server'
            ? pingRedisUrl(`redis://127.0.0.1:${port}`)
            : pingMongo(`mongodb://127.0.0.1:${port}/`, 1_000),
      );
      return { child, port, stop: async () => void (await stopChild(child)) };
    } catch (error) {
      lastError = error;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
  throw new Error(`could not start ${engine.kind} (${engine.path}): ${message(lastError)}`, {
    cause: lastError,
  });
}

async function waitUntilReady(
  child: ChildProcess,
  outputTail: () => string,
  ping: () => Promise<void>,
): Promise<void> {
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (spawnError) throw spawnError;
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = outputTail();
      throw new Error(
        `exited early (${child.exitCode ?? child.signalCode})${tail ? `:\n${tail.trim()}` : ''}`,
      );
    }
    try {
      await ping();
      return;
    } catch (error) {
      lastError = error;
      await sleep(200);
    }
  }
  throw new Error(`not answering after ${START_TIMEOUT_MS} ms: ${message(lastError)}`);
}

export async function pingMongo(uri: string, timeoutMs: number): Promise<void> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
  });
  try {
    await connection.asPromise();
    if (!connection.db) throw new Error('not connected');
    await connection.db.admin().ping();
  } finally {
    await connection.close(true).catch(() => undefined);
  }
}

/** PINGs the server, or every seed node of a `redis+cluster://` URL. */
export async function pingRedisUrl(url: string): Promise<void> {
  const cluster = parseRedisClusterUrl(url);
  if (cluster) {
    await Promise.all(
      cluster.nodes.map((node) => pingRedisServer({ ...cluster.options, ...node })),
    );
    return;
  }
  await pingRedisServer(url);
}

async function pingRedisServer(server: string | RedisOptions): Promise<void> {
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  };
  const redis =
    typeof server === 'string' ? new Redis(server, options) : new Redis({ ...server, ...options });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    // A connection that failed has ended: disconnecting it would arm ioredis' 2 s timer to
    // destroy a socket that already closed, which keeps the process alive for nothing.
    if (redis.status !== 'end') redis.disconnect();
  }
}

/** How a child ended when asked to stop: by itself, or killed when it outlasted its time. */
export type StopOutcome = 'exited' | 'killed';

/** SIGTERM, then SIGKILL if the child has not exited within `killAfterMs`. */
export async function stopChild(child: ChildProcess, killAfterMs = 5_000): Promise<StopOutcome> {
  if (child.exitCode !== null || child.signalCode !== null) return 'exited';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let outcome: StopOutcome = 'exited';
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    outcome = 'killed';
    child.kill('SIGKILL');
  }, killAfterMs);
  await exited;
  clearTimeout(timer);
  return outcome;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}

/** Whether nothing listens on `port` of `host` (it can be bound now). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A URI as it may be shown: its password, if any, replaced. */
export function redactUri(uri: string): string {
  return uri.replace(/^([a-z][\w+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}
