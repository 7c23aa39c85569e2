import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../../../common/platform/redis';
import type { VisitorState } from '../ingest/aggregate';
import { FAMILIES, rowsFromHash, type Family, type Rows } from './counters';
import type { ErrorMeta } from './error-meta';
import { cellsFromFlat } from './hot-query';
import { dayMarker, hoursOfDay, type DayKey, type HotKeys } from './hot-keys';
import { websiteDay } from './hot-writes';
import type { Cells } from './snapshots';
import {
  byFirstSeen,
  decodeVisitor,
  encodeVisitor,
  newestFirst,
  type ReplayState,
} from './visitor-codec';

/** Everything the hot tier holds of one website's day. */
export interface HotDay {
  counters: Map<Family, Rows>;
  cells: Map<string, Cells>;
  errors: Map<string, ErrorMeta>;
  /** First seen, then id. */
  visitors: VisitorState[];
  /** Newest first. */
  replays: ReplayState[];
}

/** Every key a hot day may have (its hour counters included). */
export function keysOfDay(keys: HotKeys, website: string, day: DayKey): string[] {
  return [
    keys.marker(website, day),
    ...FAMILIES.map((family) => keys.counters(website, day, family)),
    ...hoursOfDay(day).flatMap((hour) =>
      FAMILIES.map((family) => keys.hourCounters(website, hour, family)),
    ),
    keys.cells(website, day),
    keys.errors(website, day),
    keys.visitors(website, day),
    keys.visitorsByFirstSeen(website, day),
    keys.visitorsByLastSeen(website, day),
    keys.visitorsByLastPageview(website, day),
    keys.replays(website, day),
    keys.blocks(website, day),
  ];
}

export async function readHotDay(
  redis: RedisClient,
  keys: HotKeys,
  website: string,
  day: DayKey,
): Promise<HotDay> {
  const multi = redis.multi();
  for (const family of FAMILIES) multi.hgetall(keys.counters(website, day, family));
  multi.hgetall(keys.cells(website, day));
  multi.hgetall(keys.errors(website, day));
  multi.hgetall(keys.visitors(website, day));
  multi.hgetall(keys.replays(website, day));
  const results = await multi.exec();
  if (!results) throw new Error('redis transaction aborted');
  const replies = results.map(([error, reply]) => {
    if (error) throw error;
    return reply as Record<string, string>;
  });
  const counters = new Map<Family, Rows>(
    FAMILIES.map((family, i) => [family, rowsFromHash(replies[i]!)]),
  );
  const [cells, errors, visitors, replays] = replies.slice(FAMILIES.length);
  return {
    counters,
    cells: cellsFromFlat(Object.entries(cells!).flat()),
    errors: new Map(
      Object.entries(errors!).map(([fingerprint, json]) => [
        fingerprint,
        JSON.parse(json) as ErrorMeta,
      ]),
    ),
    visitors: Object.values(visitors!).map(decodeVisitor).sort(byFirstSeen),
    replays: Object.values(replays!)
      .map((json) => JSON.parse(json) as ReplayState)
      .sort(newestFirst),
  };
}

/**
 * Puts a sealed day's visitors and replay sessions back into the hot tier (a thaw, or the base of a
 * rebuild), replacing whatever was left there, and marks the day hot. Its counters stay sealed: the
 * hot tier then holds what comes after the snapshot.
 */
export async function loadIntoHot(
  redis: RedisClient,
  keys: HotKeys,
  website: string,
  day: DayKey,
  visitors: VisitorState[],
  replays: ReplayState[],
  now: number,
): Promise<void> {
  const multi = redis.multi();
  multi.del(...keysOfDay(keys, website, day));
  for (const state of visitors) {
    const id = state.visitorId;
    multi.hset(keys.visitors(website, day), id, encodeVisitor(state));
    multi.zadd(keys.visitorsByFirstSeen(website, day), state.firstSeen.getTime(), id);
    multi.zadd(keys.visitorsByLastSeen(website, day), state.lastSeen.getTime(), id);
    if (state.lastPageviewAt)
      multi.zadd(keys.visitorsByLastPageview(website, day), state.lastPageviewAt.getTime(), id);
  }
  for (const replay of replays) {
    multi.hset(keys.replays(website, day), replay.sessionId, JSON.stringify(replay));
  }
  multi.set(keys.marker(website, day), dayMarker(now, `load-${randomBytes(6).toString('hex')}`));
  multi.sadd(keys.hotDays, websiteDay(website, day));
  const results = await multi.exec();
  const failed = results?.find(([error]) => error);
  if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
}
