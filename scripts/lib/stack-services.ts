/**
 * The five services as `npm start` runs them (scripts/start-stack.ts) and the fault suite after
 * it (scripts/faults/services.ts): each its own process, port variable and database, waited for
 * until its /readyz answers, and given time to drain before it is killed.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { baseEnvSchema, shutdownDrainMs, type Env } from '../../common/platform/config';
import { SHUTDOWN_DEADLINE_MS } from '../../common/platform/lifecycle';
import { STACK_DATABASES } from './stack-record';

export type ServiceName = 'analytics' | 'keys' | 'webhooks' | 'gateway' | 'rest-facade';

export interface ServiceSpec {
  name: ServiceName;
  /** The main module, from the repository root, without its extension. */
  entry: string;
  portVariable: string;
  defaultPort: number;
  database?: string;
}

/** In start order: the subgraphs, then the gateway (which needs them), then the facade. */
export const SERVICES: readonly ServiceSpec[] = [
  {
    name: 'analytics',
    entry: 'subgraphs/analytics/src/main',
    portVariable: 'ANALYTICS_PORT',
    defaultPort: 4001,
    database: STACK_DATABASES.analytics,
  },
  {
    name: 'keys',
    entry: 'subgraphs/keys/src/main',
    portVariable: 'KEYS_PORT',
    defaultPort: 4002,
    database: STACK_DATABASES.keys,
  },
  {
    name: 'webhooks',
    entry: 'subgraphs/webhooks/src/main',
    portVariable: 'WEBHOOKS_PORT',
    defaultPort: 4003,
    database: STACK_DATABASES.webhooks,
  },
  { name: 'gateway', entry: 'gateway/src/main', portVariable: 'GATEWAY_PORT', defaultPort: 4000 },
  {
    name: 'rest-facade',
    entry: 'rest-facade/src/main',
    portVariable: 'FACADE_PORT',
    defaultPort: 3000,
  },
];

const READY_TIMEOUT_MS = 60_000;

/** Resolves once `${url}/readyz` answers 200; rejects if `child` exits first or after 60 s. */
export async function waitUntilReady(
  name: string,
  url: string,
  child: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${name} exited (${child.exitCode ?? child.signalCode}) during start; see its log`,
      );
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * How long a service started with `env` may take to stop before it is killed: its drain period
 * and its own deadline (common/lifecycle.ts), then five seconds more, so that its own "did not
 * stop" line comes first.
 */
export function stopGraceMs(env: Env): number {
  const drain = baseEnvSchema.shape.SHUTDOWN_DRAIN_SECONDS.safeParse(
    env.SHUTDOWN_DRAIN_SECONDS || undefined,
  );
  const drainMs = shutdownDrainMs(drain.success ? drain.data : undefined, env.NODE_ENV);
  return drainMs + SHUTDOWN_DEADLINE_MS + 5_000;
}
