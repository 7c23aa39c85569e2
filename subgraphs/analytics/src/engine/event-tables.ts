import { LRUCache } from 'lru-cache';
import type { RedisClient } from '../../../../common/platform/redis';
import { aggregateBatch } from '../ingest/aggregate';
import { DAY_MS } from '../ingest/time-buckets';
import type { DayEntry } from '../store/day-index';
import { dayKeyOf, dayStartOf, type DayKey, type HotKeys } from '../store/hot-keys';
import type { RawLog } from '../store/raw-log';
import type { BlockCodec } from './blocks';
import type { Duck } from './duck';
import { isStatsEvent, toEventRow } from './event-rows';
import { createEventTable, dropEventTable, tableOf } from './event-table';
import {
  rollUp,
  rollupName,
  rollupTableColumns,
  rollupTablesOf,
  dropSpanStatement,
  spanStatements,
  type RollupSpan,
  type Rollup,
  type RollupTables,
} from './day-rollups';
import type { SealedBlocks } from './sealed-blocks';

/** What a day's events are made of: its sealed block (by snapshot id) and its hot blocks. */
export interface DaySources {
  day: DayKey;
  /** The snapshot id of the day's sealed part, if it has one. */
  sealed: string | null;
  /** Change stamps of its hot blocks. */
  hot: string[];
}

/** A source a loaded day holds: `s:<snapshot id>` or `h:<change>`. */
const sealedSource = (id: string) => `s:${id}`;
const hotSource = (change: string) => `h:${change}`;

interface WebsiteTable {
  table: string;
  /** Its day rollups (engine/day-rollups.ts). */
  rollups: RollupTables;
  /** The rollups (by rollupName) each loaded day has up to date. */
  rolled: Map<DayKey, Set<string>>;
  /** Whether this instance made the table (one left by another instance is made anew). */
  made: boolean;
  /** The sources each loaded day holds. */
  days: Map<DayKey, Set<string>>;
  /** The spans kept summed, by rollupName (engine/day-rollups.ts), least recently asked first. */
  spans: Map<string, RollupSpan[]>;
  /** Questions answered from these tables that have not finished reading (see `prepare`). */
  readers: number;
  /** Loads of this website run one at a time. */
  loading: Promise<unknown>;
}

/**
 * Spans kept per rollup of a website. A span is made for a question over more than 31 days (its
 * range, and the whole months in it) and made again with its days' rows; past this many, the
 * least recently asked is dropped when no question is reading, else a question reads month and
 * day rows instead.
 */
const MAX_SPANS = 12;
/** Longer than the longest month: a span of it holds fewer rows than the days it sums. */
const worthASpan = (span: RollupSpan) => span.to - span.from > 31 * DAY_MS;

/** A span's name among those prepare answers with. */
export const spanName = (rollup: Rollup, span: RollupSpan) =>
  `${rollupName(rollup)}@${span.from}-${span.to}`;

/** The website's tables as prepared for one question, until it calls `release`. */
export interface PreparedTables {
  table: string;
  rollups: RollupTables;
  /** The spans the question may read (spanName). */
  spanned: ReadonlySet<string>;
  /** The question has read all it reads: spans may be dropped again. */
  release(): void;
}

/** A day's hot block was gone when it was fetched: the day was sealed meanwhile; plan again. */
export class SourcesMovedError extends Error {
  override readonly name = 'SourcesMovedError';
}

/**
 * The engine's tables in DuckDB: one per website, holding the events of the days its queries
 * asked for, loaded from the blocks (hot ones from Redis, sealed ones from MongoDB) and kept as
 * long as they are the same; a day whose blocks changed otherwise than by new ones (sealed, or
 * rebuilt after Redis lost it) is loaded again. Every instance builds its own from the stores, so
 * any instance answers any website. At most `maxWebsites` are kept (least recently used).
 */
export class EventTables {
  private readonly websites: LRUCache<string, WebsiteTable>;

  constructor(
    private readonly duck: Duck,
    private readonly codec: BlockCodec,
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly sealed: SealedBlocks,
    private readonly raw: RawLog,
    maxWebsites = 200,
  ) {
    this.websites = new LRUCache({
      max: maxWebsites,
      dispose: (website) =>
        void dropEventTable(this.duck, website.table).then(async () => {
          for (const [table] of rollupTableColumns(website.rollups))
            await this.duck.run(`DROP TABLE IF EXISTS ${table}`);
        }),
    });
  }

  /**
   * Makes the website's table hold exactly the events `sources` name, and `rollups` be up to date
   * for their days; resolves with the names of its tables. The caller reads them, then calls
   * `release`: until every question prepared has, no span is dropped (one may be read).
   */
  prepare(
    website: string,
    sources: readonly DaySources[],
    rollups: readonly Rollup[] = [],
    spans: readonly RollupSpan[] = [],
  ): Promise<PreparedTables> {
    let entry = this.websites.get(website);
    if (!entry) {
      const table = tableOf(website);
      entry = {
        table,
        rollups: rollupTablesOf(table),
        rolled: new Map(),
        made: false,
        days: new Map(),
        spans: new Map(),
        readers: 0,
        loading: Promise.resolve(),
      };
      this.websites.set(website, entry);
    }
    const current = entry;
    const run = current.loading.then(async () => {
      await this.load(website, current, sources);
      await this.roll(current, sources, rollups);
      const spanned = await this.span(current, rollups, spans);
      // Counted before the next load of this website runs: it drops no span while this reads.
      current.readers += 1;
      return spanned;
    });
    current.loading = run.catch(() => undefined);
    return run.then((spanned) => {
      let released = false;
      return {
        table: current.table,
        rollups: current.rollups,
        spanned,
        release: () => {
          if (!released) current.readers -= 1;
          released = true;
        },
      };
    });
  }

  /**
   * Makes the spans of `rollups` not kept yet (every day of theirs is rolled up: the question's
   * range holds them), dropping the least recently asked past MAX_SPANS while no question reads,
   * and answers the names of those kept.
   */
  private async span(
    entry: WebsiteTable,
    rollups: readonly Rollup[],
    spans: readonly RollupSpan[],
  ): Promise<Set<string>> {
    const spanned = new Set<string>();
    const worth = spans.filter(worthASpan);
    for (const rollup of rollups) {
      const kept = entry.spans.get(rollupName(rollup)) ?? [];
      entry.spans.set(rollupName(rollup), kept);
      for (const span of worth) {
        const at = kept.findIndex((k) => k.from === span.from && k.to === span.to);
        if (at >= 0) kept.push(...kept.splice(at, 1));
        else {
          if (kept.length >= MAX_SPANS) {
            if (entry.readers > 0) continue;
            await this.duck.atomically([dropSpanStatement(rollup, entry.rollups, kept[0]!)]);
            kept.shift();
          }
          await this.duck.atomically(spanStatements(rollup, entry.rollups, span));
          kept.push(span);
        }
        spanned.add(spanName(rollup, span));
      }
    }
    return spanned;
  }

  /** Rolls up the days of `sources` the table holds where a rollup is not up to date. */
  private async roll(
    entry: WebsiteTable,
    sources: readonly DaySources[],
    rollups: readonly Rollup[],
  ): Promise<void> {
    for (const rollup of rollups) {
      const name = rollupName(rollup);
      const stale = sources
        .map(({ day }) => day)
        .filter((day) => entry.days.has(day) && !entry.rolled.get(day)?.has(name));
      const spans = entry.spans.get(name) ?? [];
      await rollUp(this.duck, entry.table, entry.rollups, rollup, stale, spans);
      for (const day of stale) {
        const rolled = entry.rolled.get(day) ?? new Set();
        rolled.add(name);
        entry.rolled.set(day, rolled);
      }
    }
  }

  private async load(
    website: string,
    entry: WebsiteTable,
    sources: readonly DaySources[],
  ): Promise<void> {
    if (!entry.made) {
      await createEventTable(this.duck, entry.table, { replace: true });
      for (const [table, columns] of rollupTableColumns(entry.rollups))
        await this.duck.run(`CREATE OR REPLACE TABLE ${table} (${columns})`);
      entry.made = true;
    }
    const fresh: DaySources[] = [];
    const added: Array<{ day: DayKey; wanted: Set<string>; hot: string[]; sealed: string | null }> =
      [];
    for (const source of sources) {
      const wanted = new Set(source.hot.map(hotSource));
      if (source.sealed) wanted.add(sealedSource(source.sealed));
      const loaded = entry.days.get(source.day);
      if (loaded && [...loaded].every((s) => wanted.has(s))) {
        if (loaded.size === wanted.size) continue;
        added.push({
          day: source.day,
          wanted,
          hot: source.hot.filter((c) => !loaded.has(hotSource(c))),
          sealed: source.sealed && !loaded.has(sealedSource(source.sealed)) ? source.sealed : null,
        });
      } else fresh.push(source);
    }
    for (const source of fresh) {
      if (entry.days.has(source.day)) {
        const from = dayStartOf(source.day);
        await this.duck.run(
          `DELETE FROM ${entry.table} WHERE ts >= epoch_ms($1::BIGINT) AND ts < epoch_ms($2::BIGINT)`,
          [from, from + DAY_MS],
        );
        entry.days.delete(source.day);
      }
      added.push({
        day: source.day,
        wanted: new Set([
          ...source.hot.map(hotSource),
          ...(source.sealed ? [sealedSource(source.sealed)] : []),
        ]),
        hot: source.hot,
        sealed: source.sealed,
      });
    }
    if (added.length === 0) return;
    const blocks = await this.fetch(website, added);
    await this.codec.load(entry.table, blocks);
    for (const { day, wanted } of added) {
      entry.days.set(day, wanted);
      // Its rollups, and those of the day before (its visits may go on into this one), are made
      // again when next asked for; until then a read sees the old ones.
      entry.rolled.delete(day);
      entry.rolled.delete(dayKeyOf(dayStartOf(day) - DAY_MS));
    }
  }

  /** The blocks of the days' new sources: hot ones from Redis, sealed ones from MongoDB. */
  private async fetch(
    website: string,
    days: ReadonlyArray<{ day: DayKey; hot: string[]; sealed: string | null }>,
  ): Promise<Buffer[]> {
    const blocks: Buffer[] = [];
    const hotReads = days
      .filter(({ hot }) => hot.length > 0)
      .map(async ({ day, hot }) => {
        const found = await this.redis.hmgetBuffer(this.keys.blocks(website, day), ...hot);
        if (found.some((block) => block === null)) throw new SourcesMovedError(day);
        blocks.push(...(found as Buffer[]));
      });
    const sealedIds = days
      .filter((d): d is { day: DayKey; hot: string[]; sealed: string } => d.sealed !== null)
      .map(({ day, sealed }) => ({ id: sealed, day }));
    const sealedRead = async () => {
      if (sealedIds.length === 0) return;
      const found = await this.sealed.read(website, sealedIds);
      for (const { id, day } of sealedIds) {
        const block = found.get(id) ?? (await this.fromRawEvents(website, day, id));
        if (block) blocks.push(block);
      }
    };
    await Promise.all([...hotReads, sealedRead()]);
    return blocks;
  }

  /**
   * A sealed day without a block (sealed before blocks existed): its raw events applied again
   * from the start of the day (a visitor id lives one day, so nothing before it matters), kept as
   * its block. Null when the day has no raw events left (past the retention period).
   */
  private async fromRawEvents(website: string, day: DayKey, id: string): Promise<Buffer | null> {
    const events = await this.raw.eventsOf(website, day);
    if (events.length === 0) return null;
    const { visits } = aggregateBatch(
      events.map((e) => e.event),
      new Map(),
    );
    const block = await this.codec.encode(
      events.flatMap(({ id: eventId, event }, i) =>
        isStatsEvent(event) ? [toEventRow(eventId, event, visits[i]!)] : [],
      ),
    );
    await this.sealed.write(id, website, day, block);
    return block;
  }
}

/** The sources of the days of a range, from the day index and the hot tier's block lists. */
export function daySources(
  days: readonly DayKey[],
  entries: ReadonlyMap<DayKey, DayEntry>,
  hotBlocks: ReadonlyMap<DayKey, string[]>,
): DaySources[] {
  return days.flatMap((day) => {
    const entry = entries.get(day);
    if (!entry) return [];
    return [{ day, sealed: entry.snapshot, hot: entry.hot ? (hotBlocks.get(day) ?? []) : [] }];
  });
}
