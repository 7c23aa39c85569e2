import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '../../../../common/platform/logger';
import { buildUserNotice, type UserNotice } from '../../../../common/contracts/user-notices';
import {
  buildEvent,
  EVENT_TYPES,
  type PlatformEvent,
} from '../../../../common/contracts/platform-events';
import type { DeliverySettings } from '../config';
import { buildSignedRequest, type StoredEvent } from '../domain/event-payload';
import { alertAccepts, firstAttemptAt } from '../domain/alert-settings';
import { nextDelayMs, parseRetryAfter } from '../domain/retry-schedule';
import type { AttemptOutcome, HttpSender } from '../delivery/http-sender';
import { toDeliveryView } from './delivery-log';
import { deliveryNotFound, deliveryPending, webhookNotActive } from '../errors';
import type { WebhooksModels } from '../models';
import type { TestRateLimiter } from './test-rate-limiter';
import type { WebhookService, WebhookView } from './webhook.service';

/** Where attempts wait for their turn; the BullMQ queue in production, anything in unit tests. */
export interface AttemptScheduler {
  /** Queues `attempt`; a no-op when that attempt was queued before (whatever became of it). */
  schedule(attempt: ScheduledAttempt, delayMs: number): Promise<void>;
  /**
   * Queues `attempt` to run now unless it is already waiting, delayed or running, or `stillDue`
   * (asked once its job is known to be over) says it ran meanwhile; replaces a finished job of
   * the same attempt. False when there was nothing to do.
   */
  requeue(attempt: ScheduledAttempt, stillDue: () => Promise<boolean>): Promise<boolean>;
}

/** How often the overdue sweep runs (DeliveryService.requeueOverdue). */
export const OVERDUE_SWEEP_EVERY_MS = 60_000;
/** A pending delivery this late past its nextAttemptAt may have lost its job; the sweep checks. */
export const OVERDUE_MARGIN_MS = 5 * 60_000;

export interface ScheduledAttempt {
  deliveryId: string;
  webhookId: string;
  attempt: number;
}

export interface AttemptView {
  attempt: number;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string;
}

export interface DeliveryView {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  test: boolean;
  createdAt: Date;
  nextAttemptAt: Date | null;
  attempts: AttemptView[];
}

/** The attempt's error when the stored signing secret cannot be decrypted. */
export const UNREADABLE_SECRET =
  'signing secret unreadable: rotate the secret to resume deliveries';

/** An attempt that sent nothing, and why. */
const notSent = (error: string): AttemptOutcome => ({
  statusCode: null,
  responseBody: '',
  responseBodyTruncated: false,
  durationMs: 0,
  error,
  retryAfter: undefined,
});

export interface TestResult extends AttemptOutcome {
  deliveryId: string;
  eventId: string;
  success: boolean;
}

/** One delivery per (event, webhook): a stream entry read twice maps to the same record. */
export const deliveryIdFor = (eventId: string, webhookId: string) =>
  `dlv_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex').slice(0, 32)}`;

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

const GONE = 'The receiver answered 410 Gone';

/** The number of the last attempt made; 0 before the first. */
const lastAttempt = (attempts: Array<{ attempt: number }> | null | undefined) =>
  Math.max(0, ...(attempts ?? []).map((a) => a.attempt));

/** How a webhook's owner is told that it was disabled. */
export interface OwnerChannels {
  /** Appends a platform event to the stream (webhook.disabled, to the owner's other webhooks). */
  publish(event: PlatformEvent): Promise<unknown>;
  /** Appends a notice the keys subgraph mails to the owner (common/contracts/user-notices.ts). */
  mail(notice: UserNotice): Promise<unknown>;
}

export class DeliveryService {
  constructor(
    private readonly models: WebhooksModels,
    private readonly webhooks: WebhookService,
    private readonly sender: HttpSender,
    private readonly scheduler: AttemptScheduler,
    private readonly testLimiter: TestRateLimiter,
    private readonly settings: DeliverySettings,
    private readonly logger: Logger,
    private readonly owners: OwnerChannels,
  ) {}

  /** What `disableAfterMs` is counted by; tests move it. */
  clock: () => number = Date.now;

  /**
   * Records a delivery for each of the owner's subscribed webhooks and queues its first attempt.
   * Idempotent, so the stream consumer may hand the same event over again after a crash.
   */
  async fanOut(event: PlatformEvent): Promise<number> {
    if (!EVENT_TYPES.includes(event.type) || event.type === 'webhook.test') {
      this.logger.warn(
        { eventId: event.id, type: event.type },
        'platform event of an unknown or internal type ignored',
      );
      return 0;
    }
    const targets = await this.webhooks.subscribers(event.userId, event.type);
    const stored: StoredEvent = {
      id: event.id,
      type: event.type,
      createdAt: event.createdAt,
      organizationId: event.organizationId ?? null,
      data: event.data ?? {},
    };
    const now = Date.now();
    const accepted = targets.filter((target) => alertAccepts(target.alerts, event));
    for (const webhook of accepted) {
      const id = deliveryIdFor(event.id, webhook.id);
      const dueAt = firstAttemptAt(webhook.alerts, event, now);
      const delivery = await this.models.WebhookDelivery.findOneAndUpdate(
        { _id: id },
        {
          $setOnInsert: {
            _id: id,
            webhookId: webhook.id,
            userId: webhook.userId,
            event: stored,
            status: 'pending',
            attempts: [],
            nextAttemptAt: new Date(dueAt),
            test: false,
          },
        },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      // Some engines (FerretDB) drop an empty array set on insert: a missing list means no attempt yet.
      if (delivery && delivery.status === 'pending' && (delivery.attempts ?? []).length === 0)
        await this.scheduler.schedule(
          { deliveryId: id, webhookId: webhook.id, attempt: 1 },
          Math.max(0, (delivery.nextAttemptAt?.getTime() ?? dueAt) - Date.now()),
        );
    }
    return accepted.length;
  }

  /**
   * Makes attempt `attempt` of a delivery and queues the next one when it failed. A revoked or
   * disabled webhook, or a delivery no longer pending, gets nothing.
   */
  async attempt(deliveryId: string, attempt: number): Promise<void> {
    const delivery = await this.models.WebhookDelivery.findById(deliveryId).lean();
    if (!delivery || delivery.status !== 'pending') return;
    const made = lastAttempt(delivery.attempts);
    if (made >= attempt) {
      // This job ran again after its outcome was saved (queueing the next attempt failed, the
      // process died, BullMQ retried the job): the delivery is still pending, so its next attempt
      // must be queued or it would stay pending for good. The job id makes this a no-op when it is.
      const dueInMs = (delivery.nextAttemptAt?.getTime() ?? 0) - Date.now();
      await this.scheduler.schedule(
        { deliveryId, webhookId: delivery.webhookId, attempt: made + 1 },
        Math.max(0, dueInMs),
      );
      return;
    }
    const target = await this.webhooks.forDelivery(delivery.webhookId);
    if (!target) return this.settleUnsendable(deliveryId, delivery.webhookId, attempt);
    const event = delivery.event as StoredEvent;
    const at = new Date();
    // An unreadable secret is a failed attempt like any other: retried on schedule (a rotation in
    // between repairs it), never a delivery left pending with no attempt recorded.
    const outcome =
      target.secret === null
        ? this.unreadableSecret(delivery.webhookId)
        : await this.sender.send(
            target.webhook.url,
            buildSignedRequest(
              event,
              { id: deliveryId, webhookId: delivery.webhookId, attempt },
              target.secret,
            ),
          );

    const gone = outcome.statusCode === 410;
    const final =
      isSuccess(outcome.statusCode) ||
      gone ||
      attempt >= (delivery.finalAttempt ?? this.settings.maxAttempts);
    const status = isSuccess(outcome.statusCode) ? 'succeeded' : final ? 'failed' : 'pending';
    const honoursRetryAfter = outcome.statusCode === 429 || outcome.statusCode === 503;
    const delayMs = final
      ? null
      : nextDelayMs(
          attempt + 1,
          this.settings.retryBaseMs,
          honoursRetryAfter ? parseRetryAfter(outcome.retryAfter) : null,
        );
    // Before the outcome is saved: should disabling fail, the job's retry finds the delivery still
    // pending and tries again, where a saved outcome would end the delivery with the webhook active.
    if (gone) await this.disableAndTell(target.webhook, GONE, null);
    const updated = await this.models.WebhookDelivery.updateOne(
      { _id: deliveryId, status: 'pending' },
      {
        $push: { attempts: toRecord(attempt, at, outcome) },
        $set: { status, nextAttemptAt: delayMs === null ? null : new Date(Date.now() + delayMs) },
      },
    );
    this.logger.info(
      { deliveryId, attempt, statusCode: outcome.statusCode, error: outcome.error, status },
      'webhook attempt',
    );
    if (!gone) await this.trackHealth(target.webhook, isSuccess(outcome.statusCode));
    // Nothing updated means the webhook was revoked meanwhile: no further attempt.
    if (delayMs !== null && updated.modifiedCount === 1)
      await this.scheduler.schedule(
        { deliveryId, webhookId: delivery.webhookId, attempt: attempt + 1 },
        delayMs,
      );
  }

  /**
   * Queues again the next attempt of every pending delivery overdue by more than
   * OVERDUE_MARGIN_MS whose job is no longer queued: lost with Redis data, or failed for good
   * after BullMQ's own retries (a MongoDB outage longer than they last). Returns how many.
   */
  async requeueOverdue(now = Date.now()): Promise<number> {
    const overdueFilter = {
      status: 'pending' as const,
      nextAttemptAt: { $lt: new Date(now - OVERDUE_MARGIN_MS) },
    };
    const overdue = this.models.WebhookDelivery.find(overdueFilter, { webhookId: 1, attempts: 1 })
      .lean()
      .cursor();
    let requeued = 0;
    for await (const delivery of overdue) {
      const attempt = lastAttempt(delivery.attempts) + 1;
      const deliveryId = String(delivery._id);
      // Read again once its job is known to be over: the attempt may have run since the scan.
      const stillDue = async () =>
        (await this.models.WebhookDelivery.exists({ _id: delivery._id, ...overdueFilter })) !==
        null;
      if (
        await this.scheduler.requeue(
          { deliveryId, webhookId: delivery.webhookId, attempt },
          stillDue,
        )
      )
        requeued += 1;
    }
    if (requeued > 0) this.logger.warn({ requeued }, 'overdue webhook attempts queued again');
    return requeued;
  }

  /**
   * After Redis lost its data (RedisLossWatch), with the queued attempts in it: queues the next
   * attempt of every pending delivery again at the time its schedule gives (at once when that
   * time has passed), under the same job id, so an attempt still queued is not queued twice.
   * Returns how many.
   */
  async requeueAllPending(now = Date.now()): Promise<number> {
    const pending = this.models.WebhookDelivery.find(
      { status: 'pending' },
      { webhookId: 1, attempts: 1, nextAttemptAt: 1 },
    )
      .lean()
      .cursor();
    let queued = 0;
    for await (const delivery of pending) {
      const dueInMs = (delivery.nextAttemptAt?.getTime() ?? now) - now;
      await this.scheduler.schedule(
        {
          deliveryId: String(delivery._id),
          webhookId: delivery.webhookId,
          attempt: lastAttempt(delivery.attempts) + 1,
        },
        Math.max(0, dueInMs),
      );
      queued += 1;
    }
    if (queued > 0) this.logger.warn({ queued }, 'pending webhook attempts queued again');
    return queued;
  }

  /**
   * Sends a synthetic `webhook.test` event now, once, and reports the receiver's answer. At most
   * TESTS_PER_MINUTE per user, whoever asks (429 RATE_LIMIT_EXCEEDED beyond).
   */
  async sendTest(webhook: WebhookView): Promise<TestResult> {
    // Every test counts, sent or not: each one stores a delivery record.
    await this.testLimiter.consume(webhook.userId);
    const target = await this.webhooks.forDelivery(webhook.id);
    const secret = target?.secret;
    const event: StoredEvent = {
      id: `evt_${randomUUID()}`,
      type: 'webhook.test',
      createdAt: new Date().toISOString(),
      organizationId: null,
      data: { message: 'This is a test event sent on request.' },
    };
    const deliveryId = `dlv_${randomUUID().replaceAll('-', '')}`;
    const at = new Date();
    const outcome: AttemptOutcome = secret
      ? await this.sender.send(
          webhook.url,
          buildSignedRequest(event, { id: deliveryId, webhookId: webhook.id, attempt: 1 }, secret),
        )
      : target
        ? this.unreadableSecret(webhook.id)
        : notSent('webhook is disabled');
    await this.models.WebhookDelivery.create({
      _id: deliveryId,
      webhookId: webhook.id,
      userId: webhook.userId,
      event,
      status: isSuccess(outcome.statusCode) ? 'succeeded' : 'failed',
      attempts: [toRecord(1, at, outcome)],
      nextAttemptAt: null,
      test: true,
    });
    return { ...outcome, deliveryId, eventId: event.id, success: isSuccess(outcome.statusCode) };
  }

  /**
   * Sends a delivery of `webhook` once more, now: the same event id and payload, signed with the
   * current secret, as its next attempt; reports the receiver's answer. Succeeded or failed
   * deliveries only (a pending one is attempted on its schedule: 409). Counted with tests.
   */
  async redeliver(webhook: WebhookView, deliveryId: string): Promise<TestResult> {
    const delivery = await this.models.WebhookDelivery.findById(deliveryId).lean();
    if (!delivery || delivery.webhookId !== webhook.id) throw deliveryNotFound();
    if (delivery.status === 'pending') throw deliveryPending();
    await this.testLimiter.consume(webhook.userId);
    const target = await this.webhooks.forDelivery(webhook.id);
    const event = delivery.event as StoredEvent;
    const attempt = lastAttempt(delivery.attempts) + 1;
    const at = new Date();
    const outcome: AttemptOutcome = target?.secret
      ? await this.sender.send(
          webhook.url,
          buildSignedRequest(
            event,
            { id: deliveryId, webhookId: webhook.id, attempt },
            target.secret,
          ),
        )
      : target
        ? this.unreadableSecret(webhook.id)
        : notSent('webhook is disabled');
    const success = isSuccess(outcome.statusCode);
    if (outcome.statusCode === 410) await this.disableAndTell(webhook, GONE, null);
    else if (target) await this.trackHealth(webhook, success);
    await this.models.WebhookDelivery.updateOne(
      { _id: deliveryId, status: { $ne: 'pending' } },
      {
        $push: { attempts: toRecord(attempt, at, outcome) },
        ...(success ? { $set: { status: 'succeeded' } } : {}),
      },
    );
    this.logger.info(
      { deliveryId, attempt, statusCode: outcome.statusCode, error: outcome.error },
      'webhook redelivery',
    );
    return { ...outcome, deliveryId, eventId: event.id, success };
  }

  /**
   * Queues once more every failed delivery of `webhook` (tests aside) created at or after
   * `since`: one attempt each, now, as its next attempt, final whatever its outcome (however
   * many attempts it had: one that failed on a 410 had one). A delivery queued again is pending,
   * not failed, so asking twice meanwhile queues it once. Returns how many were queued.
   */
  async recover(webhook: WebhookView, since: Date): Promise<number> {
    if (webhook.status !== 'active') throw webhookNotActive();
    const failed = this.models.WebhookDelivery.find(
      { webhookId: webhook.id, status: 'failed', test: false, createdAt: { $gte: since } },
      { attempts: 1 },
    )
      .lean()
      .cursor();
    let queued = 0;
    for await (const delivery of failed) {
      const attempt = lastAttempt(delivery.attempts) + 1;
      const updated = await this.models.WebhookDelivery.updateOne(
        { _id: delivery._id, status: 'failed' },
        { $set: { status: 'pending', nextAttemptAt: new Date(), finalAttempt: attempt } },
      );
      if (updated.modifiedCount !== 1) continue;
      await this.scheduler.schedule(
        { deliveryId: String(delivery._id), webhookId: webhook.id, attempt },
        0,
      );
      queued += 1;
    }
    this.logger.info(
      { webhookId: webhook.id, since, queued },
      'failed webhook deliveries recovered',
    );
    return queued;
  }

  /**
   * A pending delivery whose webhook is no longer active: disabled meanwhile, it fails, this
   * attempt recorded as not sent (a recovery once it is enabled queues the next one: this one's
   * job has run); revoked, it is cancelled.
   */
  private async settleUnsendable(
    deliveryId: string,
    webhookId: string,
    attempt: number,
  ): Promise<void> {
    const disabled = await this.models.Webhook.exists({ _id: webhookId, status: 'disabled' });
    await this.models.WebhookDelivery.updateOne(
      { _id: deliveryId, status: 'pending' },
      disabled
        ? {
            $push: { attempts: toRecord(attempt, new Date(), notSent('webhook is disabled')) },
            $set: { status: 'failed', nextAttemptAt: null },
          }
        : { $set: { status: 'cancelled', nextAttemptAt: null } },
    );
  }

  /**
   * Keeps count of how long the webhook has failed every attempt, and disables it once that is
   * `disableAfterMs` (the clock is this service's, which tests move).
   */
  private async trackHealth(webhook: WebhookView, success: boolean): Promise<void> {
    if (success) return this.webhooks.delivered(webhook.id);
    const now = new Date(this.clock());
    const since = await this.webhooks.failed(webhook.id, now);
    if (since && now.getTime() - since.getTime() >= this.settings.disableAfterMs) {
      const days = Math.round((this.settings.disableAfterMs / 86_400_000) * 100) / 100;
      await this.disableAndTell(
        webhook,
        `Every attempt failed for ${days} days (since ${since.toISOString()})`,
        since,
      );
    }
  }

  /**
   * Disables the webhook and, if this did, tells the owner: webhook.disabled to their other
   * webhooks, and a mail.
   */
  private async disableAndTell(
    webhook: WebhookView,
    reason: string,
    failingSince: Date | null,
  ): Promise<void> {
    if (!(await this.webhooks.disable(webhook.id, reason))) return;
    this.logger.warn({ webhookId: webhook.id, reason }, 'webhook disabled');
    await Promise.all([
      this.owners.publish(
        buildEvent('webhook.disabled', webhook.userId, null, {
          webhook_id: webhook.id,
          url: webhook.url,
          reason,
          failing_since: failingSince?.toISOString() ?? null,
        }),
      ),
      this.owners.mail(disabledNotice(webhook, reason)),
    ]);
  }

  private unreadableSecret(webhookId: string): AttemptOutcome {
    this.logger.error(
      { webhookId },
      'webhook signing secret cannot be decrypted (WEBHOOK_SECRET_KEY changed?); nothing sent',
    );
    return notSent(UNREADABLE_SECRET);
  }

  /** Revocation stops everything queued: pending deliveries become cancelled. */
  async cancelPending(webhookId: string): Promise<void> {
    await this.models.WebhookDelivery.updateMany(
      { webhookId, status: 'pending' },
      { $set: { status: 'cancelled', nextAttemptAt: null } },
    );
  }

  async recentDeliveries(webhookId: string, limit: number): Promise<DeliveryView[]> {
    const docs = await this.models.WebhookDelivery.find({ webhookId })
      .sort({ createdAt: -1, _id: 1 })
      .limit(Math.min(Math.max(limit, 1), 100))
      .lean();
    return docs.map(toDeliveryView);
  }
}

function toRecord(attempt: number, at: Date, outcome: AttemptOutcome) {
  return {
    attempt,
    at,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
    responseBody: outcome.responseBody,
  };
}

/** The mail that tells a webhook's owner it was disabled, and how to bring it back. */
export function disabledNotice(webhook: WebhookView, reason: string): UserNotice {
  const path = `/v1/cli/mutate/webhooks/${webhook.id}`;
  return buildUserNotice(
    webhook.userId,
    `Webhook disabled: ${webhook.url}`,
    [
      `Your webhook ${webhook.url} (${webhook.id}) was disabled. ${reason}.`,
      'No events are sent to it while it is disabled.',
      `Once its receiver works again, enable it on the dashboard's Webhooks page or with POST ${path}/enable, then send what failed meanwhile with POST ${path}/recover.`,
    ].join('\n\n'),
  );
}
