import type { RedisClient } from '../../../../common/platform/redis';
import type { Logger } from '../../../../common/platform/logger';
import { DAY_MS, floorDay } from '../ingest/time-buckets';
import { addRows, zero, type Family, type Rows } from '../store/counters';
import { emptyDay, type DayIndexStore, type WebsiteIndex } from '../store/day-index';
import { mergeErrorMeta } from '../store/error-meta';
import type { HotApplier } from '../store/hot-applier';
import { keysOfDay, loadIntoHot, readHotDay } from '../store/hot-day';
import { dayStartOf, markerTime, type DayKey, type HotKeys } from '../store/hot-keys';
import { replaySessionDays, splitWebsiteDay, websiteDay } from '../store/hot-writes';
import type { RawLog } from '../store/raw-log';
import type { BlockCodec } from '../engine/blocks';
import type { SealedBlocks } from '../engine/sealed-blocks';
import type { Cells, DaySnapshot, SnapshotStore } from '../store/snapshots';
import { compareStreamIds, orderedStreamId } from '../store/stream-ids';

/** Days are sealed once they are this many days old (today and yesterday stay hot). */
export const SEAL_AFTER_DAYS = 2;
/** How long one round of maintenance may go on sealing days. */
const MAINTENANCE_BUDGET_MS = 1_000;
/** Events of a rebuild applied per round. */
const REBUILD_CHUNK = 5_000;

/**
 * Deletes a sealed day's hot keys and announces the index revision that sealed it, atomically and
 * only if no batch was applied since the day was read (KEYS: applied, epoch, hot set, day keys…;
 * ARGV: applied as read, revision, `W|D`).
 */
const DROP_SEALED_DAY = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  return 0
end
redis.call('DEL', unpack(KEYS, 4))
redis.call('SREM', KEYS[3], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;

/**
 * The life of a website's UTC day between the two tiers, run by the ingest lease holder only, one
 * step at a time between batches:
 *  - a day becomes hot when its first event arrives (the index says so before anything is written);
 *  - a hot day is sealed once it is SEAL_AFTER_DAYS old and no batch touched it for `quietMs`: its
 *    hot data (merged with its earlier snapshot, if any) becomes a new immutable snapshot, the index
 *    points at it, and the hot keys go;
 *  - an event for a sealed day thaws it: its visitors and replay sessions go back to the hot tier
 *    and its counters start again from zero on top of the snapshot;
 *  - a day the index says is hot but Redis no longer has (Redis lost its data) is rebuilt from the
 *    snapshot and the raw events that came after it.
 */
export class DayLifecycle {
  private lastLossCheck = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly index: DayIndexStore,
    private readonly snapshots: SnapshotStore,
    private readonly raw: RawLog,
    private readonly blocks: { codec: BlockCodec; sealed: SealedBlocks },
    private readonly applier: HotApplier,
    private readonly logger: Logger,
    private readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes every `W|D` of a batch hot before the batch is planned. `before` is the batch's first
   * stream id: a rebuild leaves the batch's own raw events (stored by an earlier attempt) to it.
   */
  async ensureHot(pairs: Set<string>, before: string): Promise<void> {
    const list = [...pairs];
    const pipeline = this.redis.pipeline();
    for (const pair of list) pipeline.exists(this.keys.marker(...splitWebsiteDay(pair)));
    const results = await pipeline.exec();
    const missing = list.filter((_, i) => {
      const [error, exists] = results?.[i] ?? [new Error('no reply'), 0];
      if (error) throw error;
      return exists === 0;
    });
    const byWebsite = new Map<string, DayKey[]>();
    for (const pair of missing) {
      const [website, day] = splitWebsiteDay(pair);
      byWebsite.set(website, [...(byWebsite.get(website) ?? []), day]);
    }
    for (const [website, days] of byWebsite) await this.makeHot(website, days, before);
  }

  private async makeHot(website: string, days: DayKey[], before: string | null): Promise<void> {
    const index = await this.index.load(website);
    const lost: DayKey[] = [];
    for (const day of days) {
      const entry = index.days.get(day);
      if (!entry) index.days.set(day, { ...emptyDay(), hot: true });
      else if (entry.hot) lost.push(day);
      else {
        const snapshot = await this.snapshots.read(entry.snapshot!);
        await loadIntoHot(
          this.redis,
          this.keys,
          website,
          day,
          await this.snapshots.allVisitors(snapshot),
          snapshot.replays,
          this.now(),
        );
        index.days.set(day, { ...entry, hot: true });
      }
    }
    if (lost.length < days.length) await this.index.save(index);
    for (const day of lost) await this.rebuild(index, day, before);
  }

  /** Rebuilds a hot day Redis lost: its snapshot, then the raw events stored after it. */
  private async rebuild(index: WebsiteIndex, day: DayKey, before: string | null): Promise<void> {
    const entry = index.days.get(day)!;
    const website = index.website;
    this.logger.warn({ website, day }, 'redis lost a hot analytics day; rebuilding it');
    const snapshot = entry.snapshot ? await this.snapshots.read(entry.snapshot) : null;
    await loadIntoHot(
      this.redis,
      this.keys,
      website,
      day,
      snapshot ? await this.snapshots.allVisitors(snapshot) : [],
      snapshot?.replays ?? [],
      this.now(),
    );
    const events = (await this.raw.eventsOf(website, day)).filter(
      ({ id }) =>
        (entry.sealedThrough === null || orderedStreamId(id) > entry.sealedThrough) &&
        (before === null || compareStreamIds(id, before) < 0),
    );
    for (let i = 0; i < events.length; i += REBUILD_CHUNK) {
      const chunk = events.slice(i, i + REBUILD_CHUNK);
      const collected = chunk.map((e) => e.event);
      const plan = await this.applier.plan(
        chunk,
        await replaySessionDays(this.redis, this.keys, collected),
      );
      const multi = this.redis.multi();
      this.applier.queue(multi, plan, this.now(), `rebuild-${events[i]!.id}`);
      const results = await multi.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
    }
    this.logger.info({ website, day, events: events.length }, 'hot analytics day rebuilt');
  }

  /**
   * Runs between batches: recovers the days Redis lost (checked at most once a minute), drops what
   * a sealing cut short left behind, and seals the days that are due, checking the lease before
   * each.
   */
  async maintain(stillLeased: () => Promise<void>): Promise<void> {
    const now = this.now();
    if (now - this.lastLossCheck >= 60_000) {
      this.lastLossCheck = now;
      // A key Redis keeps as long as it keeps its data: gone, the data went with it (a restart
      // without persistence, a flush, a failover to an empty replica).
      if ((await this.redis.exists(this.keys.alive)) === 0) {
        await this.recoverLostDays(stillLeased);
        await this.redis.set(this.keys.alive, now);
      }
    }
    // Bounded, so a backlog of days to seal does not hold up the batches waiting behind it.
    const until = now + MAINTENANCE_BUDGET_MS;
    for (const pair of await this.dueDays(now)) {
      if (this.now() > until) break;
      await stillLeased();
      await this.seal(...splitWebsiteDay(pair), stillLeased);
    }
  }

  /** Hot days due for sealing: old enough and quiet long enough. */
  async dueDays(now = this.now()): Promise<string[]> {
    const pairs = await this.redis.smembers(this.keys.hotDays);
    if (pairs.length === 0) return [];
    const touched = await this.redis.mget(
      ...pairs.map((pair) => this.keys.marker(...splitWebsiteDay(pair))),
    );
    const sealable = floorDay(now) - SEAL_AFTER_DAYS * DAY_MS;
    return pairs
      .filter((pair, i) => {
        const [, day] = splitWebsiteDay(pair);
        return dayStartOf(day) <= sealable && now - markerTime(touched[i] ?? null) >= this.quietMs;
      })
      .sort((a, b) => (splitWebsiteDay(a)[1] < splitWebsiteDay(b)[1] ? -1 : 1));
  }

  /** Rebuilds every day the index says is hot and Redis does not have (reads every index). */
  private async recoverLostDays(stillLeased: () => Promise<void>): Promise<void> {
    for (const { website, days } of await this.index.hotDays()) {
      const exists = await Promise.all(
        days.map((day) => this.redis.exists(this.keys.marker(website, day))),
      );
      const lost = days.filter((_, i) => exists[i] === 0);
      if (lost.length === 0) continue;
      await stillLeased();
      const index = await this.index.load(website);
      for (const day of lost) await this.rebuild(index, day, null);
    }
  }

  /** Seals one hot day (see the class comment); a day the index no longer calls hot is dropped. */
  async seal(website: string, day: DayKey, stillLeased: () => Promise<void>): Promise<void> {
    const index = await this.index.load(website);
    const entry = index.days.get(day);
    const applied = (await this.redis.get(this.keys.applied)) ?? '';
    if (!entry?.hot) {
      // A sealing cut short between the index and Redis, or leftovers of a day sealed elsewhere.
      await this.dropHotKeys(website, day, applied, index.rev);
      return;
    }
    const hot = await readHotDay(this.redis, this.keys, website, day);
    const base = entry.snapshot ? await this.snapshots.read(entry.snapshot) : null;
    // Summed into fresh rows: the base snapshot is cached and shared, never changed.
    const counters = new Map<Family, Rows>();
    for (const source of [base?.counters, hot.counters])
      for (const [family, rows] of source ?? []) {
        const merged = counters.get(family) ?? new Map();
        addRows(merged, rows);
        counters.set(family, merged);
      }
    const cells = new Map<string, Cells>(base?.cells ?? []);
    for (const [page, hotCells] of hot.cells) {
      const merged = new Map(cells.get(page) ?? []);
      for (const [cell, clicks] of hotCells) merged.set(cell, (merged.get(cell) ?? 0) + clicks);
      cells.set(page, merged);
    }
    const errors = new Map(base?.errors ?? []);
    for (const [fingerprint, meta] of hot.errors)
      errors.set(fingerprint, mergeErrorMeta(errors.get(fingerprint), meta));
    const snapshot: DaySnapshot = {
      id: this.snapshots.newId(website, day),
      website,
      day,
      counters,
      cells,
      errors,
      replays: hot.replays,
      visitorChunks: 0,
    };
    await this.snapshots.write(snapshot, hot.visitors);
    await this.sealBlocks(website, day, entry.snapshot, snapshot.id);
    await stillLeased();
    index.days.set(day, {
      snapshot: snapshot.id,
      hot: false,
      totals: counters.get('total')?.get('') ?? zero(),
      visitors: hot.visitors.length,
      replays: hot.replays.length,
      sealedThrough: applied || null,
    });
    for (const [fingerprint, meta] of hot.errors)
      index.errors.set(fingerprint, mergeErrorMeta(index.errors.get(fingerprint), meta));
    const saved = await this.index.save(index, { announce: false });
    if (!(await this.dropHotKeys(website, day, applied, saved.rev)))
      this.logger.error(
        { website, day },
        'a batch was applied while the day was being sealed; its events for that day are not in the snapshot',
      );
  }

  /**
   * The day's block for the engine, under the new snapshot's id: its hot blocks merged with the
   * block of the snapshot it had (a thawed day). Not written when that earlier block is missing
   * (a day sealed before blocks existed): the engine makes the whole day's from its raw events.
   */
  private async sealBlocks(
    website: string,
    day: DayKey,
    previous: string | null,
    id: string,
  ): Promise<void> {
    const parts = Object.values(await this.redis.hgetallBuffer(this.keys.blocks(website, day)));
    if (previous) {
      const before = (await this.blocks.sealed.read(website, [{ id: previous, day }])).get(
        previous,
      );
      if (!before) return;
      parts.push(before);
    }
    if (parts.length === 0) return;
    await this.blocks.sealed.write(id, website, day, await this.blocks.codec.merge(parts));
  }

  private async dropHotKeys(
    website: string,
    day: DayKey,
    applied: string,
    rev: number,
  ): Promise<boolean> {
    const keys = [
      this.keys.applied,
      this.keys.epoch(website),
      this.keys.hotDays,
      ...keysOfDay(this.keys, website, day),
    ];
    const dropped = await this.redis.eval(
      DROP_SEALED_DAY,
      keys.length,
      ...keys,
      applied,
      rev,
      websiteDay(website, day),
    );
    return dropped === 1;
  }
}
