import { isValidObjectId, Types } from 'mongoose';
import { MAX_GOALS_PER_WEBSITE, type GoalKind } from '../../../../common/contracts/goals';
import { badInput, notFound } from '../../../../common/platform/errors';
import type { OneAtATime } from '../../../../common/platform/redis-lock';
import type { VersionedCache } from '../../../../common/platform/versioned-cache';
import type { MirroredGoal } from '../../../../common/contracts/goal-mirror';
import { tooManyGoals } from '../errors';
import type { KeysModels } from '../models';
import { readThrough } from './account-caching';
import { validGoal, type GoalInput } from './goal-definition';

export interface GoalView {
  id: string;
  websiteId: string;
  name: string;
  kind: GoalKind;
  pagePath: string | null;
  eventName: string | null;
  currency: string | null;
  createdAt: Date;
}

export interface GoalHooks {
  /** Read-through cache, the accounts' (goals are read with every analytics query). */
  cache?: VersionedCache<{ value: unknown }>;
  /** Called after a website's goals changed: caches and cached answers that used them forget. */
  changed: (websiteId: string) => Promise<void>;
  /** Creations for one website take turns, so concurrent ones cannot pass the limit together. */
  turns: OneAtATime;
}

/** A website's goals: created and deleted, never updated (FerretDB updates are not atomic). */
export class GoalService {
  constructor(
    private readonly models: KeysModels,
    private readonly hooks: GoalHooks,
  ) {}

  /** The goals of each website, oldest first, in the order of `websiteIds`. */
  async goalsOfWebsites(websiteIds: readonly string[]): Promise<GoalView[][]> {
    const all = await readThrough(this.hooks.cache, `goals:${websiteIds.join(',')}`, async () => {
      const valid = websiteIds.filter((id) => isValidObjectId(id));
      const docs = await this.models.Goal.find({ websiteId: { $in: valid } })
        .sort({ createdAt: 1, _id: 1 })
        .lean();
      return docs.map(toGoal);
    });
    return websiteIds.map((id) => all.filter((goal) => goal.websiteId === id));
  }

  /** The caller has been allowed to manage the website; `invalid_parameters` for a bad goal. */
  async create(websiteId: string, input: GoalInput): Promise<GoalView> {
    const goal = validGoal(input);
    const filter = { websiteId: new Types.ObjectId(websiteId) };
    const doc = await this.hooks.turns(websiteId, async () => {
      const existing = await this.models.Goal.find(filter).lean();
      if (existing.length >= MAX_GOALS_PER_WEBSITE) throw tooManyGoals(MAX_GOALS_PER_WEBSITE);
      const same = existing.find(
        (other) =>
          other.kind === goal.kind &&
          other.pagePath === goal.pagePath &&
          other.eventName === goal.eventName,
      );
      if (same)
        throw badInput(
          goal.kind === 'page'
            ? `The website already has a goal for the page path ${goal.pagePath}`
            : `The website already has a goal for the event ${goal.eventName}`,
          { goalId: String(same._id) },
        );
      return this.models.Goal.create({ ...filter, ...goal });
    });
    await this.hooks.changed(websiteId);
    return toGoal(doc.toObject());
  }

  /** Every website's goals (for the goal mirror: common/contracts/goal-mirror.ts). */
  async allByWebsite(): Promise<Map<string, MirroredGoal[]>> {
    const docs = await this.models.Goal.find({}).sort({ createdAt: 1, _id: 1 }).lean();
    const byWebsite = new Map<string, MirroredGoal[]>();
    for (const goal of docs.map(toGoal))
      byWebsite.set(goal.websiteId, [...(byWebsite.get(goal.websiteId) ?? []), mirrored(goal)]);
    return byWebsite;
  }

  /** One website's goals as the mirror holds them. */
  async mirroredOf(websiteId: string): Promise<MirroredGoal[]> {
    if (!isValidObjectId(websiteId)) return [];
    const docs = await this.models.Goal.find({ websiteId: new Types.ObjectId(websiteId) })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
    return docs.map((doc) => mirrored(toGoal(doc)));
  }

  async delete(websiteId: string, id: string): Promise<void> {
    if (!isValidObjectId(id)) throw notFound('Goal');
    const { deletedCount } = await this.models.Goal.deleteOne({
      _id: new Types.ObjectId(id),
      websiteId: new Types.ObjectId(websiteId),
    });
    if (deletedCount === 0) throw notFound('Goal');
    await this.hooks.changed(websiteId);
  }
}

const mirrored = (goal: GoalView): MirroredGoal => ({
  name: goal.name,
  kind: goal.kind,
  pagePath: goal.pagePath,
  eventName: goal.eventName,
  currency: goal.currency,
});

function toGoal(doc: {
  _id: unknown;
  websiteId: unknown;
  name: string;
  kind: string;
  pagePath?: string | null;
  eventName?: string | null;
  currency?: string | null;
  createdAt: Date;
}): GoalView {
  return {
    id: String(doc._id),
    websiteId: String(doc.websiteId),
    name: doc.name,
    kind: doc.kind as GoalKind,
    pagePath: doc.pagePath ?? null,
    eventName: doc.eventName ?? null,
    currency: doc.currency ?? null,
    createdAt: doc.createdAt,
  };
}
