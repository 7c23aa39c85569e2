import { readFileSync } from 'node:fs';
import type { RedisClient } from '../../../common/platform/redis';
import { fromRoot } from '../../../common/platform/paths';
import { OPEN_WINDOW_LUA } from '../../../common/platform/per-minute-limit';

/** A Lua file of rest-facade/lua (beside the sources, so the image ships it as an asset). */
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
}

/**
 * Defines the scripts on `redis` (ioredis sends each by its SHA, loading it when Redis does not
 * know it) and returns them typed. Read once per limiter, at start.
 */
export function defineUsageScripts(redis: RedisClient): UsageScripts {
  const counts = lua('count-calls');
  const admit = `${OPEN_WINDOW_LUA}\n${counts}\n${lua('admit-calls')}`;
  redis.defineCommand('waAdmitCalls', { numberOfKeys: 4, lua: `${admit}\n${lua('admit')}` });
  redis.defineCommand('waAdmitOrganizationCalls', {
    numberOfKeys: 2,
    lua: `${admit}\n${lua('admit-organization')}`,
  });
  redis.defineCommand('waCountKeyCalls', {
    numberOfKeys: 2,
    lua: `${counts}\n${lua('count-key')}`,
  });
  redis.defineCommand('waRefundMonthly', { numberOfKeys: 1, lua: lua('refund-monthly') });
  // defineCommand adds methods ioredis's types cannot know of.
  return redis as unknown as UsageScripts;
}
