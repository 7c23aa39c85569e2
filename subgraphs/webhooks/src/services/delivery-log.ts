import type { QueryFilter } from 'mongoose';
import { badInput } from '../../../../common/platform/errors';
import type { WebhookDelivery, WebhooksModels } from '../models';
import type { DeliveryView } from './delivery.service';

export interface DeliveryPageRequest {
  status: DeliveryView['status'] | null;
  /** Created at or after. */
  since: Date | null;
  /** Created before. */
  until: Date | null;
  limit: number;
  /** The last delivery of the previous page: this page starts after it. */
  startingAfter: string | null;
}

export interface DeliveryPage {
  deliveries: DeliveryView[];
  hasMore: boolean;
}

/** A stored delivery as the schema shows it. */
export function toDeliveryView(d: WebhookDelivery & { _id: string }): DeliveryView {
  return {
    id: String(d._id),
    webhookId: d.webhookId,
    eventId: d.event?.id ?? '',
    eventType: d.event?.type ?? '',
    status: d.status as DeliveryView['status'],
    test: d.test,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt ?? null,
    attempts: (d.attempts ?? []).map((a) => ({
      attempt: a.attempt,
      at: a.at,
      statusCode: a.statusCode ?? null,
      durationMs: a.durationMs,
      error: a.error ?? null,
      responseBody: a.responseBody ?? '',
    })),
  };
}

/**
 * A webhook's deliveries, latest first (then by id), a page at a time: a page starts after the
 * last delivery of the one before (keyset paging), so deliveries made meanwhile neither shift
 * nor repeat what a reader pages through.
 */
export class DeliveryLog {
  constructor(private readonly models: WebhooksModels) {}

  async page(webhookId: string, request: DeliveryPageRequest): Promise<DeliveryPage> {
    const conditions: Array<QueryFilter<WebhookDelivery>> = [{ webhookId }];
    if (request.status) conditions.push({ status: request.status });
    if (request.since) conditions.push({ createdAt: { $gte: request.since } });
    if (request.until) conditions.push({ createdAt: { $lt: request.until } });
    if (request.startingAfter) {
      const last = await this.models.WebhookDelivery.findById(request.startingAfter)
        .select({ webhookId: 1, createdAt: 1 })
        .lean();
      if (!last || last.webhookId !== webhookId)
        throw badInput('startingAfter: not a delivery of this webhook');
      conditions.push({
        $or: [
          { createdAt: { $lt: last.createdAt } },
          { createdAt: last.createdAt, _id: { $gt: request.startingAfter } },
        ],
      });
    }
    const docs = await this.models.WebhookDelivery.find({ $and: conditions })
      .sort({ createdAt: -1, _id: 1 })
      .limit(request.limit + 1)
      .lean();
    return {
      deliveries: docs.slice(0, request.limit).map(toDeliveryView),
      hasMore: docs.length > request.limit,
    };
  }
}
