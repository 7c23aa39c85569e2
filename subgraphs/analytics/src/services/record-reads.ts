import type { RedisClient } from '../../../../common/platform/redis';
import type { VisitorState } from '../ingest/aggregate';
import { DAY_MS } from '../ingest/time-buckets';
import type { WebsiteIndex } from '../store/day-index';
import { visitorStates, type HotQuery } from '../store/hot-query';
import { dayStartOf, daysBetween, type DayKey, type HotKeys } from '../store/hot-keys';
import { VISITOR_CHUNK, type SnapshotStore } from '../store/snapshots';
import { byFirstSeen, newestFirst, type ReplayState } from '../store/visitor-codec';
import { asDays, daysOfHours, type TimeWindow } from './range';

/**
 * The records the read model pages through (visitor records, replay sessions): a list made of
 * one segment per day, from the hot tier or the day's snapshot, of which only the slice asked for
 * is read. Planned like every read (services/read-model.ts, `consistent`): what the hot tier holds
 * is queued on the read's HotQuery, the rest is read once the index is confirmed.
 */
export interface RecordStores {
  redis: RedisClient;
  keys: HotKeys;
  snapshots: SnapshotStore;
}

/** Items `start`..`end` of a list of records, the one asked for by a page. */
export interface Slice {
  start: number;
  end: number;
}

/** A list made of per-day segments, read one slice at a time. */
interface Segment<T> {
  count: number;
  read(start: number, end: number): Promise<T[]>;
}

/** Items `start`..`end` of the segments in order; segments past `end` are never made. */
async function sliceSegments<T>(
  segments: ReadonlyArray<Segment<T> | (() => Segment<T> | Promise<Segment<T>>)>,
  { start, end }: Slice,
) {
  const items: T[] = [];
  let offset = 0;
  for (const made of segments) {
    const segment = typeof made === 'function' ? await made() : made;
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + segment.count);
    if (from < to) items.push(...(await segment.read(from - offset, to - offset)));
    offset += segment.count;
    if (offset >= end) break;
  }
  return items;
}

/** A hot day's visitors `s`..`e`, in the order they were first seen. */
function hotVisitors(stores: RecordStores, websiteId: string, day: DayKey) {
  const { redis, keys } = stores;
  return async (s: number, e: number) =>
    visitorStates(
      redis,
      keys,
      websiteId,
      day,
      await redis.zrange(keys.visitorsByFirstSeen(websiteId, day), s, e - 1),
    );
}

/**
 * Plans the visitor records of a window, in the order they were first seen: for a 24-hour window,
 * yesterday's visitors last seen inside it, then all of today's; otherwise each day's, from the
 * hot tier or the day's snapshot (in chunks of VISITOR_CHUNK), skipping days past retention.
 */
export function planVisitorRecords(
  stores: RecordStores,
  websiteId: string,
  plan: { index: WebsiteIndex; q: HotQuery; window: TimeWindow; keptSince: number; slice: Slice },
): () => Promise<VisitorState[]> {
  const { index, q, window, keptSince, slice } = plan;
  if (window.granularity === 'hour') {
    const [yesterday, today] = daysOfHours(window);
    const seen = yesterday && today ? q.visitorsSeenSince(yesterday, window.from) : null;
    const last = today ?? yesterday!;
    const todays = q.visitorCount(last);
    return async () => {
      const segments: Segment<VisitorState>[] = [];
      if (seen) {
        const earlier = (
          await visitorStates(stores.redis, stores.keys, websiteId, yesterday!, seen())
        ).sort(byFirstSeen);
        segments.push({ count: earlier.length, read: async (s, e) => earlier.slice(s, e) });
      }
      segments.push({ count: todays(), read: hotVisitors(stores, websiteId, last) });
      return sliceSegments(segments, slice);
    };
  }
  const days = daysBetween(window.from, window.lastBucket).filter(
    (day) => dayStartOf(day) + DAY_MS > keptSince,
  );
  const segments = days.map((day): (() => Segment<VisitorState>) => {
    const entry = index.days.get(day);
    if (entry?.hot) {
      const count = q.visitorCount(day);
      return () => ({ count: count(), read: hotVisitors(stores, websiteId, day) });
    }
    const snapshot = entry?.snapshot;
    return () => ({
      count: snapshot ? entry.visitors : 0,
      read: async (s, e) => {
        const chunks: VisitorState[] = [];
        for (let k = Math.floor(s / VISITOR_CHUNK); k * VISITOR_CHUNK < e; k += 1)
          chunks.push(...(await stores.snapshots.visitorChunk(snapshot!, k)));
        const base = Math.floor(s / VISITOR_CHUNK) * VISITOR_CHUNK;
        return chunks.slice(s - base, e - base);
      },
    });
  });
  return () => sliceSegments(segments, slice);
}

/**
 * Plans the replay sessions of a window, newest first, each day's from the hot tier or its
 * snapshot; on the first day of a 24-hour window, only the sessions that started inside it.
 */
export function planReplayRecords(
  stores: RecordStores,
  plan: { index: WebsiteIndex; q: HotQuery; window: TimeWindow; slice: Slice },
): () => Promise<ReplayState[]> {
  const { index, q, window, slice } = plan;
  const days = [...daysBetween(asDays(window).from, window.lastBucket)].reverse();
  const segments = days.map((day, i): (() => Promise<Segment<ReplayState>>) => {
    const entry = index.days.get(day);
    const since =
      window.granularity === 'hour' && i === days.length - 1 && days.length > 1
        ? window.from
        : null;
    const inWindow = (list: ReplayState[]) =>
      since === null ? list : list.filter((r) => r.startedAt >= since);
    if (entry?.hot) {
      const read = q.replays(day);
      return async () => {
        const list = inWindow([...read().values()].sort(newestFirst));
        return { count: list.length, read: async (s, e) => list.slice(s, e) };
      };
    }
    const snapshot = entry?.snapshot;
    return async () => {
      if (!snapshot) return { count: 0, read: async () => [] };
      if (since === null)
        return {
          count: entry.replays,
          read: async (s, e) => (await stores.snapshots.read(snapshot)).replays.slice(s, e),
        };
      const list = inWindow((await stores.snapshots.read(snapshot)).replays);
      return { count: list.length, read: async (s, e) => list.slice(s, e) };
    };
  });
  return () => sliceSegments(segments, slice);
}
