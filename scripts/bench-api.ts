/**
 * `npm run bench:api`: the External API's speed, measured on loopback in one run.
 *
 * 1. GET /usage through the facade next to the same persisted operation sent straight to the
 *    gateway: what the key check, limits, headers and call log add (target: ≤ 1 ms at p50,
 *    ≤ 15 % of throughput). The facade runs the gateway's engine in its own process; next to both,
 *    a bare pass-through Node service in front of the gateway (scripts/lib/bare-hop.ts) shows what
 *    a separate HTTP hop alone would cost on the same cores. The targets take turns in short
 *    slices, so the machine's drift hits them alike.
 * 2. Repeated reads, answered from the read cache (GET /websites/:id and GET /analytics/:id?range=30d),
 *    next to a bare Express handler answering the same body with the same headers
 *    (scripts/lib/bare-express.ts): what the hardware gives without any of the API's work
 *    (targets: ≥ 0.30× its req/s at 50 clients, p50 ≤ 1 ms at 1 client); and the same website
 *    read sent to the gateway with an access token, as a dashboard does (no read cache there).
 * 3. The whole path without the read cache (facade and its engine → keys subgraph → database),
 *    as every first read goes, at 1 and 50 clients (target: p50 ≤ 3 ms at 1 client), next to
 *    the baseline: the same stack on @apollo/gateway's defaults (its own fetcher, inline tracing
 *    on), also without the read cache (target: ours ≥ 1.5× its throughput). The two stacks run
 *    side by side on ports of their own and take turns like the targets above.
 *
 * Services run as separate processes (from dist/, built first), as in production. Each part warms
 * its targets up first (warmUp): what is measured is the services' steady state.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectMongo, createDeclaredIndexes } from '../common/platform/mongo';
import { fromRoot } from '../common/platform/paths';
import { readManifest } from '../common/contracts/persisted-operations';
import { createKeysModels } from '../subgraphs/keys/src/models';
import { AccountService } from '../subgraphs/keys/src/services/account.service';
import { CredentialService } from '../subgraphs/keys/src/services/credential.service';
import { findMongoEngine, startEngine, stopChild } from './lib/engines';
import { cpuSecondsByRole, stackProcesses } from './lib/process-cpu';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const BARE_HOP_PORT = 3199;
const BARE_HANDLER_PORT = 3198;
const INTERNAL_SECRET = 'b'.repeat(64);
const PORTS = {
  FACADE_PORT: 3100,
  GATEWAY_PORT: 4100,
  ANALYTICS_PORT: 4101,
  KEYS_PORT: 4102,
  WEBHOOKS_PORT: 4103,
};
type StackPorts = typeof PORTS;
/** The baseline's, which runs beside the stack without the read cache. */
const BASELINE_PORTS: StackPorts = {
  FACADE_PORT: 3200,
  GATEWAY_PORT: 4200,
  ANALYTICS_PORT: 4201,
  KEYS_PORT: 4202,
  WEBHOOKS_PORT: 4203,
};

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface SequentialTarget {
  label: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Slices in which interleaved targets take turns, so drift of the machine hits all alike. */
const SLICE_MS = 200;

/**
 * One client, one request at a time, timed with performance.now() (autocannon reports latency in
 * whole milliseconds, too coarse for sub-millisecond differences). Several targets take turns in
 * short slices for DURATION_S each: on a shared virtual machine latency drifts by more than the
 * differences measured, and alternating cancels that out.
 */
async function measureSequential<K extends string>(
  targets: Record<K, SequentialTarget>,
): Promise<Record<K, Figures>> {
  const { Agent, request } = await import('undici');
  const runs = (Object.entries(targets) as Array<[K, SequentialTarget]>).map(([name, target]) => ({
    name,
    target,
    agent: new Agent({ keepAliveTimeout: 30_000, connections: 1 }),
    latencies: [] as number[],
    errors: 0,
  }));
  const slices = Math.ceil((DURATION_S * 1000) / SLICE_MS);
  for (let slice = 0; slice < slices; slice += 1) {
    for (const run of runs) {
      const until = performance.now() + SLICE_MS;
      while (performance.now() < until) {
        const started = performance.now();
        const response = await request(run.target.url, {
          method: (run.target.method ?? 'GET') as 'GET',
          headers: run.target.headers,
          body: run.target.body,
          dispatcher: run.agent,
        });
        await response.body.arrayBuffer();
        run.latencies.push(performance.now() - started);
        if (response.statusCode >= 300) run.errors += 1;
      }
    }
  }
  const results = {} as Record<K, Figures>;
  for (const run of runs) {
    await run.agent.close();
    const latencies = run.latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    const figures = {
      label: run.target.label,
      rps: latencies.length / DURATION_S,
      p50: at(0.5),
      p99: at(0.99),
      errors: run.errors,
    };
    print(figures);
    results[run.name] = figures;
  }
  return results;
}

function print(figures: Figures): void {
  console.log(
    `  ${figures.label.padEnd(52)} ${figures.rps.toFixed(0).padStart(7)} req/s   p50 ${figures.p50.toFixed(2).padStart(6)} ms   p99 ${figures.p99.toFixed(2).padStart(7)} ms${figures.errors ? `   (${figures.errors} non-2xx!)` : ''}`,
  );
}

/** Rounds in which the load scenarios take turns (see measureSequential for why). */
const LOAD_ROUNDS = 4;

/** Seconds of load each target gets before anything of it is measured. */
const WARM_UP_S = Number(process.env.BENCH_WARM_UP_S ?? 6);

/**
 * Runs every target at 50 clients for WARM_UP_S before any of them is measured: V8 compiles a
 * service's hot paths in tiers over its first thousands of requests, and measured cold the first
 * rounds ran at 60–70 % of the later ones, the facade (the engine and the REST layer) the longest.
 */
async function warmUp(targets: autocannon.Options[]): Promise<void> {
  for (const target of targets)
    await autocannon({ ...target, connections: 50, duration: WARM_UP_S });
}

/**
 * Load with autocannon, DURATION_S per target split into LOAD_ROUNDS turns, and the CPU time each
 * process of the stack spent per request (from /proc); of the target's `stack` where two run.
 */
async function measureLoad<K extends string>(
  targets: Record<K, { label: string; options: autocannon.Options; stack?: ChildProcess }>,
): Promise<Record<K, Figures>> {
  const names = Object.keys(targets) as K[];
  const totals = new Map(
    names.map((name) => [
      name,
      { requests: 0, errors: 0, p50s: [] as number[], p99s: [] as number[], cpu: new Map() },
    ]),
  );
  for (let round = 0; round < LOAD_ROUNDS; round += 1) {
    for (const name of names) {
      const total = totals.get(name)!;
      const stack = targets[name].stack?.pid;
      const cpuBefore = cpuSecondsByRole(stack);
      const result = await autocannon({
        duration: DURATION_S / LOAD_ROUNDS,
        ...targets[name].options,
      });
      const cpuAfter = cpuSecondsByRole(stack);
      for (const [role, seconds] of cpuAfter) {
        const spent = seconds - (cpuBefore.get(role) ?? 0);
        total.cpu.set(role, (total.cpu.get(role) ?? 0) + spent);
      }
      total.requests += result.requests.total;
      total.errors += result.non2xx + result.errors + result.timeouts;
      total.p50s.push(result.latency.p50);
      total.p99s.push(result.latency.p99);
    }
  }
  const results = {} as Record<K, Figures>;
  for (const name of names) {
    const total = totals.get(name)!;
    const figures = {
      label: targets[name].label,
      rps: total.requests / DURATION_S,
      p50: total.p50s.reduce((a, b) => a + b, 0) / total.p50s.length,
      p99: Math.max(...total.p99s),
      errors: total.errors,
    };
    print(figures);
    const cpu = [...(total.cpu as Map<string, number>)]
      .map(([role, seconds]) => [role, (seconds * 1000) / total.requests] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `      CPU per request: ${cpu.reduce((sum, [, ms]) => sum + ms, 0).toFixed(3)} ms (${cpu
        .map(([role, ms]) => `${role} ${ms.toFixed(3)}`)
        .join(', ')})`,
    );
    results[name] = figures;
  }
  return results;
}

async function startStack(
  mongoUri: string,
  env: Record<string, string>,
  ports: StackPorts = PORTS,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fromRoot('dist', 'scripts', 'start-stack.js')], {
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      // Its records (stack.json) apart from a developer's npm start and from the other stack's.
      STACK_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'wa-bench-stack-')),
      MONGODB_URI: mongoUri,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: 'a'.repeat(64),
      INTERNAL_SECRET,
      // The baseline sends the key straight to the gateway (and the bare hop forwards it), which
      // a deployed gateway refuses: API keys belong to the facade, where limits apply.
      GATEWAY_DIRECT_API_KEYS: 'true',
      // No load balancer to leave: each service stops at once (five drains of 5 s in a row would
      // outlast the stack's stop below, and leave the last services running).
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the stack exited during start');
    try {
      if (
        (await fetch(`http://127.0.0.1:${ports.FACADE_PORT}/readyz`)).ok &&
        (await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/readyz`)).ok
      )
        return child;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error('the stack was not ready within 60 s');
}

/**
 * Runs `measure` with the processes of `roles` pinned to the last CPU and the rest of the stack
 * (and this load generator) to the others, as when the front services run on hosts of their own. Redis
 * is the machine's shared server and is left alone. Null where taskset or a second CPU is missing.
 */
async function withOwnCore<T>(roles: string[], measure: () => Promise<T>): Promise<T | null> {
  const cpus = availableParallelism();
  if (cpus < 2) return null;
  const all = `0-${cpus - 1}`;
  const pin = (pid: number, list: string) =>
    spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' }).status === 0;
  const processes = stackProcesses().filter((p) => p.role !== 'Redis');
  const pinned = [
    ...processes.map((p) =>
      pin(p.pid, roles.includes(p.role) ? String(cpus - 1) : `0-${cpus - 2}`),
    ),
    pin(process.pid, `0-${cpus - 2}`),
  ];
  try {
    return pinned.every(Boolean) ? await measure() : null;
  } finally {
    for (const p of processes) pin(p.pid, all);
    pin(process.pid, all);
  }
}

/** One of the bench's own helper servers (scripts/lib), once it answers on `port`. */
async function startHelper(script: string, port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [fromRoot('dist', 'scripts', 'lib', script), String(port), ...args],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited during start`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return child;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${script} did not start within 10 s`);
}

/** A bare hop on `port`, forwarding `body` to the gateway with the caller's key. */
const startBareHop = (port: number, body: string) =>
  startHelper('bare-hop.js', port, [`http://127.0.0.1:${PORTS.GATEWAY_PORT}/graphql`, body]);

/** Headers a server sets per response or per connection, left out of the bare handler's copy. */
const PER_RESPONSE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'etag',
  'x-request-id',
]);

interface Seeded {
  key: string;
  /** A dashboard access token of the key's user, for the gateway's own reads. */
  token: string;
  websiteId: string;
}

async function seed(mongoUri: string): Promise<Seeded> {
  const url = new URL(mongoUri);
  url.pathname = '/wa_keys';
  const connection = await connectMongo(url.toString());
  const models = createKeysModels(connection);
  await createDeclaredIndexes(models);
  const accounts = new AccountService(models);
  const credentials = new CredentialService(models, accounts, {
    exclusive: (_keyId, change) => change(),
    revoked: async () => undefined,
    keyChanged: async () => undefined,
    tokensLastUsed: async () => new Map(),
    tokensRevoked: async () => undefined,
  });
  // Limits far above what a benchmark sends, so every request does the full work and succeeds.
  const org = await accounts.createOrganization({
    name: 'Bench',
    plan: 'enterprise',
    customLimits: { requestsPerMinute: 100_000_000, requestsPerMonth: 1_000_000_000 },
  });
  const user = await accounts.createUser(`bench-${Date.now()}@example.test`);
  await accounts.addMember(org.id, user.id, 'owner');
  const website = await accounts.createWebsite({
    organizationId: org.id,
    name: 'Bench',
    domain: 'bench.example',
  });
  const { key } = await credentials.createApiKey({
    organizationId: org.id,
    userId: user.id,
    name: 'bench',
    expiration: 'never',
  });
  const { token } = await credentials.createAccessToken(user.id, 'bench');
  await connection.close();
  return { key, token, websiteId: website.id };
}

interface Parts {
  /** GET /usage through the facade, straight to the gateway, and through a bare hop. */
  overhead?: boolean;
  /** Repeated reads through the read cache, a bare handler, the gateway with an access token. */
  reads?: boolean;
}

async function runScenarios(label: string, seeded: Seeded, parts: Parts) {
  console.log(`\n${label}`);
  const results: Record<string, Figures> = {};
  if (parts.overhead) Object.assign(results, await measureOverhead(seeded));
  if (parts.reads) Object.assign(results, await measureRepeatedReads(seeded));
  return results;
}

const facadeUrl = `http://127.0.0.1:${PORTS.FACADE_PORT}/api/external/v1`;
const gatewayUrl = `http://127.0.0.1:${PORTS.GATEWAY_PORT}/graphql`;

/** A persisted operation sent to the gateway, as autocannon options. */
function gatewayCall(
  operationName: string,
  variables: Record<string, unknown>,
  credential: Record<string, string>,
): autocannon.Options & { body: string; headers: Record<string, string> } {
  const operation = readManifest().operations.find((op) => op.name === operationName)!;
  return {
    url: gatewayUrl,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credential },
    body: JSON.stringify({
      operationName,
      variables,
      extensions: { persistedQuery: { version: 1, sha256Hash: operation.id } },
    }),
  };
}

async function measureOverhead({ key }: Seeded): Promise<Record<string, Figures>> {
  const results: Record<string, Figures> = {};
  const gatewayUsage = gatewayCall('Usage', {}, { 'x-api-key': key });
  const bareHop = await startBareHop(BARE_HOP_PORT, gatewayUsage.body);
  const bareUsage = {
    url: `http://127.0.0.1:${BARE_HOP_PORT}/usage`,
    headers: { 'x-api-key': key },
  };
  const facadeUsage = { url: `${facadeUrl}/usage`, headers: { 'x-api-key': key } };
  await warmUp([gatewayUsage, bareUsage, facadeUsage]);
  Object.assign(
    results,
    await measureSequential({
      gatewayUsage1: {
        label: 'gateway  POST /graphql (Usage, persisted), 1 client',
        ...gatewayUsage,
        url: gatewayUrl,
      },
      bareUsage1: { label: 'bare hop GET /usage, 1 client', ...bareUsage },
      facadeUsage1: { label: 'facade   GET /usage, 1 client', ...facadeUsage },
    }),
  );
  const overheadLoad = {
    gateway: {
      label: 'gateway  POST /graphql (Usage, persisted), 50 clients',
      options: { ...gatewayUsage, connections: 50 },
    },
    bare: {
      label: 'bare hop GET /usage, 50 clients',
      options: { ...bareUsage, connections: 50 },
    },
    facade: {
      label: 'facade   GET /usage, 50 clients',
      options: { ...facadeUsage, connections: 50 },
    },
  };
  const shared = await measureLoad(overheadLoad);
  results.gatewayUsage50 = shared.gateway;
  results.bareUsage50 = shared.bare;
  results.facadeUsage50 = shared.facade;
  // The processes that take the HTTP requests; the subgraphs, engines and generator share the other.
  const ownCore = await withOwnCore(['facade', 'gateway', 'bare hop'], () => {
    console.log('  facade, gateway and bare hop on a CPU of their own, the rest on the other:');
    return measureLoad(overheadLoad);
  });
  if (ownCore) {
    results.gatewayUsage50OwnCore = ownCore.gateway;
    results.bareUsage50OwnCore = ownCore.bare;
    results.facadeUsage50OwnCore = ownCore.facade;
  } else console.log('  (no second CPU or no taskset: the own-CPU scenario is skipped)');
  await stopChild(bareHop, 5_000);
  return results;
}

/**
 * Reads repeated by every client, as pollers and dashboards do: after the first, each is answered
 * from the read cache (checked: the bench refuses to measure reads that are not hits).
 */
async function measureRepeatedReads({
  key,
  token,
  websiteId,
}: Seeded): Promise<Record<string, Figures>> {
  const headers = { 'x-api-key': key };
  const website = `${facadeUrl}/websites/${websiteId}`;
  const analytics = `${facadeUrl}/analytics/${websiteId}?range=30d`;
  for (const url of [website, analytics]) await (await fetch(url, { headers })).text();
  const repeated = await fetch(website, { headers });
  const body = await repeated.text();
  if (repeated.headers.get('x-cache') !== 'HIT')
    throw new Error(
      `a repeated read was not a cache hit (X-Cache: ${repeated.headers.get('x-cache')})`,
    );
  const bare = await startHelper('bare-express.js', BARE_HANDLER_PORT, [
    body,
    JSON.stringify(
      Object.fromEntries([...repeated.headers].filter(([name]) => !PER_RESPONSE_HEADERS.has(name))),
    ),
  ]);
  const bareUrl = `http://127.0.0.1:${BARE_HANDLER_PORT}/websites/${websiteId}`;
  const gatewayWebsite = gatewayCall(
    'GetWebsite',
    { id: websiteId },
    { authorization: `Bearer ${token}` },
  );
  await warmUp([
    { url: bareUrl },
    { url: website, headers },
    { url: analytics, headers },
    gatewayWebsite,
  ]);
  const results: Record<string, Figures> = await measureSequential({
    bare1: { label: 'bare handler, same body and headers, 1 client', url: bareUrl },
    repeatWebsite1: { label: 'repeated GET /websites/:id, 1 client', url: website, headers },
    repeatAnalytics1: {
      label: 'repeated GET /analytics/:id?range=30d, 1 client',
      url: analytics,
      headers,
    },
    gatewayWebsite1: {
      label: 'gateway GetWebsite, access token, 1 client',
      ...gatewayWebsite,
      url: gatewayUrl,
    },
  });
  const load = await measureLoad({
    bare50: {
      label: 'bare handler, same body and headers, 50 clients',
      options: { url: bareUrl, connections: 50 },
    },
    repeatWebsite50: {
      label: 'repeated GET /websites/:id, 50 clients',
      options: { url: website, headers, connections: 50 },
    },
    repeatAnalytics50: {
      label: 'repeated GET /analytics/:id?range=30d, 50 clients',
      options: { url: analytics, headers, connections: 50 },
    },
    gatewayWebsite50: {
      label: 'gateway GetWebsite, access token, 50 clients',
      options: { ...gatewayWebsite, connections: 50 },
    },
  });
  await stopChild(bare, 5_000);
  return { ...results, ...load };
}

/** The whole path GET /websites/:id on the stack without the read cache and on the baseline. */
async function measurePaths(
  { key, websiteId }: Seeded,
  stacks: { uncached: ChildProcess; baseline: ChildProcess },
): Promise<Record<'path1' | 'defaults1' | 'path50' | 'defaults50', Figures>> {
  const target = (ports: StackPorts) => ({
    url: `http://127.0.0.1:${ports.FACADE_PORT}/api/external/v1/websites/${websiteId}`,
    headers: { 'x-api-key': key },
  });
  const ours = target(PORTS);
  const baseline = target(BASELINE_PORTS);
  await warmUp([ours, baseline]);
  const sequential = await measureSequential({
    path1: { label: 'whole path GET /websites/:id, 1 client', ...ours },
    defaults1: { label: 'baseline, 1 client', ...baseline },
  });
  const load = await measureLoad({
    path50: {
      label: 'whole path GET /websites/:id, 50 clients',
      options: { ...ours, connections: 50 },
      stack: stacks.uncached,
    },
    defaults50: {
      label: 'baseline, 50 clients',
      options: { ...baseline, connections: 50 },
      stack: stacks.baseline,
    },
  });
  return { ...sequential, ...load };
}

async function main(): Promise<void> {
  const engine = process.env.MONGODB_URI ? null : findMongoEngine();
  if (!process.env.MONGODB_URI && !engine)
    throw new Error('no MongoDB: set MONGODB_URI or run npm run ferretdb:install');
  const started = engine
    ? await startEngine(engine, mkdtempSync(path.join(tmpdir(), 'wa-bench-')))
    : null;
  const mongoUri = process.env.MONGODB_URI ?? `mongodb://127.0.0.1:${started!.port}/`;
  try {
    const seeded = await seed(mongoUri);
    console.log(
      `External API benchmark: ${DURATION_S} s per scenario after ${WARM_UP_S} s of warm-up per target, loopback, ${engine ? engine.kind : 'MONGODB_URI'}`,
    );

    const stack = await startStack(mongoUri, { REDIS_KEY_PREFIX: `bench:${Date.now()}:` });
    const ours = await runScenarios(
      'This stack (keep-alive undici fetcher, inline tracing off, read cache on)',
      seeded,
      { overhead: true, reads: true },
    );
    await stopChild(stack, 15_000);

    const uncachedStack = await startStack(mongoUri, {
      REDIS_KEY_PREFIX: `bench:${Date.now()}:uncached:`,
      READ_CACHE: 'off',
    });
    const baselineStack = await startStack(
      mongoUri,
      {
        REDIS_KEY_PREFIX: `bench:${Date.now()}:base:`,
        GATEWAY_FAST_FETCH: 'false',
        SUBGRAPH_INLINE_TRACE: 'true',
        READ_CACHE: 'off',
      },
      BASELINE_PORTS,
    );
    console.log(
      '\nThis stack with the read cache off, beside the baseline: the same stack on @apollo/gateway defaults (default fetcher, inline tracing on), read cache off',
    );
    const paths = await measurePaths(seeded, {
      uncached: uncachedStack,
      baseline: baselineStack,
    });
    await Promise.all([stopChild(uncachedStack, 15_000), stopChild(baselineStack, 15_000)]);

    summarize(ours, paths);
  } finally {
    if (started) await started.stop();
  }
}

/** The figures against their targets, then one JSON line of them. */
function summarize(
  o: Awaited<ReturnType<typeof runScenarios>>,
  paths: Awaited<ReturnType<typeof measurePaths>>,
): void {
  const u = { path1: paths.path1, path50: paths.path50 };
  const baseline = { path1: paths.defaults1, path50: paths.defaults50 };
  console.log('\nSummary');
  const p50Added = o.facadeUsage1!.p50 - o.gatewayUsage1!.p50;
  const throughputCost = 1 - o.facadeUsage50!.rps / o.gatewayUsage50!.rps;
  console.log(
    `  facade overhead at p50 (1 client):          ${p50Added.toFixed(2)} ms   (target ≤ 1 ms)`,
  );
  console.log(
    `  facade throughput cost (50 clients):        ${(throughputCost * 100).toFixed(1)} %   (target ≤ 15 %)`,
  );
  const bareCost = 1 - o.bareUsage50!.rps / o.gatewayUsage50!.rps;
  console.log(
    `  a bare HTTP hop in front of the gateway:    +${(o.bareUsage1!.p50 - o.gatewayUsage1!.p50).toFixed(2)} ms at p50, ${(bareCost * 100).toFixed(1)} % of throughput (for comparison)`,
  );
  if (o.facadeUsage50OwnCore) {
    console.log(
      `  … with the front processes on a CPU of their own: ${((1 - o.facadeUsage50OwnCore.rps / o.gatewayUsage50OwnCore!.rps) * 100).toFixed(1)} % of throughput (bare hop: ${((1 - o.bareUsage50OwnCore!.rps / o.gatewayUsage50OwnCore!.rps) * 100).toFixed(1)} %)`,
    );
  }
  const repeatRps = Math.min(o.repeatWebsite50!.rps, o.repeatAnalytics50!.rps);
  const repeatP50 = Math.max(o.repeatWebsite1!.p50, o.repeatAnalytics1!.p50);
  console.log(
    `  repeated reads vs a bare handler (50 cl.):  ${(repeatRps / o.bare50!.rps).toFixed(2)}×   (slower of the two: ${repeatRps.toFixed(0)} vs ${o.bare50!.rps.toFixed(0)} req/s; target ≥ 0.30×)`,
  );
  console.log(
    `  repeated reads p50 at 1 client:             ${repeatP50.toFixed(2)} ms   (slower of the two; target ≤ 1 ms)`,
  );
  console.log(
    `  uncached whole path p50 at 1 client:        ${u.path1!.p50.toFixed(2)} ms   (target ≤ 3 ms)`,
  );
  console.log(
    `  uncached whole path vs baseline (50 cl.):   ${(u.path50!.rps / baseline.path50!.rps).toFixed(2)}×   (${u.path50!.rps.toFixed(0)} vs ${baseline.path50!.rps.toFixed(0)} req/s; target ≥ 1.5×)`,
  );
  console.log(
    `  uncached whole path p50 vs baseline (1 cl.): ${u.path1!.p50.toFixed(2)} vs ${baseline.path1!.p50.toFixed(2)} ms`,
  );
  const round = (value: number, digits = 2) => Number(value.toFixed(digits));
  console.log(
    JSON.stringify({
      gateway_usage_p50_ms: round(o.gatewayUsage1!.p50),
      facade_usage_p50_ms: round(o.facadeUsage1!.p50),
      facade_overhead_ms: round(p50Added),
      gateway_usage_rps: round(o.gatewayUsage50!.rps, 0),
      facade_usage_rps: round(o.facadeUsage50!.rps, 0),
      facade_cost_pct: round(throughputCost * 100, 1),
      bare_hop_cost_pct: round(bareCost * 100, 1),
      bare_rps: round(o.bare50!.rps, 0),
      repeat_website_rps: round(o.repeatWebsite50!.rps, 0),
      repeat_analytics_rps: round(o.repeatAnalytics50!.rps, 0),
      repeat_ratio_vs_bare: round(repeatRps / o.bare50!.rps),
      repeat_p50_ms: round(repeatP50),
      repeat_website_p50_ms: round(o.repeatWebsite1!.p50),
      repeat_analytics_p50_ms: round(o.repeatAnalytics1!.p50),
      gateway_token_website_rps: round(o.gatewayWebsite50!.rps, 0),
      uncached_website_rps: round(u.path50!.rps, 0),
      path_p50_ms: round(u.path1!.p50),
      defaults_path_rps: round(baseline.path50!.rps, 0),
      vs_defaults_x: round(u.path50!.rps / baseline.path50!.rps),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
