import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { stopChild } from '../../scripts/lib/engines';
import { testMongoUri } from '../support/stack';
import { TestProcess } from '../support/test-process';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a service's real `main` (from the repository root, or an absolute path) as its own process;
 * `whenListening` acts once it logs "listening".
 */
async function runMain(
  entry: string,
  env: Record<string, string>,
  whenListening?: (pid: number) => void,
): Promise<Exit> {
  const main = TestProcess.tsx(entry, env);
  if (whenListening) {
    await main.waitForLog('"msg":"listening"');
    whenListening(main.child.pid!);
  }
  const code = await main.exited;
  return { code, stdout: main.stdout, stderr: main.stderr };
}

const baseEnv = () => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  INTERNAL_SECRET: randomBytes(32).toString('hex'),
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  MONGODB_URI: testMongoUri(`lifecycle_${randomBytes(3).toString('hex')}`),
  KEYS_PORT: '0',
});

describe('service lifecycle', () => {
  it('when a subgraph receives SIGTERM, then it drains, closes its connections and exits 0 within 10 s', async () => {
    const started = Date.now();
    let signalledAt = 0;
    const exit = await runMain('subgraphs/keys/src/main.ts', baseEnv(), (pid) => {
      signalledAt = Date.now();
      process.kill(pid, 'SIGTERM');
    });
    expect(signalledAt).toBeGreaterThan(started);
    expect(exit.code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(exit.stdout).toContain('"msg":"keys stopped"');
  });

  it('when a port variable is malformed, then the start stops with a message naming it', async () => {
    const exit = await runMain('subgraphs/keys/src/main.ts', { ...baseEnv(), KEYS_PORT: 'eighty' });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('KEYS_PORT');
    expect(exit.stderr).not.toContain('SUBGRAPH_PORT');
  });

  it('when the internal secret is missing, then the gateway refuses to start and names INTERNAL_SECRET', async () => {
    const env: Record<string, string> = { ...baseEnv(), GATEWAY_PORT: '0' };
    delete env.INTERNAL_SECRET;
    const exit = await runMain('gateway/src/main.ts', env);
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/INTERNAL_SECRET: /);
  });

  it('when several values are wrong, then every one is reported at once', async () => {
    const exit = await runMain('rest-facade/src/main.ts', {
      ...baseEnv(),
      FACADE_PORT: '-1',
      KEYS_URL: 'ftp://x',
      REDIS_URL: 'nope',
    });
    expect(exit.code).toBe(1);
    for (const variable of ['FACADE_PORT', 'KEYS_URL', 'REDIS_URL'])
      expect(exit.stderr).toContain(variable);
  });
});

describe('stopping a service that does not stop', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'wa-lifecycle-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when its stop never ends, then it logs that it did not stop within its deadline, then exits 1', async () => {
    // A service whose stop waits on nothing at all: no socket or timer keeps the process up.
    const main = path.join(dir, 'hanging-main.ts');
    writeFileSync(
      main,
      `import { runService } from ${JSON.stringify(fromRoot('common', 'platform', 'lifecycle'))};
import { createLogger } from ${JSON.stringify(fromRoot('common', 'platform', 'logger'))};
runService(
  'hanging',
  async () => {
    const logger = createLogger('hanging', 'info');
    logger.info('listening');
    return { service: { stop: () => new Promise<void>(() => undefined) }, logger };
  },
  { stopDeadlineMs: 300 },
);
`,
    );
    const exit = await runMain(main, {}, (pid) => process.kill(pid, 'SIGTERM'));
    expect(exit.code).toBe(1);
    expect(exit.stdout).toContain('"msg":"hanging stopping"');
    expect(exit.stdout).toContain('"msg":"hanging did not stop within 300 ms; exiting"');
  });

  it('when a child of npm start ignores SIGTERM, then stopChild kills it after the time given and says it did', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000);"],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(child.stdout, 'data');
    expect(await stopChild(child, 300)).toBe('killed');
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('when a child of npm start stops on SIGTERM, then stopChild says it exited', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "console.log('up'); setInterval(() => {}, 1000);"],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await once(child.stdout, 'data');
    expect(await stopChild(child, 5_000)).toBe('exited');
    expect(child.signalCode).toBe('SIGTERM');
  });
});
