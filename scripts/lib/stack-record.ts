import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../../common/paths';

/** Where a running `npm start` says what it runs, for the scripts run beside it (admin, seed). */
export const STACK_RECORD = fromRoot('.data', 'stack.json');

/** What a running `npm start` chose: the engines it started or found, and the facade's address. */
export interface StackRecord {
  pid: number;
  facadeUrl: string;
  /** The gateway, which serves the dashboard (admin's sign-in links point there). */
  dashboardUrl: string;
  /** The keys subgraph's database (admin and seed write accounts there). */
  keysMongoUri: string;
  redisUrl: string;
  redisKeyPrefix: string;
}

export function writeStackRecord(record: StackRecord, file = STACK_RECORD): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Owner only: a MONGODB_URI given to npm start may hold a password.
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

export function removeStackRecord(file = STACK_RECORD): void {
  rmSync(file, { force: true });
}

/** The record of the `npm start` running now, or null (none, or its process is gone). */
export function readStackRecord(file = STACK_RECORD): StackRecord | null {
  let record: StackRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as StackRecord;
  } catch {
    return null;
  }
  try {
    process.kill(record.pid, 0);
  } catch {
    return null;
  }
  return record;
}
