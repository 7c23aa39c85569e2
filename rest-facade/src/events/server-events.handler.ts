/**
 * POST /api/events: the server-side Events API's answer, once the key, its limits and its
 * track_events permission were checked (pipeline/api-key-write.pipeline.ts). Each event goes the
 * collector's way (collect/enrich.ts, the analytics stream through CollectedEventWriter) with the
 * IP address and user agent the sender supplied in place of the request's own.
 */
import type { Request } from 'express';
import type { CollectedEvent } from '../../../common/contracts/collected-event';
import { isRedisUnavailable } from '../../../common/platform/redis';
import { describeIssues } from '../collect/collect.schema';
import { COLLECT_RETRY_AFTER_SECONDS } from '../collect/collected-event.writer';
import { notCountedReason } from '../collect/collector.service';
import { enrich, normalizeIp } from '../collect/enrich';
import { collectionUnavailable, invalidParameters, notJsonBody } from '../errors';
import type { CallContext, KeyedServices } from '../routes/route';
import { EventWebsites } from './event-websites';
import { IdempotencyLedger, idempotentEventId, type Sighting } from './idempotency';
import {
  serverEventSchema,
  serverEventsBatchSchema,
  type EventResult,
  type ServerEvent,
  type ServerEventsAnswer,
} from './server-events.schema';

/** An event that is to be counted: where it is in the batch, and its id when it has a key. */
interface Countable {
  index: number;
  event: ServerEvent;
  keyedId: string | null;
}

export function trackServerEvents({ deps, collector }: KeyedServices) {
  const websites = new EventWebsites(deps.gateway);
  const ledger = new IdempotencyLedger(deps.redis, deps.config.redisKeyPrefix);

  /** When each keyed event was first accepted: a 503 while Redis cannot say. */
  async function sightings(websiteId: string, keyed: Countable[], now: number) {
    try {
      return await ledger.sight(
        websiteId,
        keyed.map((item) => item.keyedId!),
        now,
      );
    } catch (error) {
      if (!isRedisUnavailable(error)) throw error;
      throw collectionUnavailable(
        `Redis cannot be reached to check idempotency keys; nothing was accepted, send the batch again in ${COLLECT_RETRY_AFTER_SECONDS} seconds`,
        COLLECT_RETRY_AFTER_SECONDS,
      );
    }
  }

  /** The stored form of one event accepted (or seen before) at `at`. */
  async function stored(websiteId: string, item: Countable, at: number): Promise<CollectedEvent> {
    const { ip, user_agent: userAgent, idempotency_key: _key, ...payload } = item.event;
    const event = enrich(payload, {
      websiteId,
      ip: normalizeIp(ip),
      userAgent,
      countryHeader: undefined,
      salt: await collector.dailySalt(at),
      now: at,
    });
    return item.keyedId ? { ...event, eventId: item.keyedId } : event;
  }

  return async (req: Request, { key }: CallContext): Promise<ServerEventsAnswer> => {
    if (!req.is('application/json')) throw notJsonBody();
    const batch = serverEventsBatchSchema.safeParse(req.body);
    if (!batch.success)
      throw invalidParameters(describeIssues(batch.error), { issues: batch.error.issues });
    const websiteId = batch.data.website_id;
    await websites.confirm(key, websiteId);
    const results: EventResult[] = [];
    const countable: Countable[] = [];
    batch.data.events.forEach((raw, index) => {
      const checked = check(raw, index, websiteId);
      if ('status' in checked) results[index] = checked;
      else countable.push(checked);
    });
    const now = Date.now();
    const keyed = countable.filter((item) => item.keyedId);
    const seen = new Map<Countable, Sighting>();
    (await sightings(websiteId, keyed, now)).forEach((sighting, i) =>
      seen.set(keyed[i]!, sighting),
    );
    const events = await Promise.all(
      countable.map((item) => {
        const sighting = seen.get(item);
        return stored(websiteId, item, sighting && !sighting.first ? sighting.at : now);
      }),
    );
    // Every event is in the stream (or held for it) before the answer; a 503 otherwise, and the
    // batch may be sent again: its keyed events count once.
    await Promise.all(events.map((event) => collector.append(event)));
    countable.forEach((item, i) => {
      const first = seen.get(item)?.first ?? true;
      results[item.index] = {
        index: item.index,
        status: first ? 'accepted' : 'duplicate',
        event_id: events[i]!.eventId!,
      };
    });
    return summary(websiteId, results);
  };
}

/** An event to count, or its answer when it is not to be counted (invalid, or a bot's). */
function check(raw: unknown, index: number, websiteId: string): Countable | EventResult {
  const parsed = serverEventSchema.safeParse(raw);
  if (!parsed.success) return { index, status: 'invalid', message: describeIssues(parsed.error) };
  const reason = notCountedReason(parsed.data.user_agent);
  if (reason) return { index, status: 'ignored', reason };
  const key = parsed.data.idempotency_key;
  return { index, event: parsed.data, keyedId: key ? idempotentEventId(websiteId, key) : null };
}

function summary(websiteId: string, results: EventResult[]): ServerEventsAnswer {
  const count = (status: EventResult['status']) =>
    results.filter((result) => result.status === status).length;
  return {
    website_id: websiteId,
    accepted: count('accepted'),
    duplicates: count('duplicate'),
    ignored: count('ignored'),
    invalid: count('invalid'),
    events: results,
  };
}
