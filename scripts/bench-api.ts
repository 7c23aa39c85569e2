/**
 * `npm run bench:api`: the External API's speed, measured on loopback in one run.
 *
 * 1. GET /usage through the facade next to the same persisted operation sent straight to the
 *    gateway: what the key check, limits and headers add (target: ≤ 1 ms at p50, ≤ 15 % of
 *    throughput).
 * 2. The whole path (facade → gateway → keys subgraph → database) at 1 and 50 clients
 *    (target: p50 ≤ 3 ms at 1 client).
 *    Next to both, a bare pass-through Node service (scripts/lib/bare-hop.ts): the least any
 *    separate HTTP hop costs on the same cores, so the facade's own share can be told apart.
 * 3. The same stack on @apollo/gateway's defaults (its own fetcher, inline tracing on) as the
 *    baseline (target: ours ≥ 1.5× its throughput).
 *
 * Services run as separate processes (from dist/, built first), as in production.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectMongo, createDeclaredIndexes } from '../common/mongo';
import { fromRoot } from '../common/paths';
import { readManifest } from '../common/persisted-operations';
import { createKeysModels } from '../subgraphs/keys/src/models';
import { AccountService } from '../subgraphs/keys/src/services/account.service';
import { CredentialService } from '../subgraphs/keys/src/services/credential.service';
import { findMongoEngine, startEngine, stopChild } from './lib/engines';
import { cpuPerRequest, cpuSecondsByRole } from './lib/process-cpu';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const BARE_HOP_PORT = 3199;
const PORTS = {
  FACADE_PORT: 3100,
  GATEWAY_PORT: 4100,
  ANALYTICS_PORT: 4101,
  KEYS_PORT: 4102,
  WEBHOOKS_PORT: 4103,
};

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * One client, one request at a time, timed with performance.now(): autocannon reports latency in
 * whole milliseconds, too coarse for sub-millisecond differences.
 */
async function measureSequential(
  label: string,
  options: { url: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Figures> {
  const { Agent, request } = await import('undici');
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + DURATION_S * 1000;
  while (Date.now() < until) {
    const started = performance.now();
    const response = await request(options.url, {
      method: (options.method ?? 'GET') as 'GET',
      headers: options.headers,
      body: options.body,
      dispatcher: agent,
    });
    await response.body.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.statusCode >= 300) errors += 1;
  }
  await agent.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const figures = {
    label,
    rps: latencies.length / DURATION_S,
    p50: at(0.5),
    p99: at(0.99),
    errors,
  };
  print(figures);
  return figures;
}

function print(figures: Figures): void {
  console.log(
    `  ${figures.label.padEnd(52)} ${figures.rps.toFixed(0).padStart(7)} req/s   p50 ${figures.p50.toFixed(2).padStart(6)} ms   p99 ${figures.p99.toFixed(2).padStart(7)} ms${figures.errors ? `   (${figures.errors} non-2xx!)` : ''}`,
  );
}

async function measure(label: string, options: autocannon.Options): Promise<Figures> {
  const cpuBefore = cpuSecondsByRole();
  const result = await autocannon({ duration: DURATION_S, ...options });
  const cpu = cpuPerRequest(cpuBefore, cpuSecondsByRole(), result.requests.total);
  const non2xx = result.non2xx + result.errors + result.timeouts;
  const figures = {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: non2xx,
  };
  print(figures);
  const total = [...cpu.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(
    `      CPU per request: ${total.toFixed(3)} ms (${[...cpu]
      .sort((a, b) => b[1] - a[1])
      .map(([role, ms]) => `${role} ${ms.toFixed(3)}`)
      .join(', ')})`,
  );
  return figures;
}

async function startStack(mongoUri: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fromRoot('dist', 'scripts', 'start-stack.js')], {
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(PORTS).map(([k, v]) => [k, String(v)])),
      MONGODB_URI: mongoUri,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      WEBHOOK_SECRET_KEY: 'a'.repeat(64),
      INTERNAL_SECRET: 'b'.repeat(64),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the stack exited during start');
    try {
      if (
        (await fetch(`http://127.0.0.1:${PORTS.FACADE_PORT}/readyz`)).ok &&
        (await fetch(`http://127.0.0.1:${PORTS.GATEWAY_PORT}/readyz`)).ok
      )
        return child;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error('the stack was not ready within 60 s');
}

async function startBareHop(body: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      fromRoot('dist', 'scripts', 'lib', 'bare-hop.js'),
      String(BARE_HOP_PORT),
      `http://127.0.0.1:${PORTS.GATEWAY_PORT}/graphql`,
      body,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the bare hop exited during start');
    try {
      await fetch(`http://127.0.0.1:${BARE_HOP_PORT}/`);
      return child;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('the bare hop did not start within 10 s');
}

async function seed(mongoUri: string): Promise<{ key: string; websiteId: string }> {
  const url = new URL(mongoUri);
  url.pathname = '/wa_keys';
  const connection = await connectMongo(url.toString());
  const models = createKeysModels(connection);
  await createDeclaredIndexes(models);
  const accounts = new AccountService(models);
  const credentials = new CredentialService(models, accounts, {
    revoked: async () => undefined,
    keyChanged: async () => undefined,
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
  await connection.close();
  return { key, websiteId: website.id };
}

async function runScenarios(label: string, key: string, websiteId: string, withOverhead: boolean) {
  const facade = `http://127.0.0.1:${PORTS.FACADE_PORT}/api/external/v1`;
  const usageOp = readManifest().operations.find((op) => op.name === 'Usage')!;
  const gatewayUsage: autocannon.Options = {
    url: `http://127.0.0.1:${PORTS.GATEWAY_PORT}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      operationName: 'Usage',
      variables: {},
      extensions: { persistedQuery: { version: 1, sha256Hash: usageOp.id } },
    }),
  };
  console.log(`\n${label}`);
  const results: Record<string, Figures> = {};
  if (withOverhead) {
    const bareHop = await startBareHop(gatewayUsage.body as string);
    const bareUsage = {
      url: `http://127.0.0.1:${BARE_HOP_PORT}/usage`,
      headers: { 'x-api-key': key },
    };
    results.gatewayUsage1 = await measureSequential(
      'gateway  POST /graphql (Usage, persisted), 1 client',
      {
        url: gatewayUsage.url,
        method: 'POST',
        headers: gatewayUsage.headers as Record<string, string>,
        body: gatewayUsage.body as string,
      },
    );
    results.bareUsage1 = await measureSequential('bare hop GET /usage, 1 client', bareUsage);
    results.facadeUsage1 = await measureSequential('facade   GET /usage, 1 client', {
      url: `${facade}/usage`,
      headers: { 'x-api-key': key },
    });
    results.gatewayUsage50 = await measure(
      'gateway  POST /graphql (Usage, persisted), 50 clients',
      { ...gatewayUsage, connections: 50 },
    );
    results.bareUsage50 = await measure('bare hop GET /usage, 50 clients', {
      ...bareUsage,
      connections: 50,
    });
    await stopChild(bareHop, 5_000);
    results.facadeUsage50 = await measure('facade   GET /usage, 50 clients', {
      url: `${facade}/usage`,
      headers: { 'x-api-key': key },
      connections: 50,
    });
  }
  results.path1 = await measureSequential('whole path GET /websites/:id, 1 client', {
    url: `${facade}/websites/${websiteId}`,
    headers: { 'x-api-key': key },
  });
  results.path50 = await measure('whole path GET /websites/:id, 50 clients', {
    url: `${facade}/websites/${websiteId}`,
    headers: { 'x-api-key': key },
    connections: 50,
  });
  return results;
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
    const { key, websiteId } = await seed(mongoUri);
    console.log(
      `External API benchmark: ${DURATION_S} s per scenario, loopback, ${engine ? engine.kind : 'MONGODB_URI'}`,
    );

    let stack = await startStack(mongoUri, { REDIS_KEY_PREFIX: `bench:${Date.now()}:` });
    const ours = await runScenarios(
      'This stack (keep-alive undici fetcher, inline tracing off)',
      key,
      websiteId,
      true,
    );
    await stopChild(stack, 15_000);

    stack = await startStack(mongoUri, {
      REDIS_KEY_PREFIX: `bench:${Date.now()}:base:`,
      GATEWAY_FAST_FETCH: 'false',
      SUBGRAPH_INLINE_TRACE: 'true',
    });
    const baseline = await runScenarios(
      'Baseline: the same stack on @apollo/gateway defaults (default fetcher, inline tracing on)',
      key,
      websiteId,
      false,
    );
    await stopChild(stack, 15_000);

    const o = ours;
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
      `  bare pass-through hop, for comparison:      +${(o.bareUsage1!.p50 - o.gatewayUsage1!.p50).toFixed(2)} ms at p50, ${(bareCost * 100).toFixed(1)} % of throughput`,
    );
    console.log(
      `  facade beyond the bare hop (50 clients):    ${((1 - o.facadeUsage50!.rps / o.bareUsage50!.rps) * 100).toFixed(1)} % of throughput`,
    );
    console.log(
      `  whole path p50 at 1 client:                 ${o.path1!.p50.toFixed(2)} ms   (target ≤ 3 ms)`,
    );
    console.log(
      `  whole path throughput vs baseline (50 cl.): ${(o.path50!.rps / baseline.path50!.rps).toFixed(2)}×   (${o.path50!.rps.toFixed(0)} vs ${baseline.path50!.rps.toFixed(0)} req/s; target ≥ 1.5×)`,
    );
    console.log(
      `  whole path p50 vs baseline (1 client):      ${o.path1!.p50.toFixed(2)} vs ${baseline.path1!.p50.toFixed(2)} ms`,
    );
  } finally {
    if (started) await started.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
