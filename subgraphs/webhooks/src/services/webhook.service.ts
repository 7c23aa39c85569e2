import { isValidObjectId, Types } from 'mongoose';
import { EVENT_TYPES, type EventType } from '../../../../common/contracts/platform-events';
import {
  checkDestination,
  DestinationRefusedError,
  type DestinationPolicy,
  type Resolver,
} from '../domain/destination-policy';
import { generateSigningSecret, type SecretBox } from '../domain/signing-secret';
import { DEFAULT_ALERTS, settleAlerts, type AlertSettings } from '../domain/alert-settings';
import { invalidEventTypes, invalidWebhookUrl, tooManyWebhooks, webhookNotFound } from '../errors';
import type { WebhooksModels } from '../models';
import type { OneAtATime } from '../../../../common/platform/redis-lock';

export interface WebhookView {
  id: string;
  userId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  status: 'active' | 'disabled' | 'revoked';
  createdAt: Date;
  disabledReason: string | null;
  secretRotatedAt: Date | null;
  alerts: AlertSettings;
}

/** Event types a webhook may subscribe to; `webhook.test` is only ever sent on request. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (t) => t !== 'webhook.test',
);

/** Cap on live (non-revoked) webhooks per user. */
export const MAX_WEBHOOKS_PER_USER = 20;

export interface CreateWebhookInput {
  userId: string;
  url: string;
  description?: string | null;
  eventTypes?: string[] | null;
  alerts?: Partial<AlertSettings> | null;
}

export interface DeliveryTarget {
  webhook: WebhookView;
  /** Null when the stored secret cannot be decrypted (see forDelivery). */
  secret: string | null;
}

export interface WebhookWithSecret {
  webhook: WebhookView;
  secret: string;
}

export class WebhookService {
  constructor(
    private readonly models: WebhooksModels,
    private readonly box: SecretBox,
    private readonly policy: DestinationPolicy,
    /** Creations of one user, and changes of one webhook, take turns (common/redis-lock.ts). */
    private readonly turns: { user: OneAtATime; webhook: OneAtATime },
    private readonly resolver?: Resolver,
  ) {}

  /** Validates the destination (DNS included) and returns the webhook with its secret, shown only now. */
  async register(input: CreateWebhookInput): Promise<WebhookWithSecret> {
    const eventTypes = [...new Set(input.eventTypes ?? [])];
    const unknown = eventTypes.filter((t) => !SUBSCRIBABLE_EVENT_TYPES.includes(t as EventType));
    if (unknown.length > 0) throw invalidEventTypes(unknown);
    const alerts = input.alerts ? settleAlerts(DEFAULT_ALERTS, input.alerts) : null;
    const url = await this.checkUrl(input.url);
    const secret = generateSigningSecret();
    // Count and insert under the user's lock, or concurrent creations could all pass the count.
    const doc = await this.turns.user(input.userId, async () => {
      const live = await this.models.Webhook.countDocuments({
        userId: input.userId,
        status: { $ne: 'revoked' },
      });
      if (live >= MAX_WEBHOOKS_PER_USER) throw tooManyWebhooks(MAX_WEBHOOKS_PER_USER);
      return this.models.Webhook.create({
        userId: input.userId,
        url,
        description: input.description ?? null,
        eventTypes,
        secretCiphertext: this.box.seal(secret),
        alerts,
      });
    });
    return { webhook: toView(doc.toObject()), secret };
  }

  /** Stores a webhook as given, bypassing URL and secret handling: fixtures and internal tools only. */
  async create(input: {
    userId: string;
    url: string;
    description?: string | null;
    eventTypes?: string[];
    secretCiphertext: string;
  }): Promise<WebhookView> {
    const doc = await this.models.Webhook.create({
      ...input,
      description: input.description ?? null,
      eventTypes: input.eventTypes ?? [],
    });
    return toView(doc.toObject());
  }

  async listForUser(userId: string): Promise<WebhookView[]> {
    const [views] = await this.webhooksOfUsers([userId]);
    return views ?? [];
  }

  /** The caller's live webhook, or 404 for anything else (unknown, revoked, another user's). */
  async getOwned(userId: string, id: string): Promise<WebhookView> {
    if (!isValidObjectId(id)) throw webhookNotFound();
    const doc = await this.models.Webhook.findOne({
      _id: id,
      userId,
      status: { $ne: 'revoked' },
    }).lean();
    if (!doc) throw webhookNotFound();
    return toView(doc);
  }

  /** Replaces the secret; the old one stops validating at once (there is no overlap). */
  async rotate(userId: string, id: string): Promise<WebhookWithSecret> {
    const secret = generateSigningSecret();
    if (!isValidObjectId(id)) throw webhookNotFound();
    // One change of a webhook at a time: on FerretDB 1.x a rotation overlapping a revocation
    // would otherwise write the revoked webhook back as active.
    const doc = await this.turns.webhook(canonicalId(id), () =>
      this.models.Webhook.findOneAndUpdate(
        { _id: id, userId, status: { $ne: 'revoked' } },
        { $set: { secretCiphertext: this.box.seal(secret), secretRotatedAt: new Date() } },
        { returnDocument: 'after' },
      ).lean(),
    );
    if (!doc) throw webhookNotFound();
    return { webhook: toView(doc), secret };
  }

  /** Revokes for good. Pending deliveries are cancelled by the caller (DeliveryService). */
  async revoke(userId: string, id: string): Promise<WebhookView> {
    if (!isValidObjectId(id)) throw webhookNotFound();
    const doc = await this.turns.webhook(canonicalId(id), () =>
      this.models.Webhook.findOneAndUpdate(
        { _id: id, userId, status: { $ne: 'revoked' } },
        { $set: { status: 'revoked', revokedAt: new Date() } },
        { returnDocument: 'after' },
      ).lean(),
    );
    if (!doc) throw webhookNotFound();
    return toView(doc);
  }

  /**
   * Brings a disabled webhook back: active, its reason cleared; deliveries resume with the next
   * event (what failed meanwhile stays failed: DeliveryService.recover). An active one is left
   * as it is.
   */
  async enable(userId: string, id: string): Promise<WebhookView> {
    if (!isValidObjectId(id)) throw webhookNotFound();
    const doc = await this.turns.webhook(canonicalId(id), () =>
      this.models.Webhook.findOneAndUpdate(
        { _id: id, userId, status: { $ne: 'revoked' } },
        { $set: { status: 'active', disabledAt: null, disabledReason: null, failingSince: null } },
        { returnDocument: 'after' },
      ).lean(),
    );
    if (!doc) throw webhookNotFound();
    return toView(doc);
  }

  /** Replaces the given alert settings (the others are kept); a 400 for a bad one. */
  async setAlerts(userId: string, id: string, input: Partial<AlertSettings>): Promise<WebhookView> {
    if (!isValidObjectId(id)) throw webhookNotFound();
    const doc = await this.turns.webhook(canonicalId(id), async () => {
      const current = await this.models.Webhook.findOne({
        _id: id,
        userId,
        status: { $ne: 'revoked' },
      }).lean();
      if (!current) throw webhookNotFound();
      const alerts = settleAlerts(toView(current).alerts, input);
      return this.models.Webhook.findOneAndUpdate(
        { _id: id, userId, status: { $ne: 'revoked' } },
        { $set: { alerts } },
        { returnDocument: 'after' },
      ).lean();
    });
    if (!doc) throw webhookNotFound();
    return toView(doc);
  }

  /** A receiver answering 410 Gone asked us to stop: the webhook stays listed, as disabled. */
  async disable(id: string, reason: string): Promise<boolean> {
    const updated = await this.turns.webhook(canonicalId(id), () =>
      this.models.Webhook.updateOne(
        { _id: id, status: 'active' },
        { $set: { status: 'disabled', disabledAt: new Date(), disabledReason: reason } },
      ),
    );
    return updated.modifiedCount === 1;
  }

  /** An attempt succeeded: the webhook is not failing (any more). */
  async delivered(id: string): Promise<void> {
    await this.models.Webhook.updateOne(
      { _id: id, failingSince: { $ne: null } },
      { $set: { failingSince: null } },
    );
  }

  /**
   * An attempt failed at `at`: the webhook is failing since then unless it already was. Resolves
   * with when it started failing, or null when the webhook is no longer active.
   */
  async failed(id: string, at: Date): Promise<Date | null> {
    await this.models.Webhook.updateOne(
      { _id: id, status: 'active', failingSince: null },
      { $set: { failingSince: at } },
    );
    const doc = await this.models.Webhook.findOne({ _id: id, status: 'active' })
      .select({ failingSince: 1 })
      .lean();
    return doc?.failingSince ?? null;
  }

  /** Active webhooks of `userId` that want events of `type`. */
  async subscribers(userId: string, type: EventType): Promise<WebhookView[]> {
    const docs = await this.models.Webhook.find({ userId, status: 'active' }).lean();
    return docs.map(toView).filter((w) => w.eventTypes.length === 0 || w.eventTypes.includes(type));
  }

  /**
   * The webhook and its plaintext secret, for signing; null when it may no longer receive
   * anything. The secret is null when it cannot be decrypted (WEBHOOK_SECRET_KEY changed since it
   * was stored): nothing can be signed until the customer rotates it.
   */
  async forDelivery(id: string): Promise<DeliveryTarget | null> {
    if (!isValidObjectId(id)) return null;
    const doc = await this.models.Webhook.findOne({ _id: id, status: 'active' }).lean();
    return doc ? { webhook: toView(doc), secret: this.openSecret(doc.secretCiphertext) } : null;
  }

  private openSecret(ciphertext: string): string | null {
    try {
      return this.box.open(ciphertext);
    } catch {
      return null;
    }
  }

  async webhooksOfUsers(userIds: readonly string[]): Promise<WebhookView[][]> {
    const docs = await this.models.Webhook.find({
      userId: { $in: userIds },
      status: { $ne: 'revoked' },
    })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
    const views = docs.map(toView);
    return userIds.map((id) => views.filter((w) => w.userId === id));
  }

  async webhooksByIds(ids: readonly string[]): Promise<WebhookView[]> {
    const docs = await this.models.Webhook.find({
      _id: { $in: ids.filter((id) => isValidObjectId(id)) },
      status: { $ne: 'revoked' },
    }).lean();
    return docs.map(toView);
  }

  private async checkUrl(raw: string): Promise<string> {
    try {
      return (await checkDestination(raw.trim(), this.policy, this.resolver)).toString();
    } catch (error) {
      if (error instanceof DestinationRefusedError) throw invalidWebhookUrl(error);
      throw error;
    }
  }
}

type WebhookDoc = {
  _id: unknown;
  userId: string;
  url: string;
  description?: string | null;
  eventTypes: string[];
  status: string;
  createdAt: Date;
  disabledReason?: string | null;
  secretRotatedAt?: Date | null;
  alerts?:
    | (Omit<AlertSettings, 'websiteIds' | 'goalEvery'> & {
        websiteIds?: string[] | null;
        goalEvery?: number | null;
      })
    | null;
};

function toView(doc: WebhookDoc): WebhookView {
  return {
    id: String(doc._id),
    userId: doc.userId,
    url: doc.url,
    description: doc.description ?? null,
    eventTypes: doc.eventTypes,
    status: doc.status as WebhookView['status'],
    createdAt: doc.createdAt,
    disabledReason: doc.disabledReason ?? null,
    secretRotatedAt: doc.secretRotatedAt ?? null,
    alerts: doc.alerts
      ? {
          // Some engines (FerretDB) drop a null array: a missing list means every website.
          websiteIds: doc.alerts.websiteIds ?? null,
          spikeRatio: doc.alerts.spikeRatio,
          dropRatio: doc.alerts.dropRatio,
          reportHour: doc.alerts.reportHour,
          goalEvery: doc.alerts.goalEvery ?? null,
        }
      : DEFAULT_ALERTS,
  };
}

/** One spelling per webhook (ids are case-insensitive hex), so every change of it takes one lock. */
const canonicalId = (id: string) => String(new Types.ObjectId(id));
