import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { readStackRecord, writeStackRecord } from '../../scripts/lib/stack-record';
import { npmStartEnv, PORT_VARIABLES, StackProcess } from '../support/npm-start';

/** The processes below `pid` (children, grandchildren…), from `ps`. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    parentOf.set(child!, parent!);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([c]) => c);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Whether `pid` is a live process (a zombie or a dead one, exited but not yet reaped, is not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The processes of `pids` still alive once each has had `withinMs` to finish exiting. The kernel
 * closes a process's files (the test's pipes) before it becomes a zombie, so the last one out may
 * still be exiting when the pipes report closed.
 */
async function survivors(pids: number[], withinMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (pids.some(alive) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(alive);
}

describe('npm start', () => {
  jest.setTimeout(240_000);

  it("when npm's shell gets SIGTERM (npm passes a TERM to itself on to it), then every service and the stack stop with their usual lines and no process is left", async () => {
    // run.mjs would run npm ci itself here, in everyone's node_modules.
    const installed = statSync(fromRoot('node_modules', '.package-lock.json')).mtimeMs;
    if (installed < statSync(fromRoot('package-lock.json')).mtimeMs)
      throw new Error('node_modules is older than package-lock.json: run npm ci first');
    // As npm runs the script: `sh -c "<the start script>"` with npm's variables.
    const env: Record<string, string> = {
      ...(await npmStartEnv('npm-start-term')),
      LOG_LEVEL: 'info',
      npm_lifecycle_event: 'start',
    };
    const shell = StackProcess.start(
      'sh',
      ['-c', `"${process.execPath}" scripts/run.mjs start`],
      env,
    );
    let tree: number[] = [];
    try {
      await shell.waitForLog('press Ctrl+C to stop', 200_000);
      tree = descendants(shell.child.pid!);
      // run.mjs, start-stack and the five services.
      expect(tree.length).toBeGreaterThanOrEqual(7);

      shell.child.kill('SIGTERM');
      await shell.exited;

      expect(await survivors(tree)).toEqual([]);
      expect(shell.log).toContain('[stack] stopping');
      expect(shell.log).toContain('[stack] stopped');
      for (const service of Object.keys(PORT_VARIABLES))
        expect(shell.log).toContain(`"msg":"${service} stopped"`);
      expect(shell.log).not.toContain('killed');
      expect(readStackRecord(path.join(env.STACK_DATA_DIR!, 'stack.json'))).toBeNull();
    } finally {
      for (const pid of tree.filter(alive)) process.kill(pid, 'SIGKILL');
      shell.removeDataDir();
    }
  });

  describe('when a port it needs is in use', () => {
    let blocker: Server;
    let env: Record<string, string>;
    let stack: StackProcess;
    const other = { pid: process.pid, facadeUrl: 'http://127.0.0.1:3999' };
    beforeAll(async () => {
      env = await npmStartEnv('npm-start-busy');
      blocker = createServer().listen(Number(env.GATEWAY_PORT), '127.0.0.1');
      await once(blocker, 'listening');
      // Another npm start's record, which the failed start must leave in place.
      writeStackRecord(
        {
          ...other,
          dashboardUrl: `http://127.0.0.1:${env.GATEWAY_PORT}`,
          keysMongoUri: `${env.MONGODB_URI}wa_keys`,
          redisUrl: env.REDIS_URL!,
          redisKeyPrefix: 'wa:',
        },
        path.join(env.STACK_DATA_DIR!, 'stack.json'),
      );
      stack = StackProcess.fromSource(env);
      await stack.exited;
    });
    afterAll(() => {
      blocker.close();
      stack.removeDataDir();
    });

    it('then it exits 1 at once, naming the port and the variable to change, and starts nothing', async () => {
      expect(stack.child.exitCode).toBe(1);
      expect(stack.log).toContain(
        `port ${env.GATEWAY_PORT} (gateway) is in use on 127.0.0.1: set GATEWAY_PORT to a free port`,
      );
      expect(stack.log).not.toContain('ready');
      expect(stack.log).not.toContain('MongoDB:');
      // Nothing it might have started answers on the other ports.
      for (const service of ['analytics', 'keys', 'webhooks', 'rest-facade'] as const)
        await expect(fetch(`${stack.url(service)}/healthz`)).rejects.toThrow();
    });

    it('then it names the npm start already running and leaves its record alone', async () => {
      expect(stack.log).toContain(`another npm start runs (pid ${other.pid}, ${other.facadeUrl})`);
      expect(readStackRecord(path.join(env.STACK_DATA_DIR!, 'stack.json'))).toMatchObject(other);
    });
  });
});
