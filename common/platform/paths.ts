import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository (or image) root: the nearest folder above this file with a package.json. */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const ROOT = findRoot(__dirname);

/** A path inside the repository, the same from sources (tests) and from dist (builds). */
export const fromRoot = (...parts: string[]) => path.join(ROOT, ...parts);
