import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../../../../common/platform/redis';
import { admissionRequests, aggregateBatch, type BatchWrites } from '../ingest/aggregate';
import type { CollectedEvent } from '../../../../common/contracts/collected-event';
import type { ValueAdmission } from '../ingest/value-admission';
import type { HotKeys } from './hot-keys';
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
}

/**
 * Computes a batch's effect on the hot tier from the stored visitor states, replay sessions and
 * error groups (plus the admission of its dimension values), and queues it on a MULTI. Used by
 * ingestion and by the rebuild of a day Redis lost; both run on the ingest lease holder only, one
 * batch at a time, so nothing changes between planning and writing.
 */
export class HotApplier {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: HotKeys,
    private readonly admission: ValueAdmission,
  ) {}

  async plan(events: CollectedEvent[], sessionDays: SessionDays): Promise<HotPlan> {
    const states = await loadVisitorStates(this.redis, this.keys, events);
    const admit = await this.admission.decide(admissionRequests(events, states));
    const writes = aggregateBatch(events, states, admit);
    const [replays, errors] = await Promise.all([
      planReplays(this.redis, this.keys, writes.replays, sessionDays),
      mergeErrorGroups(this.redis, this.keys, writes.errors),
    ]);
    return { writes, replays, errors };
  }

  /** Queues the plan's writes; `change` (unique to this write) versions the days it touches. */
  queue(multi: ChainableCommander, plan: HotPlan, now: number, change: string): void {
    queueBatch(multi, this.keys, plan.writes, plan.replays, plan.errors, now, change);
  }
}
