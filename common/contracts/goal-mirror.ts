import type { RedisClient } from '../platform/redis';
import type { GoalDefinition } from './goals';

/** A goal as the mirror holds it: its definition and its display name. */
export type MirroredGoal = GoalDefinition & { name: string };

/**
 * The goals of every website that has some, copied by the keys subgraph (which owns them) into
 * one Redis hash, website id → JSON list of its goals, for the analytics subgraph's goal alerts
 * (`goal.reached`), which run without a caller to hand the goals over as queries do. Written
 * again whole every hour and for one website whenever its goals change; it expires if the keys
 * subgraph stops writing it, and a Redis that lost it has it back within the hour.
 */
export const goalMirrorKey = (prefix: string) => `${prefix}goals:mirror`;
export const GOAL_MIRROR_EVERY_MS = 3_600_000;
const MIRROR_TTL_SECONDS = 3 * 3600;

/** Replaces the mirror with `goals` (websites without goals are left out). */
export async function writeGoalMirror(
  redis: RedisClient,
  prefix: string,
  goals: ReadonlyMap<string, readonly MirroredGoal[]>,
): Promise<void> {
  const key = goalMirrorKey(prefix);
  const fields = [...goals].filter(([, list]) => list.length > 0);
  const tx = redis.multi().del(key);
  if (fields.length > 0)
    tx.hset(key, Object.fromEntries(fields.map(([id, list]) => [id, JSON.stringify(list)])));
  const results = await tx.expire(key, MIRROR_TTL_SECONDS).exec();
  const failed = results?.find(([error]) => error);
  if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
}

/** Sets one website's goals in the mirror (none: the website leaves it). */
export async function writeWebsiteGoals(
  redis: RedisClient,
  prefix: string,
  websiteId: string,
  goals: readonly MirroredGoal[],
): Promise<void> {
  const key = goalMirrorKey(prefix);
  if (goals.length === 0) await redis.hdel(key, websiteId);
  else
    await redis
      .multi()
      .hset(key, websiteId, JSON.stringify(goals))
      .expire(key, MIRROR_TTL_SECONDS)
      .exec();
}

/** Every website's goals as mirrored (unreadable entries left out). */
export async function readGoalMirror(
  redis: RedisClient,
  prefix: string,
): Promise<Map<string, MirroredGoal[]>> {
  const mirror = new Map<string, MirroredGoal[]>();
  for (const [website, json] of Object.entries(await redis.hgetall(goalMirrorKey(prefix)))) {
    try {
      const goals = JSON.parse(json) as MirroredGoal[];
      if (Array.isArray(goals) && goals.length > 0) mirror.set(website, goals);
    } catch {
      // Left out until the next write of the mirror.
    }
  }
  return mirror;
}
