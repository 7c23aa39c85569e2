import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../../../../common/platform/redis';
import {
  visitorKey,
  type BatchWrites,
  type ErrorGroupWrite,
  type ReplayWrite,
  type VisitorState,
} from '../ingest/aggregate';
import type { CollectedEvent } from '../../../../common/contracts/collected-event';
import { DAY_MS, floorDay } from '../ingest/time-buckets';
import { COUNTER_LETTERS, COUNTERS, familyOfDim } from './counters';
import { mergeErrorMeta, type ErrorMeta } from './error-meta';
import { CELL_SEPARATOR } from './hot-query';
import { dayKeyOf, dayMarker, hourKeyOf, type DayKey, type HotKeys } from './hot-keys';
import {
  decodeVisitor,
  encodeVisitor,
  hasSequence,
  withSequence,
  type ReplayState,
} from './visitor-codec';

/** How long a replay session keeps its day after its last chunk. */
export const REPLAY_SESSION_TTL_SECONDS = 3 * 86_400;

/** A website and UTC day, as one string (`W|D`): the unit that is hot or sealed. */
export const websiteDay = (website: string, day: DayKey) => `${website}|${day}`;
export const splitWebsiteDay = (pair: string): [string, DayKey] => {
  const at = pair.lastIndexOf('|');
  return [pair.slice(0, at), pair.slice(at + 1)];
};

/** A replay session of a website, as one string. */
const sessionKey = (website: string, session: string) => JSON.stringify([website, session]);

/** Where a batch's replay sessions are kept: per session, its website and day. */
export type SessionDays = Map<string, { website: string; day: DayKey }>;

/**
 * The day each replay session of a batch is kept under: the one it already has, else the day of
 * its first chunk.
 */
export async function replaySessionDays(
  redis: RedisClient,
  keys: HotKeys,
  events: CollectedEvent[],
): Promise<SessionDays> {
  const first = new Map<string, { website: string; session: string; day: DayKey }>();
  for (const e of events)
    if (e.type === 'replay' && !first.has(sessionKey(e.websiteId, e.sessionId)))
      first.set(sessionKey(e.websiteId, e.sessionId), {
        website: e.websiteId,
        session: e.sessionId,
        day: dayKeyOf(e.ts),
      });
  if (first.size === 0) return new Map();
  const sessions = [...first.values()];
  const known = await redis.mget(...sessions.map((s) => keys.replayDay(s.website, s.session)));
  return new Map(
    sessions.map((s, i) => [
      sessionKey(s.website, s.session),
      { website: s.website, day: known[i] ?? s.day },
    ]),
  );
}

/** The stored states of the batch's visitors, keyed as aggregateBatch keys them. */
export async function loadVisitorStates(
  redis: RedisClient,
  keys: HotKeys,
  events: CollectedEvent[],
): Promise<Map<string, VisitorState>> {
  const idsByDay = new Map<string, Set<string>>();
  for (const e of events) {
    const pair = websiteDay(e.websiteId, dayKeyOf(e.ts));
    const ids = idsByDay.get(pair) ?? new Set<string>();
    ids.add(e.visitorId);
    idsByDay.set(pair, ids);
  }
  const pipeline = redis.pipeline();
  const asked = [...idsByDay].map(([pair, ids]) => {
    const [website, day] = splitWebsiteDay(pair);
    pipeline.hmget(keys.visitors(website, day), ...ids);
    return [website, [...ids]] as const;
  });
  const results = await pipeline.exec();
  const states = new Map<string, VisitorState>();
  asked.forEach(([website, ids], i) => {
    const [error, values] = results?.[i] ?? [new Error('no reply'), null];
    if (error) throw error;
    (values as Array<string | null>).forEach((json, j) => {
      if (json) states.set(visitorKey(website, ids[j]!), decodeVisitor(json));
    });
  });
  return states;
}

/** What a batch does to replay sessions: their new states. */
export interface ReplayPlan {
  sessions: Array<{ website: string; day: DayKey; state: ReplayState }>;
}

/**
 * Folds the batch's replay chunks into their sessions. A chunk whose sequence the session already
 * counted (its state keeps the counted sequences) is neither counted nor measured again.
 */
export async function planReplays(
  redis: RedisClient,
  keys: HotKeys,
  replays: ReplayWrite[],
  sessionDays: SessionDays,
): Promise<ReplayPlan> {
  const bySession = new Map<string, ReplayWrite[]>();
  for (const chunk of replays) {
    const id = sessionKey(chunk.websiteId, chunk.sessionId);
    const list = bySession.get(id) ?? [];
    list.push(chunk);
    bySession.set(id, list);
  }
  if (bySession.size === 0) return { sessions: [] };
  const pipeline = redis.pipeline();
  const sessions = [...bySession].map(([id, chunks]) => {
    const { websiteId: website, sessionId } = chunks[0]!;
    const day = sessionDays.get(id)?.day ?? dayKeyOf(chunks[0]!.ts);
    pipeline.hget(keys.replays(website, day), sessionId);
    return { website, day, chunks };
  });
  const results = await pipeline.exec();
  const reply = (i: number) => {
    const [error, value] = results?.[i] ?? [new Error('no reply'), null];
    if (error) throw error;
    return value;
  };
  return {
    sessions: sessions.map(({ website, day, chunks }, i) => {
      const stored = reply(i) as string | null;
      const first = chunks[0]!;
      const state: ReplayState = stored
        ? (JSON.parse(stored) as ReplayState)
        : {
            sessionId: first.sessionId,
            visitorId: first.visitor.visitorId,
            startedAt: first.ts,
            lastActivity: first.ts,
            chunks: 0,
            bytes: 0,
            entryPath: first.path,
            country: first.visitor.country,
            device: first.visitor.device,
            browser: first.visitor.browser,
            os: first.visitor.os,
            sequences: [],
          };
      for (const chunk of chunks) {
        if (hasSequence(state.sequences, chunk.sequence)) continue;
        state.sequences = withSequence(state.sequences, chunk.sequence);
        state.chunks += 1;
        state.bytes += chunk.bytes;
        state.startedAt = Math.min(state.startedAt, chunk.ts);
        state.lastActivity = Math.max(state.lastActivity, chunk.ts);
      }
      return { website, day, state };
    }),
  };
}

/** The error groups of the batch's days merged into what those days already hold. */
export async function mergeErrorGroups(
  redis: RedisClient,
  keys: HotKeys,
  errors: ErrorGroupWrite[],
): Promise<Array<{ website: string; day: DayKey; fingerprint: string; meta: ErrorMeta }>> {
  if (errors.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const e of errors) pipeline.hget(keys.errors(e.websiteId, dayKeyOf(e.day)), e.fingerprint);
  const results = await pipeline.exec();
  return errors.map((e, i) => {
    const [error, stored] = results?.[i] ?? [new Error('no reply'), null];
    if (error) throw error;
    const delta: ErrorMeta = {
      message: e.message,
      stack: e.stack,
      count: e.count,
      firstSeen: e.firstSeen,
      lastSeen: e.lastSeen,
      lastPath: e.path,
    };
    const earlier = stored ? (JSON.parse(stored as string) as ErrorMeta) : undefined;
    return {
      website: e.websiteId,
      day: dayKeyOf(e.day),
      fingerprint: e.fingerprint,
      meta: mergeErrorMeta(earlier, delta),
    };
  });
}

/**
 * Queues a batch's effect on the hot tier: counters (hour counters only for yesterday and today,
 * the only hours a read asks for), visitor states and their orders, heatmap cells, error groups,
 * replay sessions, and each touched day's marker. `now` decides which hours are recent; `change`
 * makes the markers unique to this write.
 */
export function queueBatch(
  multi: ChainableCommander,
  keys: HotKeys,
  writes: BatchWrites,
  replays: ReplayPlan,
  errors: Awaited<ReturnType<typeof mergeErrorGroups>>,
  now: number,
  change: string,
): void {
  const recentHours = floorDay(now) - DAY_MS;
  const touched = new Set<string>();
  for (const stat of writes.stats) {
    const family = familyOfDim(stat.dim);
    let key: string;
    if (stat.granularity === 'day') {
      const day = dayKeyOf(stat.bucket);
      key = keys.counters(stat.websiteId, day, family);
      touched.add(websiteDay(stat.websiteId, day));
    } else {
      if (stat.bucket < recentHours) continue;
      key = keys.hourCounters(stat.websiteId, hourKeyOf(stat.bucket), family);
    }
    COUNTERS.forEach((counter, i) => {
      const amount = stat.inc[counter];
      if (amount) multi.hincrby(key, `${COUNTER_LETTERS[i]}${stat.value}`, amount);
    });
  }
  for (const state of writes.visitors) {
    const day = dayKeyOf(state.firstSeen.getTime());
    const { websiteId: website, visitorId: id } = state;
    touched.add(websiteDay(website, day));
    multi.hset(keys.visitors(website, day), id, encodeVisitor(state));
    multi.zadd(keys.visitorsByFirstSeen(website, day), state.firstSeen.getTime(), id);
    multi.zadd(keys.visitorsByLastSeen(website, day), state.lastSeen.getTime(), id);
    if (state.lastPageviewAt)
      multi.zadd(keys.visitorsByLastPageview(website, day), state.lastPageviewAt.getTime(), id);
  }
  for (const heatmap of writes.heatmaps) {
    const key = keys.cells(heatmap.websiteId, dayKeyOf(heatmap.day));
    for (const [cell, clicks] of Object.entries(heatmap.cells))
      multi.hincrby(key, `${heatmap.path}${CELL_SEPARATOR}${cell}`, clicks);
  }
  for (const { website, day, fingerprint, meta } of errors)
    multi.hset(keys.errors(website, day), fingerprint, JSON.stringify(meta));
  for (const { website, day, state } of replays.sessions) {
    touched.add(websiteDay(website, day));
    multi.hset(keys.replays(website, day), state.sessionId, JSON.stringify(state));
    multi.set(keys.replayDay(website, state.sessionId), day, 'EX', REPLAY_SESSION_TTL_SECONDS);
  }
  for (const pair of touched) {
    const [website, day] = splitWebsiteDay(pair);
    multi.set(keys.marker(website, day), dayMarker(now, change));
    multi.sadd(keys.hotDays, pair);
  }
}
