/**
 * `npm run test:faults`: the fault suite (docs/faults.md). Starts its own Redis, MongoDB engine
 * and the five built services, runs each scenario under load, prints one line of figures per
 * scenario with PASS/FAIL per target, and one JSON line of everything at the end. Exits 1 when
 * a target fails. Needs `npm run build` first; builds nothing itself.
 *
 *   npm run test:faults                       # every scenario
 *   npm run test:faults -- redis_down_10s     # only those named
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { createAccount } from './account';
import { removeLeftovers } from './leftovers';
import { ServiceLogs } from './logs';
import { mongoDown } from './scenarios/mongo-down';
import { kill9Subgraph } from './scenarios/kill9-subgraph';
import { redisDown } from './scenarios/redis-down';
import { redisLostInFlight } from './scenarios/redis-lost-in-flight';
import { redisRestartEmpty } from './scenarios/redis-restart-empty';
import { sigtermUnderLoad } from './scenarios/sigterm-under-load';
import type { Figures, Scenario, ScenarioContext, ScenarioResult } from './session';
import { startFaultStack, type FaultStack } from './stack';
import { ranToTheEnd } from './targets';

/**
 * In this order. Redis coming back empty takes the streams' consumer groups and the hot days
 * with it; a consumer that failed to recover from that would stop the call log or ingestion for
 * every later scenario, so it runs after those that need a working pipeline, and their figures
 * stay their own. The graceful stop stops the whole stack and starts it again, so it comes last.
 */
const SCENARIOS: Scenario[] = [
  redisDown,
  mongoDown,
  kill9Subgraph('analytics'),
  kill9Subgraph('keys'),
  kill9Subgraph('webhooks'),
  redisRestartEmpty,
  redisLostInFlight('redis_lost_in_flight', 1),
  redisLostInFlight('redis_lost_in_flight_twice', 2),
  sigtermUnderLoad,
];

const LOG_DIR = fromRoot('test-results', 'faults');
const BUILT_ENTRY = fromRoot('dist', 'gateway', 'src', 'main.js');

const say = (text: string) => process.stderr.write(`[faults] ${text}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

let stack: FaultStack | null = null;
let stopping = false;

async function stopEverything(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('stopping everything the suite started');
    await stack?.stop().catch((error: unknown) => say(`while stopping: ${String(error)}`));
  }
  const killed = removeLeftovers();
  if (killed > 0) say(`killed ${killed} process(es) that had not stopped`);
  process.exit(code);
}

function selectScenarios(names: string[]): Scenario[] {
  if (names.length === 0) return SCENARIOS;
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0)
    throw new Error(
      `unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`,
    );
  return SCENARIOS.filter((s) => names.includes(s.name));
}

function figureLine(name: string, figures: Figures): string {
  return [name, ...Object.entries(figures).map(([k, v]) => `${k}=${v ?? '-'}`)].join(' ');
}

async function runScenario(
  scenario: Scenario,
  context: ScenarioContext,
): Promise<ScenarioResult & { logErrors: string[] }> {
  const { services } = context.stack;
  const restarted = await services.restartExited();
  if (restarted.length > 0) say(`started again before ${scenario.name}: ${restarted.join(', ')}`);
  say(`${scenario.name}: running`);
  const startedAt = Date.now();
  const mark = context.logs.mark();
  let result: ScenarioResult;
  try {
    result = await scenario.run(context);
  } catch (error) {
    say(`${scenario.name} stopped early: ${error instanceof Error ? error.stack : String(error)}`);
    result = { figures: {}, targets: [ranToTheEnd(error)] };
  }
  const errors = context.logs.errorsSince(mark);
  const crashed = services.unexpectedExits
    .filter((e) => e.at >= startedAt)
    .map((e) => `${e.service}:${e.code ?? e.signal}`);
  result.figures = {
    ...result.figures,
    crashed: crashed.join(',') || 'none',
    log_errors: errors.counts || 'none',
    duration_s: Math.round((Date.now() - startedAt) / 1000),
  };
  return { ...result, logErrors: errors.messages.slice(0, 10) };
}

async function main(): Promise<void> {
  if (!existsSync(BUILT_ENTRY)) {
    say(
      `${BUILT_ENTRY} is missing: the suite runs the built services and builds nothing itself. Run \`npm run build\` first.`,
    );
    process.exit(1);
  }
  const scenarios = selectScenarios(process.argv.slice(2));
  rmSync(LOG_DIR, { recursive: true, force: true });
  const startedAt = Date.now();
  stack = await startFaultStack(LOG_DIR, say);
  const account = await createAccount(stack.adminEnv);
  const context: ScenarioContext = {
    stack,
    account,
    reader: {
      gatewayUrl: stack.gatewayUrl,
      facadeUrl: stack.facadeUrl,
      token: account.token,
      probeKey: account.probeKey,
      probeQuotaRequests: 0,
    },
    logs: new ServiceLogs(LOG_DIR),
    say,
  };
  say('account ready; scenarios start');

  const report: Record<string, unknown> = {};
  let failed = 0;
  for (const scenario of scenarios) {
    const result = await runScenario(scenario, context);
    out(figureLine(scenario.name, result.figures));
    for (const t of result.targets) {
      if (!t.pass) failed++;
      out(`  ${t.pass ? 'PASS' : 'FAIL'} ${scenario.name}: ${t.target} — ${t.measured}`);
    }
    report[scenario.name] = {
      figures: result.figures,
      targets: result.targets,
      log_errors: result.logErrors,
    };
  }
  const summary = JSON.stringify({
    faults: {
      at: new Date(startedAt).toISOString(),
      duration_s: Math.round((Date.now() - startedAt) / 1000),
      failed_targets: failed,
      scenarios: report,
    },
  });
  out(summary);
  writeFileSync(path.join(LOG_DIR, 'figures.json'), `${summary}\n`);
  say(failed === 0 ? 'every target met' : `${failed} target(s) failed`);
  await stopEverything(failed === 0 ? 0 : 1);
}

process.on('SIGINT', () => void stopEverything(130));
process.on('SIGTERM', () => void stopEverything(143));
process.on('exit', () => removeLeftovers());
process.on('uncaughtException', (error) => {
  say(`uncaught: ${error.stack ?? String(error)}`);
  void stopEverything(1);
});
process.on('unhandledRejection', (error) => {
  say(`unhandled rejection: ${error instanceof Error ? error.stack : String(error)}`);
  void stopEverything(1);
});

main().catch((error: unknown) => {
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  void stopEverything(1);
});
