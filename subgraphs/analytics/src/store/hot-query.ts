import type { RedisClient } from '../../../../common/platform/redis';
import { LRUCache } from 'lru-cache';
import { ROW_BYTES, rowsFromFlat, type Family, type Rows } from './counters';
import type { ErrorMeta } from './error-meta';
import type { DayKey, HotKeys } from './hot-keys';
import { decodeVisitor, type ReplayState } from './visitor-codec';
import type { VisitorState } from '../ingest/aggregate';

type Reply = unknown;

/**
 * A hash of a hot day, unless the day's marker still is the version the reader holds (KEYS: the
 * day's marker, the hash; ARGV: the version held): `{marker}` when unchanged, else
 * `{marker, flat hash}`. A day without a marker is always read.
 */
const HASH_IF_CHANGED = `
local marker = redis.call('GET', KEYS[1])
if marker and marker == ARGV[1] then return {marker} end
return {marker or '', redis.call('HGETALL', KEYS[2])}
`;

/**
 * Hashes of hot days as last read, with the day marker they were read at: every change of a day
 * sets a new marker, so an entry is current exactly while the marker is the same (a reader then
 * gets the marker back instead of the hash).
 */
export class HotReadCache {
  private readonly entries: LRUCache<string, { version: string; value: unknown }>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache({ maxSize: maxBytes });
  }

  get(key: string) {
    return this.entries.get(key);
  }

  set(key: string, version: string, value: Map<string, unknown>): void {
    if (version) this.entries.set(key, { version, value }, { size: (value.size + 1) * ROW_BYTES });
  }
}

/**
 * Reads of one website's hot tier, queued and sent as one MULTI together with the website's
 * epoch, so they all see one moment: the same revision of the day index (store/day-index.ts) the
 * epoch announces. Each queueing method returns a function that reads its reply after `run`.
 */
export class HotQuery {
  private readonly commands: Array<[string, Array<string | number>]> = [];
  private replies: Reply[] = [];

  constructor(
    private readonly redis: RedisClient,
    readonly keys: HotKeys,
    readonly website: string,
    private readonly cache: HotReadCache,
  ) {}

  /** A day's hash, parsed; from the cache when the day has not changed since it was last read. */
  private dayHash<T extends Map<string, unknown>>(
    day: DayKey,
    key: string,
    parse: (flat: string[]) => T,
  ): () => T {
    const cached = this.cache.get(key);
    return this.queue(
      'eval',
      [HASH_IF_CHANGED, 2, this.keys.marker(this.website, day), key, cached?.version ?? ''],
      (reply) => {
        const [version, flat] = reply as [string, string[] | undefined];
        if (flat === undefined && cached) return cached.value as T;
        const value = parse(flat ?? []);
        this.cache.set(key, version, value);
        return value;
      },
    );
  }

  private queue<T>(command: string, args: Array<string | number>, parse: (reply: Reply) => T) {
    const index = this.commands.push([command, args]);
    return () => parse(this.replies[index]);
  }

  /** Sends what was queued; resolves to the website's epoch (null when Redis has none). */
  async run(): Promise<string | null> {
    const multi = this.redis.multi();
    multi.get(this.keys.epoch(this.website));
    for (const [command, args] of this.commands)
      (multi as unknown as Record<string, (...a: Array<string | number>) => void>)[command]!(
        ...args,
      );
    const results = await multi.exec();
    if (!results) throw new Error('redis transaction aborted');
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    this.replies = results.map(([, reply]) => reply);
    return (this.replies[0] as string | null) ?? null;
  }

  /** The rows a hot day holds, as returned by the hot tier (not to be changed). */
  dayRows(day: DayKey, family: Family): () => Rows {
    return this.dayHash(day, this.keys.counters(this.website, day, family), rowsFromFlat);
  }

  /** The rows of an hour (yesterday's or today's), as returned by the hot tier (not to be changed). */
  hourRows(hour: string, family: Family): () => Rows {
    return this.dayHash(
      hour.slice(0, 10),
      this.keys.hourCounters(this.website, hour, family),
      rowsFromFlat,
    );
  }

  /** A day's heatmap clicks: page → cell → clicks. */
  cells(day: DayKey): () => Map<string, Map<string, number>> {
    return this.dayHash(day, this.keys.cells(this.website, day), cellsFromFlat);
  }

  errors(day: DayKey): () => Map<string, ErrorMeta> {
    return this.dayHash(day, this.keys.errors(this.website, day), (flat) => {
      const errors = new Map<string, ErrorMeta>();
      for (let i = 0; i + 1 < flat.length; i += 2)
        errors.set(flat[i]!, JSON.parse(flat[i + 1]!) as ErrorMeta);
      return errors;
    });
  }

  /** The change stamps of a hot day's blocks for the engine (engine/blocks.ts). */
  blockIds(day: DayKey): () => string[] {
    return this.queue('hkeys', [this.keys.blocks(this.website, day)], (reply) => reply as string[]);
  }

  visitorCount(day: DayKey): () => number {
    return this.queue('zcard', [this.keys.visitorsByFirstSeen(this.website, day)], Number);
  }

  /** Ids of the day's visitors `start`..`stop` (inclusive) in first-seen order. */
  visitorIds(day: DayKey, start: number, stop: number): () => string[] {
    return this.queue(
      'zrange',
      [this.keys.visitorsByFirstSeen(this.website, day), start, stop],
      (reply) => reply as string[],
    );
  }

  /** Ids and first-seen times of the day's visitors last seen at or after `since`. */
  visitorsSeenSince(day: DayKey, since: number): () => string[] {
    return this.queue(
      'zrangebyscore',
      [this.keys.visitorsByLastSeen(this.website, day), since, '+inf'],
      (reply) => reply as string[],
    );
  }

  /** How many of the day's visitors viewed a page at or after `since`. */
  pageviewersSince(day: DayKey, since: number): () => number {
    return this.queue(
      'zcount',
      [this.keys.visitorsByLastPageview(this.website, day), since, '+inf'],
      Number,
    );
  }

  /** A day's replay sessions by id (few a day: recordings are sampled). */
  replays(day: DayKey): () => Map<string, ReplayState> {
    return this.dayHash(day, this.keys.replays(this.website, day), (flat) => {
      const sessions = new Map<string, ReplayState>();
      for (let i = 0; i + 1 < flat.length; i += 2)
        sessions.set(flat[i]!, JSON.parse(flat[i + 1]!) as ReplayState);
      return sessions;
    });
  }
}

/** A follow-up read of states by id (their ids come from a first HotQuery). */
export async function visitorStates(
  redis: RedisClient,
  keys: HotKeys,
  website: string,
  day: DayKey,
  ids: string[],
): Promise<VisitorState[]> {
  if (ids.length === 0) return [];
  const states = await redis.hmget(keys.visitors(website, day), ...ids);
  return states.flatMap((json) => (json ? [decodeVisitor(json)] : []));
}

export const CELL_SEPARATOR = '\u0000';

/** A cells hash (`<path>\0<cell>` → clicks), as a flat list of fields and values, by page. */
export function cellsFromFlat(flat: string[]): Map<string, Map<string, number>> {
  const pages = new Map<string, Map<string, number>>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const field = flat[i]!;
    const at = field.lastIndexOf(CELL_SEPARATOR);
    const page = field.slice(0, at);
    let cells = pages.get(page);
    if (!cells) {
      cells = new Map<string, number>();
      pages.set(page, cells);
    }
    cells.set(field.slice(at + 1), Number(flat[i + 1]));
  }
  return pages;
}
