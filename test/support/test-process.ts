import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fromRoot } from '../../common/platform/paths';
import { stopChild } from '../../scripts/lib/engines';

/**
 * tsx as a loader in the child itself: signals reach the program (the tsx CLI would run it in a
 * child of its own and relay signals with its own time-outs).
 */
const TSX_LOADER = ['--import', 'tsx'];

/** A process started from the repository root with `env` (and PATH) alone, its output kept. */
export class TestProcess {
  stdout = '';
  stderr = '';
  private output = '';
  private ended = false;
  /** Called on every piece of output, and once the process has ended. */
  private readonly outputListeners = new Set<() => void>();
  /** The exit code, once the process and every process that holds its pipes have ended. */
  readonly exited: Promise<number | null>;

  constructor(
    readonly child: ChildProcess,
    readonly env: Record<string, string>,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.output += chunk.toString();
      this.notify();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.output += chunk.toString();
      this.notify();
    });
    // Every process of the tree holds these pipes: both closed means every one has exited, and
    // all their output has been read ('exit' alone may come before the last of it).
    const closed = (stream: NodeJS.ReadableStream | null) =>
      stream ? new Promise((resolve) => stream.once('close', resolve)) : Promise.resolve();
    this.exited = Promise.all([
      new Promise<number | null>((resolve, reject) => {
        child.once('exit', resolve);
        child.once('error', reject);
      }),
      closed(child.stdout),
      closed(child.stderr),
    ])
      .then(([code]) => code)
      .finally(() => {
        this.ended = true;
        this.notify();
      });
  }

  private notify(): void {
    for (const listener of [...this.outputListeners]) listener();
  }

  /** `command` with `args`, run from the repository root. */
  static start(command: string, args: string[], env: Record<string, string>): TestProcess {
    return new TestProcess(spawnFromRoot(command, args, env), env);
  }

  /** `entry` (from the repository root, or an absolute path) run by Node with tsx as a loader. */
  static tsx(entry: string, env: Record<string, string>): TestProcess {
    return TestProcess.start(process.execPath, tsxArgs(entry), env);
  }

  /** stdout and stderr, as they arrived. */
  get log(): string {
    return this.output;
  }

  /**
   * Resolves as soon as the output contains `pattern` (with the match, for a regular expression);
   * fails with the output so far when it does not within `timeoutMs`, or the process ends first.
   */
  waitForLog(pattern: string | RegExp, timeoutMs = 30_000): Promise<string[]> {
    const find = () =>
      typeof pattern === 'string'
        ? this.output.includes(pattern) && [pattern]
        : pattern.exec(this.output);
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        this.outputListeners.delete(check);
        reject(
          new Error(`no ${String(pattern)} in the output (${why}); the output:\n${this.output}`),
        );
      };
      const timer = setTimeout(() => fail(`not within ${timeoutMs} ms`), timeoutMs);
      const check = () => {
        const found = find();
        if (!found && !this.ended) return;
        clearTimeout(timer);
        if (!found) return fail('the process ended first');
        this.outputListeners.delete(check);
        resolve(found);
      };
      this.outputListeners.add(check);
      check();
    });
  }

  /** SIGTERM, SIGKILL after `killAfterMs` if it has not exited, then the end of the whole tree. */
  async stop(killAfterMs = 30_000): Promise<void> {
    await stopChild(this.child, killAfterMs);
    await this.exited;
  }
}

/** The arguments that make Node run `entry` (from the repository root, or absolute) with tsx. */
export function tsxArgs(entry: string): string[] {
  return [...TSX_LOADER, path.isAbsolute(entry) ? entry : fromRoot(entry)];
}

/** `command` spawned from the repository root with `env` and PATH alone, stdout and stderr piped. */
export function spawnFromRoot(
  command: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess {
  return spawn(command, args, {
    cwd: fromRoot(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
