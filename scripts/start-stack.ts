/**
 * `npm start`: the whole stack on one machine. Uses MONGODB_URI / REDIS_URL when set, otherwise
 * embedded defaults (a local mongod or FerretDB with data in .data/, else mongodb-memory-server;
 * a reachable local Redis, else redis-server). Starts the five services as child processes,
 * waits until each is ready, prints their URLs, and stops everything on SIGTERM/SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fromRoot } from '../common/paths';
import {
  findMongoEngine,
  message,
  onPath,
  pingRedisUrl,
  startEngine,
  stopChild,
  type StartedEngine,
} from './lib/engines';
import { developmentSecret } from './lib/development-secret';
import { removeStackRecord, writeStackRecord } from './lib/stack-record';
import { baseEnvSchema } from '../common/config';

const say = (text: string) => process.stderr.write(`[stack] ${text}\n`);

interface ServiceSpec {
  name: string;
  entry: string;
  portVariable: string;
  defaultPort: number;
  database?: string;
}

const SERVICES: ServiceSpec[] = [
  {
    name: 'analytics',
    entry: 'subgraphs/analytics/src/main.js',
    portVariable: 'ANALYTICS_PORT',
    defaultPort: 4001,
    database: 'wa_analytics',
  },
  {
    name: 'keys',
    entry: 'subgraphs/keys/src/main.js',
    portVariable: 'KEYS_PORT',
    defaultPort: 4002,
    database: 'wa_keys',
  },
  {
    name: 'webhooks',
    entry: 'subgraphs/webhooks/src/main.js',
    portVariable: 'WEBHOOKS_PORT',
    defaultPort: 4003,
    database: 'wa_webhooks',
  },
  {
    name: 'gateway',
    entry: 'gateway/src/main.js',
    portVariable: 'GATEWAY_PORT',
    defaultPort: 4000,
  },
  {
    name: 'rest-facade',
    entry: 'rest-facade/src/main.js',
    portVariable: 'FACADE_PORT',
    defaultPort: 3000,
  },
];

type Stoppable = { stop(): Promise<void> };

function keptDevelopmentSecret(): string {
  const { secret, created } = developmentSecret(fromRoot('.data', 'internal-secret'));
  say(`INTERNAL_SECRET: ${created ? 'made and kept' : 'kept'} in .data/internal-secret`);
  return secret;
}

async function provideMongo(stoppers: Stoppable[]): Promise<string> {
  if (process.env.MONGODB_URI) {
    say(`MongoDB: MONGODB_URI (${redactUri(process.env.MONGODB_URI)})`);
    return process.env.MONGODB_URI;
  }
  const engine = findMongoEngine();
  if (engine) {
    const dataDir = fromRoot('.data', engine.kind);
    mkdirSync(dataDir, { recursive: true });
    const started: StartedEngine = await startEngine(engine, dataDir, 27017, {
      outlivesCtrlC: true,
    });
    stoppers.push(started);
    say(
      `MongoDB: embedded ${engine.kind} (${engine.path}) on 127.0.0.1:${started.port}, data in .data/${engine.kind}`,
    );
    return `mongodb://127.0.0.1:${started.port}/`;
  }
  say(
    'MongoDB: no mongod or ferretdb found; trying mongodb-memory-server (downloads MongoDB where the network allows)',
  );
  try {
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    const server = await MongoMemoryServer.create();
    stoppers.push({ stop: async () => void (await server.stop()) });
    say(`MongoDB: mongodb-memory-server at ${server.getUri()} (data is lost on exit)`);
    return server.getUri();
  } catch (error) {
    throw new Error(
      `no MongoDB available: set MONGODB_URI, install mongod, or run \`npm run ferretdb:install\` (needs Go). mongodb-memory-server said: ${message(error)}`,
      { cause: error },
    );
  }
}

async function provideRedis(stoppers: Stoppable[]): Promise<string> {
  if (process.env.REDIS_URL) {
    say(`Redis: REDIS_URL (${redactUri(process.env.REDIS_URL)})`);
    return process.env.REDIS_URL;
  }
  const local = 'redis://127.0.0.1:6379';
  try {
    await pingRedisUrl(local);
    say(`Redis: the local server at ${local}`);
    return local;
  } catch {
    const path = onPath('redis-server');
    if (!path)
      throw new Error(
        'no Redis available: set REDIS_URL, start a Redis on 127.0.0.1:6379, or install redis-server',
      );
    const dataDir = fromRoot('.data', 'redis');
    mkdirSync(dataDir, { recursive: true });
    const started = await startEngine({ kind: 'redis-server', path }, dataDir, undefined, {
      outlivesCtrlC: true,
    });
    stoppers.push(started);
    say(`Redis: started redis-server on 127.0.0.1:${started.port}`);
    return `redis://127.0.0.1:${started.port}`;
  }
}

function databaseUri(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

function redactUri(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable)';
  }
}

async function waitReady(name: string, url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited (${child.exitCode}) during start; see its log above`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(250);
  }
  throw new Error(`${name} was not ready within 60 s`);
}

async function main(): Promise<void> {
  const stoppers: Stoppable[] = [];
  const children: Array<{ name: string; child: ChildProcess }> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping');
    removeStackRecord();
    // Front to back: the facade first, so nothing new reaches the services being stopped.
    for (const { child } of [...children].reverse()) await stopChild(child, 10_000);
    for (const stopper of stoppers.reverse()) await stopper.stop().catch(() => undefined);
    say('stopped');
    process.exit(code);
  };
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGINT', () => void stopAll(0));

  try {
    const mongoBase = await provideMongo(stoppers);
    const redisUrl = await provideRedis(stoppers);
    const secret = process.env.INTERNAL_SECRET ?? keptDevelopmentSecret();
    const port = (spec: ServiceSpec) => Number(process.env[spec.portVariable] ?? spec.defaultPort);
    const url = (spec: ServiceSpec) => `http://127.0.0.1:${port(spec)}`;
    const byName = Object.fromEntries(SERVICES.map((s) => [s.name, s]));
    const shared = {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      REDIS_URL: redisUrl,
      INTERNAL_SECRET: secret,
      ANALYTICS_URL: `${url(byName.analytics!)}/graphql`,
      KEYS_URL: `${url(byName.keys!)}/graphql`,
      WEBHOOKS_URL: `${url(byName.webhooks!)}/graphql`,
      // The dashboard's tracker snippets point at the facade.
      PUBLIC_API_URL: process.env.PUBLIC_API_URL ?? url(byName['rest-facade']!),
    };
    for (const spec of SERVICES) {
      const env = {
        ...shared,
        [spec.portVariable]: String(port(spec)),
        ...(spec.database ? { MONGODB_URI: databaseUri(mongoBase, spec.database) } : {}),
      };
      const child = spawn(process.execPath, [fromRoot('dist', spec.entry)], {
        env,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push({ name: spec.name, child });
      child.on('exit', (code) => {
        if (!stopping) {
          say(`${spec.name} exited unexpectedly (${code}); stopping the stack`);
          void stopAll(1);
        }
      });
      // Subgraphs first, then the gateway (which needs them), then the facade.
      if (spec.name === 'webhooks' || spec.name === 'gateway' || spec.name === 'rest-facade') {
        const waiting = spec.name === 'webhooks' ? SERVICES.slice(0, 3) : [spec];
        await Promise.all(
          waiting.map((s) =>
            waitReady(s.name, url(s), children.find((c) => c.name === s.name)!.child),
          ),
        );
      }
    }
    say('all five services are ready:');
    for (const spec of SERVICES)
      say(
        `  ${spec.name.padEnd(12)} ${url(spec)}${spec.name === 'gateway' ? '/graphql (schema explorer)' : ''}`,
      );
    say(`  External API  ${url(byName['rest-facade']!)}/api/external/v1`);
    say(
      `  dashboard     ${url(byName.gateway!)}/  (sign in: npm run --silent admin -- login:link --email <user's email>)`,
    );
    writeStackRecord({
      pid: process.pid,
      facadeUrl: url(byName['rest-facade']!),
      dashboardUrl: url(byName.gateway!),
      keysMongoUri: databaseUri(mongoBase, 'wa_keys'),
      redisUrl,
      redisKeyPrefix: baseEnvSchema.shape.REDIS_KEY_PREFIX.parse(process.env.REDIS_KEY_PREFIX),
    });
    say('press Ctrl+C to stop');
  } catch (error) {
    say(message(error));
    await stopAll(1);
  }
}

void main();
