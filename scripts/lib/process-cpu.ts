import { readdirSync, readFileSync } from 'node:fs';

/** Which part of the stack a command line belongs to; null for processes the bench ignores. */
const ROLES: Array<[string, RegExp]> = [
  ['facade', /rest-facade\/src\/main\.js/],
  ['gateway', /gateway\/src\/main\.js/],
  ['keys', /subgraphs\/keys\/src\/main\.js/],
  ['analytics', /subgraphs\/analytics\/src\/main\.js/],
  ['webhooks', /subgraphs\/webhooks\/src\/main\.js/],
  ['bare hop', /bare-hop\.js/],
  ['bare handler', /bare-express\.js/],
  ['FerretDB', /ferretdb|mongod/],
  ['Redis', /redis-server/],
];

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Engines every stack on the machine shares, counted whichever stack is measured. */
const SHARED_ROLES = new Set(['FerretDB', 'Redis']);

/**
 * The stack's processes (Linux /proc), each with the role its command line shows. With `under`,
 * where two stacks run side by side, only the services started below that process (and the
 * shared engines).
 */
export function stackProcesses(under?: number): Array<{ pid: number; role: string }> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const parents = new Map<number, number>();
  const found: Array<{ pid: number; role: string }> = [];
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The parent is the second field after the parenthesised command name.
      parents.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const role = ROLES.find(([, pattern]) => pattern.test(cmdline))?.[0];
      if (role) found.push({ pid: Number(pid), role });
    } catch {
      // The process ended between listing and reading.
    }
  }
  if (under === undefined) return found;
  const isBelow = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
      if (at === under) return true;
    return false;
  };
  return found.filter(({ pid, role }) => SHARED_ROLES.has(role) || isBelow(pid));
}

/**
 * CPU seconds (user + system) used so far by each role's processes, read from /proc (Linux).
 * Two snapshots around a measurement give what each part of the stack spent on it. `under` picks
 * one of two stacks side by side, as for stackProcesses.
 */
export function cpuSecondsByRole(under?: number): Map<string, number> {
  const totals = new Map<string, number>();
  for (const { pid, role } of stackProcesses(under)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      totals.set(role, (totals.get(role) ?? 0) + ticks / TICKS_PER_SECOND);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return totals;
}
