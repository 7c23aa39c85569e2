import { randomBytes } from 'node:crypto';
import { isValidObjectId, Types } from 'mongoose';
import { badInput, notFound } from '../../../../common/platform/errors';
import type { VersionedCache } from '../../../../common/platform/versioned-cache';
import type { KeysModels } from '../models';
import { readThrough } from './account-caching';
import { limitsOf, planRank, type Limits, type PlanName } from '../plans';

export interface OrganizationView {
  id: string;
  name: string;
  plan: PlanName;
  limits: Limits;
  createdAt: Date;
}
export interface UserView {
  id: string;
  email: string;
}
export interface MembershipView {
  organizationId: string;
  userId: string;
  role: 'owner' | 'admin' | 'member';
}
export interface WebsiteView {
  id: string;
  organizationId: string;
  name: string;
  domain: string;
  trackingCode: string;
  createdAt: Date;
}

const lastOwner = () => badInput('An organization keeps at least one owner');

export function assertObjectId(id: string, what: string): Types.ObjectId {
  if (!isValidObjectId(id)) throw notFound(what);
  return new Types.ObjectId(id);
}

/** Organizations, users, memberships and websites: who may see what. */
export interface AccountCaching {
  /** Read-through cache of account lookups, dropped on every instance by `changed`. */
  cache?: VersionedCache<{ value: unknown }>;
  /** Called after every write, so caches of accounts and of credentials (plans) forget. */
  changed?: () => Promise<void>;
}

/** Organizations, users, memberships and websites: who may see what. */
export class AccountService {
  constructor(
    private readonly models: KeysModels,
    private readonly caching: AccountCaching = {},
    /** Runs membership changes of one organization one at a time, across instances. */
    private readonly memberships: <T>(
      organizationId: string,
      change: () => Promise<T>,
    ) => Promise<T> = (_organizationId, change) => change(),
  ) {}

  /** Reads change rarely and are on every request's path: cache them, invalidated on writes. */
  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return readThrough(this.caching.cache, key, load);
  }

  private async changed(): Promise<void> {
    await this.caching.changed?.();
  }

  async createOrganization(input: {
    name: string;
    plan: PlanName;
    customLimits?: Partial<Limits>;
  }): Promise<OrganizationView> {
    if (input.customLimits && input.plan !== 'enterprise')
      throw badInput('Custom limits exist for the Enterprise plan only');
    const org = await this.models.Organization.create({
      name: input.name,
      plan: input.plan,
      customLimits: input.customLimits ?? null,
    });
    await this.changed();
    return toOrganization(org.toObject());
  }

  /**
   * Custom limits apply to Enterprise only: left out (undefined) they stay as they are, null
   * clears them. `eventAt` records the payment event that made the change.
   */
  async setPlan(
    organizationId: string,
    plan: PlanName,
    customLimits?: Partial<Limits> | null,
    eventAt?: Date,
  ): Promise<OrganizationView> {
    const update: Record<string, unknown> = { plan };
    if (plan !== 'enterprise') update.customLimits = null;
    else if (customLimits !== undefined) update.customLimits = customLimits;
    if (eventAt) update.planEventAt = eventAt;
    const org = await this.models.Organization.findByIdAndUpdate(
      assertObjectId(organizationId, 'Organization'),
      { $set: update },
      { returnDocument: 'after' },
    ).lean();
    if (!org) throw notFound('Organization');
    await this.changed();
    return toOrganization(org);
  }

  async createUser(email: string): Promise<UserView> {
    try {
      const user = await this.models.User.create({ email });
      return { id: String(user._id), email: user.email };
    } catch (error) {
      if ((error as { code?: number }).code === 11000)
        throw badInput('A user with this email already exists');
      throw error;
    }
  }

  async addMember(
    organizationId: string,
    userId: string,
    role: MembershipView['role'],
  ): Promise<MembershipView> {
    await this.organizationsByIds([organizationId]).then((found) => {
      if (found.length === 0) throw notFound('Organization');
    });
    await this.usersByIds([userId]).then((found) => {
      if (found.length === 0) throw notFound('User');
    });
    const filter = {
      organizationId: new Types.ObjectId(organizationId),
      userId: new Types.ObjectId(userId),
    };
    await this.memberships(organizationId, async () => {
      const before = await this.models.Membership.findOneAndUpdate(
        filter,
        { $set: { role } },
        { upsert: true, returnDocument: 'before' },
      ).lean();
      if (before?.role === 'owner' && role !== 'owner' && !(await this.hasOwner(filter))) {
        await this.models.Membership.updateOne(filter, { $set: { role: 'owner' } });
        await this.changed();
        throw lastOwner();
      }
    });
    await this.changed();
    return { organizationId, userId, role };
  }

  /** Ends a membership; the member's keys for that organization stop working at once. */
  async removeMember(organizationId: string, userId: string): Promise<void> {
    const filter = {
      organizationId: assertObjectId(organizationId, 'Organization'),
      userId: assertObjectId(userId, 'User'),
    };
    await this.memberships(organizationId, () => this.leave(filter));
    await this.changed();
  }

  private async leave(filter: { organizationId: Types.ObjectId; userId: Types.ObjectId }) {
    const membership = await this.models.Membership.findOneAndDelete(filter).lean();
    if (!membership) throw notFound('Membership');
    if (membership.role === 'owner' && !(await this.hasOwner(filter))) {
      // Put back (as owner whatever happened to it meanwhile): the organization keeps its owner.
      await this.models.Membership.updateOne(filter, { $set: { role: 'owner' } }, { upsert: true });
      await this.changed();
      throw lastOwner();
    }
  }

  /**
   * Whether the organization still has an owner, asked after a change that may have taken its
   * last one away. No transactions (FerretDB has none): an owner leaves or steps down first and
   * is put back if none is left. Changes of one organization's members also take turns (a Redis
   * lock, see keys-services.ts); without it two owners leaving at once could both be refused,
   * never both succeed.
   */
  private async hasOwner(filter: { organizationId: Types.ObjectId }): Promise<boolean> {
    const owner = await this.models.Membership.exists({
      organizationId: filter.organizationId,
      role: 'owner',
    });
    return owner !== null;
  }

  async createWebsite(input: {
    organizationId: string;
    name: string;
    domain: string;
  }): Promise<WebsiteView> {
    const [org] = await this.organizationsByIds([input.organizationId]);
    if (!org) throw notFound('Organization');
    const website = await this.models.Website.create({
      organizationId: new Types.ObjectId(input.organizationId),
      name: input.name,
      domain: input.domain,
      trackingCode: `wa-${randomBytes(9).toString('base64url')}`,
    });
    await this.changed();
    return toWebsite(website.toObject());
  }

  async organizationsByIds(ids: readonly string[]): Promise<OrganizationView[]> {
    return this.cached(`orgs:${ids.join(',')}`, async () => {
      const valid = ids.filter((id) => isValidObjectId(id));
      const docs = await this.models.Organization.find({ _id: { $in: valid } }).lean();
      return docs.map(toOrganization);
    });
  }

  async usersByIds(ids: readonly string[]): Promise<UserView[]> {
    const valid = ids.filter((id) => isValidObjectId(id));
    const docs = await this.models.User.find({ _id: { $in: valid } }).lean();
    return docs.map((u) => ({ id: String(u._id), email: u.email }));
  }

  async websitesByIds(ids: readonly string[]): Promise<WebsiteView[]> {
    return this.cached(`websites:${ids.join(',')}`, async () => {
      const valid = ids.filter((id) => isValidObjectId(id));
      const docs = await this.models.Website.find({ _id: { $in: valid } }).lean();
      return docs.map(toWebsite);
    });
  }

  async websiteByTrackingCode(trackingCode: string): Promise<WebsiteView | null> {
    return this.cached(`tracking:${trackingCode}`, async () => {
      const doc = await this.models.Website.findOne({ trackingCode: String(trackingCode) }).lean();
      return doc ? toWebsite(doc) : null;
    });
  }

  async websitesOfOrganization(organizationId: string): Promise<WebsiteView[]> {
    return this.cached(`orgWebsites:${organizationId}`, async () => {
      const docs = await this.models.Website.find({
        organizationId: assertObjectId(organizationId, 'Organization'),
      })
        .sort({ createdAt: 1, _id: 1 })
        .lean();
      return docs.map(toWebsite);
    });
  }

  async isMember(userId: string, organizationId: string): Promise<boolean> {
    return this.cached(`member:${userId}:${organizationId}`, async () => {
      if (!isValidObjectId(userId) || !isValidObjectId(organizationId)) return false;
      const found = await this.models.Membership.exists({
        userId: new Types.ObjectId(userId),
        organizationId: new Types.ObjectId(organizationId),
      });
      return found !== null;
    });
  }

  async membershipsOfUser(userId: string): Promise<MembershipView[]> {
    return this.cached(`memberships:${userId}`, async () => {
      const docs = await this.models.Membership.find({ userId: assertObjectId(userId, 'User') })
        .sort({ _id: 1 })
        .lean();
      return docs.map(toMembership);
    });
  }

  async membershipsOfOrganization(organizationId: string): Promise<MembershipView[]> {
    const docs = await this.models.Membership.find({
      organizationId: assertObjectId(organizationId, 'Organization'),
    })
      .sort({ _id: 1 })
      .lean();
    return docs.map(toMembership);
  }

  /**
   * The organization whose plan grants a user's limits: the highest plan among the user's
   * organizations, measured by what it grants (monthly quota, then per-minute limit, then plan);
   * on a tie the preferred one (the key's own organization), then the oldest.
   */
  async billingOrganization(
    userId: string,
    preferredOrganizationId?: string,
  ): Promise<OrganizationView | null> {
    const memberships = await this.membershipsOfUser(userId);
    const orgs = await this.organizationsByIds(memberships.map((m) => m.organizationId));
    // "Highest" by what the plan grants: an Enterprise team with custom limits below Pro's must
    // not pull a Pro member's keys down to them.
    const ranked = [...orgs].sort(
      (a, b) =>
        b.limits.requestsPerMonth - a.limits.requestsPerMonth ||
        b.limits.requestsPerMinute - a.limits.requestsPerMinute ||
        planRank(b.plan) - planRank(a.plan) ||
        Number(b.id === preferredOrganizationId) - Number(a.id === preferredOrganizationId) ||
        a.id.localeCompare(b.id),
    );
    return ranked[0] ?? null;
  }
}

function toOrganization(doc: {
  _id: unknown;
  name: string;
  plan: string;
  customLimits?: { requestsPerMinute?: number | null; requestsPerMonth?: number | null } | null;
  createdAt: Date;
}): OrganizationView {
  const plan = doc.plan as PlanName;
  const custom = doc.customLimits
    ? {
        requestsPerMinute: doc.customLimits.requestsPerMinute ?? undefined,
        requestsPerMonth: doc.customLimits.requestsPerMonth ?? undefined,
      }
    : null;
  return {
    id: String(doc._id),
    name: doc.name,
    plan,
    limits: limitsOf({ plan, customLimits: custom }),
    createdAt: doc.createdAt,
  };
}

function toWebsite(doc: {
  _id: unknown;
  organizationId: unknown;
  name: string;
  domain: string;
  trackingCode: string;
  createdAt: Date;
}): WebsiteView {
  return {
    id: String(doc._id),
    organizationId: String(doc.organizationId),
    name: doc.name,
    domain: doc.domain,
    trackingCode: doc.trackingCode,
    createdAt: doc.createdAt,
  };
}

function toMembership(doc: {
  organizationId: unknown;
  userId: unknown;
  role: string;
}): MembershipView {
  return {
    organizationId: String(doc.organizationId),
    userId: String(doc.userId),
    role: doc.role as MembershipView['role'],
  };
}
