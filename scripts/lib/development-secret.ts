import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SECRET = /^[0-9a-f]{64}$/;

/**
 * `npm start`'s INTERNAL_SECRET when none is given: made once and kept in `file` (owner-only,
 * under the git-ignored .data/), as Rails keeps its development secret in tmp/. The webhooks
 * subgraph derives its at-rest key from it outside production, so a secret made afresh on every
 * run would leave the signing secrets stored by earlier runs unreadable.
 */
export function developmentSecret(file: string): { secret: string; created: boolean } {
  let kept: string;
  try {
    kept = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const secret = randomBytes(32).toString('hex');
    mkdirSync(path.dirname(file), { recursive: true });
    // 'wx': never overwrite; the mode applies to the file created here.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return { secret, created: true };
  }
  // Replacing it would leave every stored webhook signing secret unreadable: say so instead.
  if (!SECRET.test(kept))
    throw new Error(
      `${file} does not hold a secret of 64 hex characters; fix it, or delete it to have a new one made (webhook signing secrets stored under the old one become unreadable)`,
    );
  return { secret: kept, created: false };
}
