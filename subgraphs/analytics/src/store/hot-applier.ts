import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../../../../common/platform/redis';
import { aggregateBatch, type BatchWrites, type EventVisit } from '../ingest/aggregate';
import type { BlockCodec } from '../engine/blocks';
import { isStatsEvent, toEventRow, type EventRow } from '../engine/event-rows';
import { dayKeyOf, type DayKey, type HotKeys } from './hot-keys';
import type { LoggedEvent } from './raw-log';
import {
  loadVisitorStates,
  mergeErrorGroups,
  planReplays,
  queueBatch,
  type ReplayPlan,
  type SessionDays,
} from './hot-writes';

/** Everything a batch will write to the hot tier, computed from what the tier holds now. */
export interface HotPlan {
  writes: BatchWrites;
  replays: ReplayPlan;
  errors: Awaited<ReturnType<typeof mergeErrorGroups>>;
  /** The batch's events of each website and day, as a block for the engine. */
  blocks: Array<{ website: string; day: DayKey; block: Buffer }>;
}

/**
 * Computes a batch's effect on the hot tier from the stored visitor states, replay sessions and
 * error groups, and queues it on a MULTI. Used by
 * ingestion and by the rebuild of a day Redis lost; both run on the ingest lease holder only, one
 * batch at a time, so nothing changes between planning and writing.
 */
export class HotApplier {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly codec: BlockCodec,
  ) {}

  /** `events` are in stream order, each with the id it is stored under. */
  async plan(events: readonly LoggedEvent[], sessionDays: SessionDays): Promise<HotPlan> {
    const collected = events.map(({ event }) => event);
    const states = await loadVisitorStates(this.redis, this.keys, collected);
    const writes = aggregateBatch(collected, states);
    const [replays, errors, blocks] = await Promise.all([
      planReplays(this.redis, this.keys, writes.replays, sessionDays),
      mergeErrorGroups(this.redis, this.keys, writes.errors),
      this.blocksOf(events, writes.visits),
    ]);
    return { writes, replays, errors, blocks };
  }

  /** Queues the plan's writes; `change` (unique to this write) versions the days it touches. */
  queue(multi: ChainableCommander, plan: HotPlan, now: number, change: string): void {
    queueBatch(multi, this.keys, plan.writes, plan.replays, plan.errors, now, change);
    for (const { website, day, block } of plan.blocks)
      multi.hset(this.keys.blocks(website, day), change, block);
  }

  /** The events of each website and UTC day as one block, with their visits. */
  private async blocksOf(
    events: readonly LoggedEvent[],
    visits: readonly EventVisit[],
  ): Promise<HotPlan['blocks']> {
    const groups = new Map<string, { website: string; day: DayKey; rows: EventRow[] }>();
    events.forEach(({ id, event }, i) => {
      if (!isStatsEvent(event)) return;
      const day = dayKeyOf(event.ts);
      const group = `${event.websiteId}|${day}`;
      let entry = groups.get(group);
      if (!entry) groups.set(group, (entry = { website: event.websiteId, day, rows: [] }));
      entry.rows.push(toEventRow(id, event, visits[i]!));
    });
    return Promise.all(
      [...groups.values()].map(async ({ website, day, rows }) => ({
        website,
        day,
        block: await this.codec.encode(rows),
      })),
    );
  }
}
