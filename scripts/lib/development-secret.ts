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
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (SECRET.test(kept)) return { secret: kept, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, created: true };
}
