import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../common/paths';
import { freePort } from '../../scripts/lib/engines';
import { waitFor } from '../support/wait';

/** The five port variables of `npm start`, by service. */
export const PORT_VARIABLES = {
  analytics: 'ANALYTICS_PORT',
  keys: 'KEYS_PORT',
  webhooks: 'WEBHOOKS_PORT',
  gateway: 'GATEWAY_PORT',
  'rest-facade': 'FACADE_PORT',
} as const;

/**
 * The environment of an `npm start` of a test's own: free ports, the test engine's server (no
 * database: the stack's own names), the test Redis under a private prefix, and a data folder of its
 * own (STACK_DATA_DIR), so that it never reads or replaces a developer's `.data/`.
 */
export async function npmStartEnv(label: string): Promise<Record<string, string>> {
  const base = process.env.TEST_MONGODB_URI;
  if (!base) throw new Error('TEST_MONGODB_URI is not set: run the tests through jest');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    MONGODB_URI: base,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `test:${label}_${randomBytes(3).toString('hex')}:`,
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    STACK_DATA_DIR: mkdtempSync(path.join(tmpdir(), `wa-${label}-`)),
    LOG_LEVEL: 'warn',
    WEBHOOK_WORKERS_ENABLED: 'false',
  };
  for (const variable of Object.values(PORT_VARIABLES)) env[variable] = String(await freePort());
  return env;
}

/** A process tree started like `npm start`, its output kept. */
export class StackProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  constructor(
    readonly child: ChildProcess,
    readonly env: Record<string, string>,
  ) {
    const keep = (chunk: Buffer) => (this.output += chunk.toString());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // Every process of the tree holds these pipes: both closed means every one has exited.
    const closed = (stream: NodeJS.ReadableStream | null) =>
      stream ? new Promise((resolve) => stream.once('close', resolve)) : Promise.resolve();
    this.exited = Promise.all([
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      closed(child.stdout),
      closed(child.stderr),
    ]).then(([code]) => code);
  }

  /** `command` run from the repository root with `env`, its output piped here. */
  static start(command: string, args: string[], env: Record<string, string>): StackProcess {
    const child = spawn(command, args, {
      cwd: fromRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new StackProcess(child, env);
  }

  /** `scripts/start-stack.ts` from source (tsx as a loader), as `npm start` hands over to it. */
  static fromSource(env: Record<string, string>): StackProcess {
    return StackProcess.start(
      process.execPath,
      ['--import', 'tsx', fromRoot('scripts', 'start-stack.ts')],
      env,
    );
  }

  get log(): string {
    return this.output;
  }

  url(service: keyof typeof PORT_VARIABLES): string {
    return `http://127.0.0.1:${this.env[PORT_VARIABLES[service]]}`;
  }

  /** Resolves once the output contains `text`; fails with the output so far when it does not. */
  async waitForLog(text: string, timeoutMs: number): Promise<void> {
    try {
      await waitFor(async () => this.output.includes(text), timeoutMs);
    } catch {
      throw new Error(`no "${text}" within ${timeoutMs} ms; the output:\n${this.output}`);
    }
  }

  /** SIGTERM to the top process, then the whole tree's end (SIGKILL to the top one if it hangs). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }

  removeDataDir(): void {
    rmSync(this.env.STACK_DATA_DIR!, { recursive: true, force: true });
  }
}
