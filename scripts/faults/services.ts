/**
 * The five services as separate child processes from dist/, as `npm start` runs them
 * (scripts/start-stack.ts), each on its own port and with its own log file, so that a scenario
 * can kill, stop and restart any of them with the same environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { stopChild } from '../lib/engines';
import { SERVICES, stopGraceMs, waitUntilReady, type ServiceName } from '../lib/stack-services';
import { track } from './leftovers';

/**
 * The project's own Node (the `node` devDependency, Node 24), as `npm start` runs the services
 * with; whatever runs this script when it is missing.
 */
export const PROJECT_NODE = existsSync(fromRoot('node_modules', '.bin', 'node'))
  ? fromRoot('node_modules', '.bin', 'node')
  : process.execPath;

export const SUBGRAPHS = ['analytics', 'keys', 'webhooks'] as const;

export interface UnexpectedExit {
  service: ServiceName;
  at: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Running {
  child: ChildProcess;
  /** Set before the suite stops or kills it, so its exit is not reported as a crash. */
  expected: boolean;
}

export class Services {
  private readonly running = new Map<ServiceName, Running>();
  readonly unexpectedExits: UnexpectedExit[] = [];

  constructor(
    private readonly envs: ReadonlyMap<ServiceName, NodeJS.ProcessEnv>,
    private readonly urls: ReadonlyMap<ServiceName, string>,
    private readonly logDir: string,
    private readonly say: (text: string) => void,
  ) {}

  url(name: ServiceName): string {
    return this.urls.get(name)!;
  }

  child(name: ServiceName): ChildProcess | undefined {
    return this.running.get(name)?.child;
  }

  /** All five, in npm start's order: the subgraphs, then the gateway, then the facade. */
  async startAll(): Promise<void> {
    for (const name of SUBGRAPHS) this.spawn(name);
    await Promise.all(SUBGRAPHS.map((name) => this.waitReady(name)));
    await this.start('gateway');
    await this.start('rest-facade');
  }

  /** Starts one service with its environment and port and waits until its /readyz answers 200. */
  async start(name: ServiceName): Promise<void> {
    this.spawn(name);
    await this.waitReady(name);
  }

  /** Sends `signal` without waiting; the exit that follows is expected. */
  signal(name: ServiceName, signal: NodeJS.Signals): ChildProcess {
    const running = this.running.get(name);
    if (!running) throw new Error(`${name} is not running`);
    running.expected = true;
    running.child.kill(signal);
    return running.child;
  }

  /** Stops one service with SIGTERM, as npm start does, and waits for its exit. */
  async stop(name: ServiceName): Promise<void> {
    const running = this.running.get(name);
    if (!running) return;
    running.expected = true;
    await stopChild(running.child, stopGraceMs(this.envs.get(name)!));
  }

  /**
   * Front to back, each after the previous one exited: facade, gateway, subgraphs. Returns how
   * long each took, in seconds.
   */
  async stopAll(): Promise<Map<ServiceName, number>> {
    const took = new Map<ServiceName, number>();
    for (const spec of [...SERVICES].reverse()) {
      const startedAt = Date.now();
      await this.stop(spec.name);
      took.set(spec.name, (Date.now() - startedAt) / 1000);
    }
    return took;
  }

  /** Starts again every service that is not running (one that crashed); returns their names. */
  async restartExited(): Promise<ServiceName[]> {
    const exited = SERVICES.map((s) => s.name).filter((name) => {
      const child = this.running.get(name)?.child;
      return !child || child.exitCode !== null || child.signalCode !== null;
    });
    for (const name of exited) await this.start(name);
    return exited;
  }

  private spawn(name: ServiceName): void {
    const spec = SERVICES.find((s) => s.name === name)!;
    const log = openSync(path.join(this.logDir, `${name}.log`), 'a');
    const child = spawn(PROJECT_NODE, [fromRoot('dist', `${spec.entry}.js`)], {
      env: this.envs.get(name),
      stdio: ['ignore', log, log],
    });
    closeSync(log); // the child has its own descriptor now
    track(child);
    const running: Running = { child, expected: false };
    this.running.set(name, running);
    child.once('exit', (code, signal) => {
      if (running.expected) return;
      this.unexpectedExits.push({ service: name, at: Date.now(), code, signal });
      this.say(`${name} exited unexpectedly (${code ?? signal}); see its log`);
    });
  }

  private waitReady(name: ServiceName): Promise<void> {
    return waitUntilReady(name, this.url(name), this.running.get(name)!.child);
  }
}
