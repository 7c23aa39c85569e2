/**
 * `npm start`: the whole stack on one machine. Uses MONGODB_URI / REDIS_URL when set, otherwise
 * embedded defaults (a local mongod or FerretDB with data in .data/, else mongodb-memory-server;
 * a reachable local Redis, else redis-server). Checks the five services' ports are free, starts
 * the services as child processes (from dist/, or from source when run with tsx), waits until
 * each is ready, prints their URLs, and stops everything on SIGTERM/SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fromRoot, ROOT } from '../common/platform/paths';
import {
  findMongoEngine,
  message,
  onPath,
  pingRedisUrl,
  portIsFree,
  redactUri,
  startEngine,
  stopChild,
  type StartedEngine,
} from './lib/engines';
import { developmentSecret } from './lib/development-secret';
import { SERVICES, stopGraceMs, waitUntilReady, type ServiceSpec } from './lib/stack-services';
import {
  readStackRecord,
  removeStackRecord,
  stackDataDir,
  STACK_DATABASES,
  writeEngineRecord,
  writeStackRecord,
} from './lib/stack-record';
import { baseEnvSchema, mongoUriDatabase, mongoUriWithDatabase } from '../common/platform/config';

const say = (text: string) => process.stderr.write(`[stack] ${text}\n`);

type Stoppable = { stop(): Promise<void> };

/** `.data/` (or STACK_DATA_DIR) and what it holds. */
const DATA_DIR = stackDataDir();
const inDataDir = (...parts: string[]) => path.join(DATA_DIR, ...parts);
/** A path as the log shows it: from the repository root when inside it. */
const shown = (file: string) => {
  const relative = path.relative(ROOT, file);
  return relative.startsWith('..') ? file : relative;
};

function keptDevelopmentSecret(): string {
  const file = inDataDir('internal-secret');
  const { secret, created } = developmentSecret(file);
  say(`INTERNAL_SECRET: ${created ? 'made and kept' : 'kept'} in ${shown(file)}`);
  return secret;
}

/** How to run a service: its build in dist/, or its source when this runs from source (tsx). */
function serviceArgs(spec: ServiceSpec): string[] {
  return __filename.endsWith('.ts')
    ? [...process.execArgv, fromRoot(`${spec.entry}.ts`)]
    : [fromRoot('dist', `${spec.entry}.js`)];
}

/**
 * Every service's port, checked before anything starts: one taken (say by another npm start)
 * would otherwise fail only after another stack's /readyz had answered for it. Returns the
 * problems, each naming the variable that moves the port.
 */
async function portProblems(port: (spec: ServiceSpec) => number): Promise<string[]> {
  const host = process.env.HOST || '127.0.0.1';
  const problems: string[] = [];
  const byPort = new Map<number, ServiceSpec>();
  for (const spec of SERVICES) {
    const value = port(spec);
    const twin = byPort.get(value);
    if (!Number.isInteger(value) || value < 1 || value > 65535)
      problems.push(`${spec.portVariable}=${process.env[spec.portVariable]} is not a port`);
    else if (twin) problems.push(`${twin.portVariable} and ${spec.portVariable} are both ${value}`);
    else if (!(await portIsFree(value, host)))
      problems.push(
        `port ${value} (${spec.name}) is in use on ${host}: set ${spec.portVariable} to a free port`,
      );
    byPort.set(value, spec);
  }
  return problems;
}

async function provideMongo(stoppers: Stoppable[]): Promise<string> {
  const given = process.env.MONGODB_URI;
  if (given) {
    const named = mongoUriDatabase(given);
    say(
      `MongoDB: MONGODB_URI (${redactUri(given)})${named ? `; its databases ${Object.values(STACK_DATABASES).join(', ')}, not ${named}` : ''}`,
    );
    return given;
  }
  const engine = findMongoEngine();
  if (engine) {
    const dataDir = inDataDir(engine.kind);
    mkdirSync(dataDir, { recursive: true });
    const started: StartedEngine = await startEngine(engine, dataDir, 27017, {
      outlivesCtrlC: true,
    });
    stoppers.push(started);
    // Kept after the run: admin and seed name it when it no longer answers, rather than try 27017.
    writeEngineRecord({
      kind: engine.kind,
      port: started.port,
      pid: started.child.pid ?? 0,
      dataDir,
      startedAt: new Date().toISOString(),
    });
    say(
      `MongoDB: embedded ${engine.kind} (${engine.path}) on 127.0.0.1:${started.port}, data in ${shown(dataDir)}`,
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
    const dataDir = inDataDir('redis');
    mkdirSync(dataDir, { recursive: true });
    const started = await startEngine({ kind: 'redis-server', path }, dataDir, undefined, {
      outlivesCtrlC: true,
    });
    stoppers.push(started);
    say(`Redis: started redis-server on 127.0.0.1:${started.port}`);
    return `redis://127.0.0.1:${started.port}`;
  }
}

/** What a running `npm start` holds: the engines it started and the five services. */
interface Running {
  stoppers: Stoppable[];
  children: Array<{ name: string; child: ChildProcess }>;
  stopping: boolean;
  recorded: boolean;
}

const portOf = (spec: ServiceSpec) => Number(process.env[spec.portVariable] ?? spec.defaultPort);
const urlOf = (spec: ServiceSpec) => `http://127.0.0.1:${portOf(spec)}`;
const byName = Object.fromEntries(SERVICES.map((s) => [s.name, s]));

async function main(): Promise<void> {
  const running: Running = { stoppers: [], children: [], stopping: false, recorded: false };
  const stopAll = (code: number) => stop(running, code);
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGINT', () => void stopAll(0));

  const problems = await portProblems(portOf);
  if (problems.length > 0) {
    for (const problem of problems) say(problem);
    const other = readStackRecord();
    if (other) say(`another npm start runs (pid ${other.pid}, ${other.facadeUrl}); stop it first`);
    process.exit(1);
  }

  try {
    const mongoBase = await provideMongo(running.stoppers);
    const redisUrl = await provideRedis(running.stoppers);
    const secret = process.env.INTERNAL_SECRET ?? keptDevelopmentSecret();
    const shared = {
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      REDIS_URL: redisUrl,
      INTERNAL_SECRET: secret,
      ANALYTICS_URL: `${urlOf(byName.analytics!)}/graphql`,
      KEYS_URL: `${urlOf(byName.keys!)}/graphql`,
      WEBHOOKS_URL: `${urlOf(byName.webhooks!)}/graphql`,
      // The dashboard's tracker snippets point at the facade.
      PUBLIC_API_URL: process.env.PUBLIC_API_URL ?? urlOf(byName['rest-facade']!),
    };
    await startServices(running, shared, mongoBase, stopAll);
    announce();
    writeStackRecord({
      pid: process.pid,
      facadeUrl: urlOf(byName['rest-facade']!),
      dashboardUrl: urlOf(byName.gateway!),
      keysMongoUri: mongoUriWithDatabase(mongoBase, STACK_DATABASES.keys),
      redisUrl,
      redisKeyPrefix: baseEnvSchema.shape.REDIS_KEY_PREFIX.parse(process.env.REDIS_KEY_PREFIX),
    });
    running.recorded = true;
    say('press Ctrl+C to stop');
  } catch (error) {
    say(message(error));
    await stopAll(1);
  }
}

/** Stops the services front to back, then the engines, and exits with `code`. */
async function stop(running: Running, code: number): Promise<void> {
  if (running.stopping) return;
  running.stopping = true;
  say('stopping');
  if (running.recorded) removeStackRecord();
  // Front to back: the facade first, so nothing new reaches the services being stopped.
  const graceMs = stopGraceMs(process.env);
  for (const { name, child } of [...running.children].reverse())
    if ((await stopChild(child, graceMs)) === 'killed')
      say(`${name} did not stop within ${graceMs / 1000} s; killed`);
  for (const stopper of running.stoppers.reverse()) await stopper.stop().catch(() => undefined);
  say('stopped');
  process.exit(code);
}

/** Starts the five services: the subgraphs, then the gateway (which needs them), then the facade. */
async function startServices(
  running: Running,
  shared: NodeJS.ProcessEnv,
  mongoBase: string,
  stopAll: (code: number) => Promise<void>,
): Promise<void> {
  for (const spec of SERVICES) {
    const env = {
      ...shared,
      [spec.portVariable]: String(portOf(spec)),
      ...(spec.database ? { MONGODB_URI: mongoUriWithDatabase(mongoBase, spec.database) } : {}),
    };
    const child = spawn(process.execPath, serviceArgs(spec), {
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    running.children.push({ name: spec.name, child });
    child.on('exit', (code) => {
      if (!running.stopping) {
        say(`${spec.name} exited unexpectedly (${code}); stopping the stack`);
        void stopAll(1);
      }
    });
    if (spec.name === 'webhooks' || spec.name === 'gateway' || spec.name === 'rest-facade') {
      const waiting = spec.name === 'webhooks' ? SERVICES.slice(0, 3) : [spec];
      await Promise.all(
        waiting.map((s) =>
          waitUntilReady(s.name, urlOf(s), running.children.find((c) => c.name === s.name)!.child),
        ),
      );
    }
  }
}

function announce(): void {
  say('all five services are ready:');
  for (const spec of SERVICES)
    say(
      `  ${spec.name.padEnd(12)} ${urlOf(spec)}${spec.name === 'gateway' ? '/graphql (schema explorer)' : ''}`,
    );
  say(`  External API  ${urlOf(byName['rest-facade']!)}/api/external/v1`);
  say(
    `  dashboard     ${urlOf(byName.gateway!)}/  (sign in: npm run --silent admin -- login:link --email <user's email>)`,
  );
}

void main();
