import { readFileSync } from 'node:fs';
import type { RedisClient } from '../../../common/platform/redis';
import { fromRoot } from '../../../common/platform/paths';
import { OPEN_WINDOW_LUA } from '../../../common/platform/per-minute-limit';

/**
 * A Lua file of rest-facade/lua: outside `src`, so the same path (from the repository root, which
 * common/platform/paths.ts finds by its package.json) serves the sources (tsx, jest), the build
 * (dist/) and the image, whose Dockerfile copies the `*.lua` files outside `src` folders.
 */
const lua = (name: string) => readFileSync(fromRoot('rest-facade', 'lua', `${name}.lua`), 'utf8');

/** The limits' Redis scripts, as commands of the client they were defined on. */
export interface UsageScripts {
  /** admit.lua: the minute, the month and the key's counts of a turn's calls, in one command. */
  waAdmitCalls(...args: Array<string | number>): Promise<number[]>;
  /** admit-organization.lua: the minute and the month only (a Cluster's organization slot). */
  waAdmitOrganizationCalls(...args: Array<string | number>): Promise<number[]>;
  /** count-key.lua: the key's total and day (a Cluster's key slot; negative gives calls back). */
  waCountKeyCalls(...args: Array<string | number>): Promise<number>;
  /** refund-monthly.lua: one quota request back, unless the counter is gone. */
  waRefundMonthly(key: string): Promise<number>;
  /** add-uncounted.lua: calls answered during a Redis outage, added to the key's counts. */
  waAddUncountedCalls(...args: Array<string | number>): Promise<number>;
}

type Sources = Record<keyof UsageScripts, string>;

let sources: Sources | null = null;

/** The scripts' text, read from disk once per process (the first limiter made reads them). */
function scriptSources(): Sources {
  if (sources) return sources;
  const counts = lua('count-calls');
  const admit = `${OPEN_WINDOW_LUA}\n${counts}\n${lua('admit-calls')}`;
  sources = {
    waAdmitCalls: `${admit}\n${lua('admit')}`,
    waAdmitOrganizationCalls: `${admit}\n${lua('admit-organization')}`,
    waCountKeyCalls: `${counts}\n${lua('count-key')}`,
    waRefundMonthly: lua('refund-monthly'),
    waAddUncountedCalls: lua('add-uncounted'),
  };
  return sources;
}

/** How many of each command's arguments are Redis keys. */
const KEY_COUNTS: Record<keyof UsageScripts, number> = {
  waAdmitCalls: 4,
  waAdmitOrganizationCalls: 2,
  waCountKeyCalls: 2,
  waRefundMonthly: 1,
  waAddUncountedCalls: 2,
};

/**
 * Defines the scripts on `redis` (ioredis sends each by its SHA, loading it when Redis does not
 * know it) and returns them typed. Called once per limiter, at start.
 */
export function defineUsageScripts(redis: RedisClient): UsageScripts {
  const text = scriptSources();
  for (const name of Object.keys(KEY_COUNTS) as Array<keyof UsageScripts>)
    redis.defineCommand(name, { numberOfKeys: KEY_COUNTS[name], lua: text[name] });
  // defineCommand adds methods ioredis's types cannot know of.
  return redis as unknown as UsageScripts;
}
