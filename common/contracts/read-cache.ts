import type { RedisClient } from '../platform/redis';

/**
 * What dates a cached read (docs/scaling.md, "Cached reads"). Every answer the facade caches
 * depends on the accounts (organizations, members, websites, plans) and, for analytics, on one
 * website's data. Each has a generation in Redis that its writer increments once the change is
 * visible to readers; the facade reads the generations on every call and serves only answers
 * stamped with the current ones.
 */
export type ReadTag = 'accounts' | `site:${string}`;

/** A website's tag, by its id as the keys subgraph writes it (ObjectId hex, lower case). */
export const siteTag = (websiteId: string): ReadTag => `site:${websiteId.toLowerCase()}`;

/** The accounts' generation is the one the keys subgraph's own account cache already follows. */
export const readGenerationKey = (prefix: string, tag: ReadTag): string =>
  tag === 'accounts' ? `${prefix}accounts:generation` : `${prefix}read-cache:{${tag}}:generation`;

/**
 * How long a website's generation outlives its last write (or its creation by a reader): a day,
 * far longer than any cached answer is kept (READ_CACHE_MAX_AGE_SECONDS, at most an hour), so a
 * website's generation exists only while it is written or read. The accounts' generation is one
 * key for the whole platform and is kept.
 */
export const SITE_GENERATION_TTL_MS = 86_400_000;

const lifetimeOf = (tag: ReadTag) => (tag === 'accounts' ? 0 : SITE_GENERATION_TTL_MS);

/**
 * A generation that is missing (a website never written, or Redis restarted empty) starts from
 * the clock in milliseconds, not from 0: an answer stamped before Redis lost its data then never
 * matches the generation after it. Increments come far slower than milliseconds pass.
 */
const MOVE_ON = `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[1]) end
local generation = redis.call('INCR', KEYS[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return generation`;

/**
 * Called by a writer after its change is visible: from then on, every cached answer that depended
 * on the tag is out of date.
 */
export async function announceReadChange(
  redis: RedisClient,
  prefix: string,
  tag: ReadTag,
): Promise<void> {
  await redis.eval(MOVE_ON, 1, readGenerationKey(prefix, tag), Date.now(), lifetimeOf(tag));
}

/**
 * The tag's current generation; null when it has none. Reading never creates one: a reader may
 * not be allowed to read what it asks about (it is asked before the caller's key is confirmed).
 */
export async function readGeneration(
  redis: RedisClient,
  prefix: string,
  tag: ReadTag,
): Promise<string | null> {
  return redis.get(readGenerationKey(prefix, tag));
}

/**
 * Creates the tag's missing generation, from the clock (see MOVE_ON), for a reader that read none
 * and now holds an answer it may keep (so the caller was allowed to read it). Returns the
 * generation to stamp that answer with, or null when the generation exists by now: a writer that
 * announced a change meanwhile created it, and the answer may predate that change.
 */
export async function startGeneration(
  redis: RedisClient,
  prefix: string,
  tag: ReadTag,
): Promise<string | null> {
  const generation = String(Date.now());
  const key = readGenerationKey(prefix, tag);
  const lifetime = lifetimeOf(tag);
  const created =
    lifetime > 0
      ? await redis.set(key, generation, 'PX', lifetime, 'NX')
      : await redis.set(key, generation, 'NX');
  return created === 'OK' ? generation : null;
}
