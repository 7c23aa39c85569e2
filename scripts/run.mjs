#!/usr/bin/env node
// Entry point of `npm start` and `npm test`. Plain JavaScript so it runs on whatever Node the
// machine has: it installs what is missing (dependencies, a MongoDB-compatible engine), then
// hands over to the project's own Node (the `node` package in node_modules, Node 24).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => process.stderr.write(`[run] ${message}\n`);
const projectNode = path.join(root, 'node_modules', '.bin', 'node');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    say(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (
    existsSync(projectNode) &&
    existsSync(marker) &&
    statSync(marker).mtimeMs >= statSync(lock).mtimeMs
  )
    return;
  say('installing dependencies (npm ci) — first run only');
  // Errors only: the deprecation warnings of transitive dependencies are not the newcomer's to fix.
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

function onPath(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

/** A local engine is needed unless MONGODB_URI points at one. */
function ensureMongoEngine({ optional }) {
  if (process.env.MONGODB_URI) return say(`using MONGODB_URI`);
  if (
    onPath('mongod') ||
    onPath('ferretdb') ||
    existsSync(path.join(root, '.tools', 'bin', 'ferretdb'))
  )
    return;
  if (!onPath('go')) {
    if (optional)
      return say('no mongod, ferretdb or Go found; the stack will try mongodb-memory-server');
    say(
      'no MongoDB-compatible engine: set MONGODB_URI, install mongod or ferretdb, or install Go so FerretDB can be built',
    );
    process.exit(1);
  }
  say('building FerretDB into .tools/bin (first run only, about three minutes)');
  run('bash', ['scripts/install-ferretdb.sh']);
}

/** The newest modification time of a file, or of the files under a folder; 0 when missing. */
function newestMtime(target) {
  const stats = statSync(target, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce(
      (newest, entry) =>
        Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs),
      0,
    );
}

/** Builds the dashboard (Vite) unless dashboard/dist is newer than its sources. */
function ensureDashboard() {
  const built = path.join(root, 'dashboard', 'dist', 'index.html');
  const newestSource = Math.max(
    ...['src', 'index.html', 'vite.config.ts'].map((p) =>
      newestMtime(path.join(root, 'dashboard', p)),
    ),
  );
  if (newestMtime(built) >= newestSource) return;
  say('building the dashboard (vite)');
  run(projectNode, [
    path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    'dashboard/vite.config.ts',
    '--logLevel',
    'warn',
  ]);
}

/** Debian's Chromium (or CHROMIUM_PATH), which the browser tests drive. */
function findChromium() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH);
  return existsSync('/usr/bin/chromium');
}

/**
 * Under npm (`npm start`, `npm test`) this runs in npm's `sh -c`. A SIGTERM to npm is forwarded to
 * that shell, which dies of it without passing it on, so it never reaches this process: npm exits
 * and leaves what runs here orphaned. What does arrive is the shell's death (this process gets a
 * new parent), so under npm that counts as the SIGTERM. Outside npm the parent is left alone: a
 * shell that starts this in the background may exit without meaning to stop it.
 */
const npmParent = process.env.npm_lifecycle_event ? process.ppid : null;
const npmHasGone = () => npmParent !== null && process.ppid !== npmParent;

/** Calls `onGone` once when npm has gone (see npmParent); returns a function that stops watching. */
function whenNpmGoes(onGone) {
  if (npmParent === null) return () => undefined;
  const timer = setInterval(() => {
    if (!npmHasGone()) return;
    clearInterval(timer);
    onGone();
  }, 250);
  return () => clearInterval(timer);
}

/**
 * Runs the project's Node with `args`, passing SIGINT and SIGTERM on (and npm's end as SIGTERM);
 * resolves with its exit code.
 */
function runProjectNode(args) {
  return new Promise((resolve) => {
    if (npmHasGone()) {
      say('npm has stopped; not starting');
      resolve(1);
      return;
    }
    const child = spawn(projectNode, args, { cwd: root, stdio: 'inherit' });
    const forward = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
    const stopWatching = whenNpmGoes(() => {
      say('npm has stopped (its shell is gone): stopping as on SIGTERM');
      forward('SIGTERM');
    });
    child.on('exit', (code, signal) => {
      stopWatching();
      for (const s of ['SIGINT', 'SIGTERM']) process.off(s, forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Whole seconds since `started` (a performance.now() reading). */
const secondsSince = (started) => Math.round((performance.now() - started) / 1000);

/**
 * jest (all of it, or the files named), then, for the whole suite, the dashboard in Chromium;
 * ends with one line of how long each took.
 */
async function runTests(args) {
  const took = [];
  const finish = (code) => {
    process.stderr.write(`[test] ${took.join(', ')}\n`);
    process.exit(code);
  };
  const jestStarted = performance.now();
  const jest = await runProjectNode([
    path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
    ...args,
  ]);
  took.push(`jest ${secondsSince(jestStarted)} s`);
  if (jest !== 0 || args.length > 0) return finish(jest);
  if (!findChromium()) {
    took.push('browser not run (no Chromium)');
    if (process.env.CI) {
      say('the browser tests need Chromium: apt-get install chromium (or set CHROMIUM_PATH)');
      return finish(1);
    }
    say(
      'skipped the browser tests: no Chromium (sudo apt-get install chromium, or set CHROMIUM_PATH)',
    );
    return finish(0);
  }
  ensureDashboard();
  say('browser tests (Playwright, Chromium)');
  const browserStarted = performance.now();
  const browser = await runProjectNode([
    path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
    'test',
    '--config',
    'test/e2e/playwright.config.ts',
  ]);
  took.push(`browser ${secondsSince(browserStarted)} s`);
  return finish(browser);
}

async function handOver(args) {
  process.exit(await runProjectNode(args));
}

const [command, ...rest] = process.argv.slice(2);
ensureDependencies();
if (command === 'start') {
  ensureMongoEngine({ optional: true });
  ensureDashboard();
  say('building (tsc, incremental)');
  run(projectNode, [
    path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.build.json',
  ]);
  void handOver([path.join(root, 'dist', 'scripts', 'start-stack.js'), ...rest]);
} else if (command === 'test') {
  ensureMongoEngine({ optional: false });
  void runTests(rest);
} else {
  say('usage: node scripts/run.mjs start|test [args]');
  process.exit(2);
}
