import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fromRoot } from '../../common/platform/paths';

const run = promisify(execFile);
const TSX = fromRoot('node_modules', 'tsx', 'dist', 'cli.mjs');

export interface AdminOutput {
  stdout: string;
  stderr: string;
}

export interface AdminFailure extends AdminOutput {
  code: number;
}

/** `npm run admin -- <args>` with `env` (and PATH) alone; rejects when it exits with an error. */
export function runAdmin(env: Record<string, string>, ...args: string[]): Promise<AdminOutput> {
  return run(process.execPath, [TSX, fromRoot('scripts', 'admin.ts'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

/** How `npm run admin -- <args>` failed; throws when it succeeds. */
export async function adminFailure(
  env: Record<string, string>,
  ...args: string[]
): Promise<AdminFailure> {
  try {
    await runAdmin(env, ...args);
  } catch (error) {
    return error as AdminFailure;
  }
  throw new Error('the command succeeded');
}
