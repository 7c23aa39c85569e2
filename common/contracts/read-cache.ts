import type { RedisClient } from '../platform/redis';

/**
 * What dates a cached read (docs/scaling.md, "Cached reads"). Every answer the facade caches
 * depends on the accounts (organizations, members, websites, plans) and, for analytics, on one
 * website's data. Each has a generation in Redis that its writer increments once the change is
 * visible to readers; the facade reads the generations on every call and serves only answers
 * stamped with the current ones.
 */
export type ReadTag = 'accounts' | `site:${string}`;

export const siteTag = (websiteId: string): ReadTag => `site:${websiteId}`;

/** The accounts' generation is the one the keys subgraph's own account cache already follows. */
export const readGenerationKey = (prefix: string, tag: ReadTag): string =>
  tag === 'accounts' ? `${prefix}accounts:generation` : `${prefix}read-cache:{${tag}}:generation`;

/**
 * A generation that is missing (a website never written, or Redis restarted empty) starts from
 * the clock in milliseconds, not from 0: an answer stamped before Redis lost its data then never
 * matches the generation after it. Increments come far slower than milliseconds pass.
 */
const MOVE_ON = `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('INCR', KEYS[1])`;

/**
 * Called by a writer after its change is visible: from then on, every cached answer that depended
 * on the tag is out of date.
 */
export async function announceReadChange(
  redis: RedisClient,
  prefix: string,
  tag: ReadTag,
): Promise<void> {
  await redis.eval(MOVE_ON, 1, readGenerationKey(prefix, tag), Date.now());
}

/** The tag's current generation, started from the clock if it is missing (see MOVE_ON). */
export async function readGeneration(
  redis: RedisClient,
  prefix: string,
  tag: ReadTag,
): Promise<string> {
  const key = readGenerationKey(prefix, tag);
  const current = await redis.get(key);
  if (current !== null) return current;
  await redis.set(key, Date.now(), 'NX');
  return (await redis.get(key)) ?? '';
}
