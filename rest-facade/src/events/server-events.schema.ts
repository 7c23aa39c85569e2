/**
 * The server-side Events API's request and answer (POST /api/events): a batch of page views and
 * named events of one website, each with the end user's IP address and user agent as the sender's
 * server saw them, and an optional idempotency key. The batch is checked as a whole (website,
 * 1 to MAX_BATCH_EVENTS events); each event on its own, so one bad event refuses only itself.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { eventProps, eventRevenue, pageUrl } from '../collect/collect.schema';

export const MAX_BATCH_EVENTS = 100;
/** Largest request body: a hundred events with long URLs and thirty properties each fit. */
export const EVENTS_BODY_LIMIT_BYTES = 1024 * 1024;

const ip = z
  .string()
  .max(64)
  .refine((value) => ipaddr.isValid(value), 'must be an IPv4 or IPv6 address')
  .meta({
    description:
      "The end user's IP address, as your server received it. Used with the user agent for the day's visitor id and for the country, as for the tracking script; never stored.",
  });

const userAgent = z.string().max(1000).meta({
  description:
    "The end user's User-Agent header. A known bot, crawler or HTTP client, or an empty one, is answered ignored and counted nowhere, as the tracking script's events are; never stored.",
});

const idempotencyKey = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .meta({
    description:
      'Yours, unique per event (an order id, a UUID). An event sent again with a key already seen for this website within 24 hours is answered duplicate and counted once, so a batch whose answer was lost can be sent again as it was. Without a key, every event sent is counted.',
  });

const common = {
  url: pageUrl,
  ip,
  user_agent: userAgent,
  idempotency_key: idempotencyKey.optional(),
};

/** One event of a batch. Unknown fields are refused. */
export const serverEventSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('pageview'),
      ...common,
      referrer: z.union([z.string().max(2048), z.null()]).optional(),
    }),
    z.strictObject({
      type: z.literal('event'),
      ...common,
      name: z.string().min(1).max(100).meta({ description: 'The event’s name, e.g. Signup' }),
      props: eventProps.optional(),
      revenue: eventRevenue.optional(),
    }),
  ])
  .meta({ description: 'A page view or a named event.' });
export type ServerEvent = z.infer<typeof serverEventSchema>;

const websiteId = z.string().meta({
  description: 'The website the events belong to (from GET /api/external/v1/websites)',
});

/** The request as published (OpenAPI): every event in its full form. */
export const serverEventsBodySchema = z.strictObject({
  website_id: websiteId,
  events: z
    .array(serverEventSchema)
    .min(1)
    .max(MAX_BATCH_EVENTS)
    .meta({ description: `1 to ${MAX_BATCH_EVENTS} events, answered in the same order.` }),
});

/** The request as first read: the batch's own fields; each event is then checked on its own. */
export const serverEventsBatchSchema = z.strictObject({
  website_id: z.string(),
  events: z.array(z.unknown()).min(1).max(MAX_BATCH_EVENTS),
});

export const EVENT_OUTCOMES = ['accepted', 'duplicate', 'ignored', 'invalid'] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

export const EventResultSchema = z.strictObject({
  index: z.number().int().min(0).meta({ description: 'The event’s position in the batch' }),
  status: z.enum(EVENT_OUTCOMES).meta({
    description:
      'accepted: counted. duplicate: its idempotency key was seen within 24 hours; counted once. ignored: its user agent is a bot’s or empty; counted nowhere (reason says which). invalid: refused as it is (message says why); send it again only once fixed.',
  }),
  event_id: z.string().optional().meta({ description: 'Accepted or duplicate: the event’s id' }),
  reason: z.enum(['bot', 'no_user_agent']).optional().meta({ description: 'Ignored: why' }),
  message: z.string().optional().meta({ description: 'Invalid: every problem, "field: problem"' }),
});

export const ServerEventsAnswerSchema = z.strictObject({
  website_id: z.string(),
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  ignored: z.number().int().min(0),
  invalid: z.number().int().min(0),
  events: z.array(EventResultSchema),
});
export type ServerEventsAnswer = z.infer<typeof ServerEventsAnswerSchema>;
export type EventResult = z.infer<typeof EventResultSchema>;
