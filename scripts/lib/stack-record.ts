import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../../common/platform/config';
import { fromRoot } from '../../common/platform/paths';

/**
 * Where `npm start` keeps what outlives one run (the development secret, the embedded engines'
 * data) and its records for the scripts run beside it (admin, seed): `.data/`, or STACK_DATA_DIR
 * (tests give each stack a folder of its own, so they never read or replace a developer's).
 */
export function stackDataDir(env: Env = process.env): string {
  return env.STACK_DATA_DIR || fromRoot('.data');
}

/** The databases `npm start` gives its services on the one server it uses. */
export const STACK_DATABASES = {
  analytics: 'wa_analytics',
  keys: 'wa_keys',
  webhooks: 'wa_webhooks',
} as const;

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

/**
 * The MongoDB-compatible engine `npm start` last started itself (none when MONGODB_URI was given).
 * Kept after the run: admin and seed then name the engine that is not answering, rather than
 * trying whatever listens on 27017.
 */
export interface EngineRecord {
  kind: string;
  port: number;
  pid: number;
  dataDir: string;
  startedAt: string;
}

export const stackRecordFile = (dir = stackDataDir()) => path.join(dir, 'stack.json');
export const engineRecordFile = (dir = stackDataDir()) => path.join(dir, 'engine.json');

function writeRecord(file: string, record: object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Owner only: a MONGODB_URI given to npm start may hold a password.
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

function readRecord<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

export function writeStackRecord(record: StackRecord, file = stackRecordFile()): void {
  writeRecord(file, record);
}

export function removeStackRecord(file = stackRecordFile()): void {
  rmSync(file, { force: true });
}

/** The record of the `npm start` running now, or null (none, or its process is gone). */
export function readStackRecord(file = stackRecordFile()): StackRecord | null {
  const record = readRecord<StackRecord>(file);
  if (!record) return null;
  try {
    process.kill(record.pid, 0);
  } catch {
    return null;
  }
  return record;
}

export function writeEngineRecord(record: EngineRecord, file = engineRecordFile()): void {
  writeRecord(file, record);
}

/** The engine `npm start` last started, whether or not it still runs; null when none was. */
export function readEngineRecord(file = engineRecordFile()): EngineRecord | null {
  return readRecord<EngineRecord>(file);
}
