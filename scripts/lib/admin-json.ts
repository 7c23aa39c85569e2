/**
 * The admin CLI (`scripts/admin.ts`) run as a child process, as a script that sets up its own
 * stack uses it (the fault suite, the Prism check): one command, its JSON answer.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fromRoot } from '../../common/platform/paths';

const run = promisify(execFile);

/** Runs one admin command (`--name value` per option) with `node` and returns the JSON it printed. */
export async function admin(
  env: NodeJS.ProcessEnv,
  command: string,
  options: Record<string, string>,
  node = process.execPath,
): Promise<Record<string, unknown>> {
  const args = [
    command,
    ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, value]),
  ];
  const { stdout } = await run(
    node,
    [fromRoot('node_modules', 'tsx', 'dist', 'cli.mjs'), fromRoot('scripts', 'admin.ts'), ...args],
    { env, cwd: fromRoot(), timeout: 60_000 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`admin ${command} failed: ${error.stderr?.trim() || error.message}`, {
      cause: error,
    });
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/** A string field of an admin answer, or a clear error naming what was expected. */
export const text = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new Error(`admin did not return ${what}`);
  return value;
};
