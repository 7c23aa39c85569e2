/**
 * The suite's own Redis and MongoDB-compatible engine (FerretDB, or mongod), each in a temporary
 * folder on a free loopback port, with the faults the scenarios need: a crash (SIGKILL), a
 * restart on the same port and data, and for Redis a pause (SIGSTOP) that keeps its data.
 */
import { once } from 'node:events';
import {
  findMongoEngine,
  onPath,
  startEngine,
  stopChild,
  type Engine,
  type StartedEngine,
} from '../lib/engines';
import { track } from './leftovers';

export class OwnEngine {
  private paused = false;

  private constructor(
    private readonly engine: Engine,
    private readonly dataDir: string,
    private running: StartedEngine,
  ) {}

  /** Starts `engine` on a free port with its data in `dataDir`. */
  static async start(engine: Engine, dataDir: string): Promise<OwnEngine> {
    const running = await startEngine(engine, dataDir);
    track(running.child);
    return new OwnEngine(engine, dataDir, running);
  }

  get port(): number {
    return this.running.port;
  }

  get kind(): Engine['kind'] {
    return this.engine.kind;
  }

  /** SIGKILL, as a crash looks to the services; resolves once the process is gone. */
  async crash(): Promise<void> {
    const { child } = this.running;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    this.paused = false;
  }

  /**
   * Starts the engine again on the same port and data and resolves once it answers. Redis runs
   * without persistence, so it comes back empty.
   */
  async restart(): Promise<void> {
    const port = this.running.port;
    const running = await startEngine(this.engine, this.dataDir, port);
    track(running.child);
    if (running.port !== port) {
      await running.stop();
      throw new Error(`${this.engine.kind}: port ${port} was taken while it was down`);
    }
    this.running = running;
  }

  /** SIGSTOP: connections stay open and nothing answers; the data is kept. */
  pause(): void {
    this.running.child.kill('SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    this.running.child.kill('SIGCONT');
    this.paused = false;
  }

  async stop(): Promise<void> {
    if (this.paused) this.resume();
    await stopChild(this.running.child);
  }
}

export function redisEngine(): Engine {
  const path = onPath('redis-server');
  if (!path) throw new Error('redis-server is not installed (the suite starts its own Redis)');
  return { kind: 'redis-server', path };
}

export function mongoEngine(): Engine {
  const engine = findMongoEngine();
  if (!engine)
    throw new Error('no MongoDB-compatible engine: run `npm run ferretdb:install` (needs Go)');
  return engine;
}
