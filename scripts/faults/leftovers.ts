import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

/**
 * Every process and temporary folder the suite makes, so that none outlives it: whatever ends
 * the run (its end, an error, Ctrl+C), `removeLeftovers` kills the processes still running and
 * removes the folders. Graceful stops happen before, in the stack's own order; this is the last
 * resort, and synchronous so that it can run on `exit`.
 */
const processes = new Set<ChildProcess>();
const folders = new Set<string>();

export function track(child: ChildProcess): ChildProcess {
  processes.add(child);
  child.once('exit', () => processes.delete(child));
  return child;
}

export function trackFolder(path: string): string {
  folders.add(path);
  return path;
}

/** SIGKILLs every tracked process still running (a paused one too) and removes the folders. */
export function removeLeftovers(): number {
  let killed = 0;
  for (const child of processes) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGKILL');
    killed++;
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
  return killed;
}
