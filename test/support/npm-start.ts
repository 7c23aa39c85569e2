import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/engines';
import { testKeyPrefix } from './redis';
import { spawnFromRoot, TestProcess, tsxArgs } from './test-process';

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
    REDIS_KEY_PREFIX: testKeyPrefix(`${label}_${randomBytes(3).toString('hex')}`),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    STACK_DATA_DIR: mkdtempSync(path.join(tmpdir(), `wa-${label}-`)),
    LOG_LEVEL: 'warn',
    WEBHOOK_WORKERS_ENABLED: 'false',
  };
  // freePort closes the port it found, so the system may hand the same one out twice: five
  // distinct ones are taken (npm start refuses two services on one port).
  const variables = Object.values(PORT_VARIABLES);
  const ports = new Set<number>();
  while (ports.size < variables.length) ports.add(await freePort());
  [...ports].forEach((port, i) => (env[variables[i]!] = String(port)));
  return env;
}

/** A process tree started like `npm start` with an environment from npmStartEnv. */
export class StackProcess extends TestProcess {
  static override start(command: string, args: string[], env: Record<string, string>) {
    return new StackProcess(spawnFromRoot(command, args, env), env);
  }

  /** `scripts/start-stack.ts` from source (tsx as a loader), as `npm start` hands over to it. */
  static fromSource(env: Record<string, string>): StackProcess {
    return StackProcess.start(process.execPath, tsxArgs('scripts/start-stack.ts'), env);
  }

  url(service: keyof typeof PORT_VARIABLES): string {
    return `http://127.0.0.1:${this.env[PORT_VARIABLES[service]]}`;
  }

  removeDataDir(): void {
    rmSync(this.env.STACK_DATA_DIR!, { recursive: true, force: true });
  }
}
