import type { Redis } from 'ioredis';
import { rowsFromHash, type Family, type Rows } from './counters';
import type { DayKey, HotKeys } from './hot-keys';
import { decodeVisitor, type ReplayState } from './visitor-codec';
import type { VisitorState } from '../ingest/aggregate';

type Reply = unknown;

/**
 * Reads of one website's hot tier, queued and sent as one MULTI together with the website's
 * epoch, so they all see one moment: the same revision of the day index (store/day-index.ts) the
 * epoch announces. Each queueing method returns a function that reads its reply after `run`.
 */
export class HotQuery {
  private readonly commands: Array<[string, Array<string | number>]> = [];
  private replies: Reply[] = [];

  constructor(
    private readonly redis: Redis,
    readonly keys: HotKeys,
    readonly website: string,
  ) {}

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

  dayRows(day: DayKey, family: Family): () => Rows {
    return this.queue('hgetall', [this.keys.counters(this.website, day, family)], (reply) =>
      rowsFromHash(reply as Record<string, string>),
    );
  }

  hourRows(hour: string, family: Family): () => Rows {
    return this.queue('hgetall', [this.keys.hourCounters(this.website, hour, family)], (reply) =>
      rowsFromHash(reply as Record<string, string>),
    );
  }

  /** A day's heatmap clicks: page → cell → clicks. */
  cells(day: DayKey): () => Map<string, Map<string, number>> {
    return this.queue('hgetall', [this.keys.cells(this.website, day)], (reply) =>
      cellsFromHash(reply as Record<string, string>),
    );
  }

  errors(day: DayKey): () => Map<string, ErrorMetaJson> {
    return this.queue(
      'hgetall',
      [this.keys.errors(this.website, day)],
      (reply) =>
        new Map(
          Object.entries(reply as Record<string, string>).map(([fingerprint, json]) => [
            fingerprint,
            JSON.parse(json) as ErrorMetaJson,
          ]),
        ),
    );
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

  replayCount(day: DayKey): () => number {
    return this.queue('zcard', [this.keys.replaysByStart(this.website, day)], Number);
  }

  /** Ids of the day's replay sessions `start`..`stop`, newest first (ties: greater id first). */
  replayIds(day: DayKey, start: number, stop: number): () => string[] {
    return this.queue(
      'zrevrange',
      [this.keys.replaysByStart(this.website, day), start, stop],
      (reply) => reply as string[],
    );
  }

  /** Ids of the day's replay sessions started at or after `since`, newest first. */
  replaysStartedSince(day: DayKey, since: number): () => string[] {
    return this.queue(
      'zrevrangebyscore',
      [this.keys.replaysByStart(this.website, day), '+inf', since],
      (reply) => reply as string[],
    );
  }
}

/** A follow-up read of states by id (their ids come from a first HotQuery). */
export async function visitorStates(
  redis: Redis,
  keys: HotKeys,
  website: string,
  day: DayKey,
  ids: string[],
): Promise<VisitorState[]> {
  if (ids.length === 0) return [];
  const states = await redis.hmget(keys.visitors(website, day), ...ids);
  return states.flatMap((json) => (json ? [decodeVisitor(json)] : []));
}

export async function replayStates(
  redis: Redis,
  keys: HotKeys,
  website: string,
  day: DayKey,
  ids: string[],
): Promise<ReplayState[]> {
  if (ids.length === 0) return [];
  const states = await redis.hmget(keys.replays(website, day), ...ids);
  return states.flatMap((json) => (json ? [JSON.parse(json) as ReplayState] : []));
}

/** Error groups as the hot tier keeps them (store/error-meta.ts). */
export type ErrorMetaJson = import('./error-meta').ErrorMeta;

export const CELL_SEPARATOR = '\u0000';

export function cellsFromHash(hash: Record<string, string>): Map<string, Map<string, number>> {
  const pages = new Map<string, Map<string, number>>();
  for (const [field, clicks] of Object.entries(hash)) {
    const at = field.lastIndexOf(CELL_SEPARATOR);
    const page = field.slice(0, at);
    const cells = pages.get(page) ?? new Map<string, number>();
    cells.set(field.slice(at + 1), Number(clicks));
    pages.set(page, cells);
  }
  return pages;
}
