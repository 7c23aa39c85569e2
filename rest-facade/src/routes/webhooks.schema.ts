/** Request and response bodies of webhook management. Event payloads: docs/webhooks.md. */
import { z } from 'zod';
import { EVENT_TYPES } from '../../../common/contracts/platform-events';
import {
  DROP_CEILING,
  LAST_REPORT_HOUR,
  MAX_ALERT_WEBSITES,
  MAX_GOAL_EVERY,
  MAX_SPIKE_RATIO,
  SPIKE_FLOOR,
} from '../../../common/contracts/website-events';

/** Every subscribable type: the synthetic test event is sent on request only. */
const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'webhook.test');
const eventType = z.enum(SUBSCRIBABLE as [string, ...string[]]);

/** Alert settings as sent: each field optional (an omitted one keeps its value or default). */
export const alertsBody = z
  .strictObject({
    website_ids: z
      .array(z.string().regex(/^[0-9a-f]{24}$/i, 'a website id'))
      .max(MAX_ALERT_WEBSITES)
      .nullable()
      .optional()
      .meta({
        description: `Websites whose findings are delivered (at most ${MAX_ALERT_WEBSITES}); null: every website the owner may read.`,
      }),
    spike_ratio: z
      .number()
      .min(SPIKE_FLOOR)
      .max(MAX_SPIKE_RATIO)
      .optional()
      .meta({
        description: `traffic.spike when visitors / baseline ≥ this (${SPIKE_FLOOR}–${MAX_SPIKE_RATIO}).`,
      }),
    drop_ratio: z
      .number()
      .min(0)
      .max(DROP_CEILING)
      .optional()
      .meta({ description: `traffic.drop when visitors / baseline ≤ this (0–${DROP_CEILING}).` }),
    report_hour: z
      .number()
      .int()
      .min(0)
      .max(LAST_REPORT_HOUR)
      .optional()
      .meta({ description: `The UTC hour report.daily is delivered at (0–${LAST_REPORT_HOUR}).` }),
    goal_every: z.number().int().min(1).max(MAX_GOAL_EVERY).nullable().optional().meta({
      description:
        "goal.reached for the day's first conversion and each time the count passes a multiple of this; null: the first only.",
    }),
  })
  .meta({
    description:
      'Analytics alert settings (traffic.spike, traffic.drop, report.daily); docs/webhooks.md, "Analytics alerts".',
  });

/** The settings' operation input from a validated body. */
export const alertsInput = (body: z.infer<typeof alertsBody>) => ({
  ...(body.website_ids !== undefined ? { websiteIds: body.website_ids } : {}),
  ...(body.spike_ratio !== undefined ? { spikeRatio: body.spike_ratio } : {}),
  ...(body.drop_ratio !== undefined ? { dropRatio: body.drop_ratio } : {}),
  ...(body.report_hour !== undefined ? { reportHour: body.report_hour } : {}),
  ...(body.goal_every !== undefined ? { goalEvery: body.goal_every } : {}),
});

/**
 * The body of POST /v1/cli/mutate/webhooks. Event types are checked by the webhooks service (an
 * unknown one is its 400), so the schema takes any short string and documents the known ones.
 */
export const createWebhookBody = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .meta({ description: 'Absolute https URL of the receiver (http allowed outside production).' }),
  description: z.string().max(500).nullable().optional(),
  event_types: z
    .array(z.string().max(100).meta({ enum: SUBSCRIBABLE }))
    .max(50)
    .optional()
    .meta({ description: 'Event types to deliver; omitted or empty: all.' }),
  alerts: alertsBody.optional(),
});

const webhookShape = {
  id: z.string(),
  url: z.string().meta({ format: 'uri' }),
  description: z.string().nullable(),
  event_types: z.array(eventType).meta({ description: 'Empty: every event type.' }),
  status: z
    .enum(['active', 'disabled'])
    .meta({ description: 'disabled: the receiver answered 410 Gone; nothing more is delivered.' }),
  disabled_reason: z.string().nullable(),
  created_at: z.iso.datetime(),
  secret_rotated_at: z.iso.datetime().nullable(),
  alerts: z
    .strictObject({
      website_ids: z.array(z.string()).nullable(),
      spike_ratio: z.number(),
      drop_ratio: z.number(),
      report_hour: z.number().int().min(0).max(LAST_REPORT_HOUR),
      goal_every: z.number().int().min(1).nullable(),
    })
    .meta({
      description:
        "Which analytics findings are delivered and when: website_ids (null: all the owner may read), spike_ratio, drop_ratio, report_hour (UTC), goal_every (null: a goal's first conversion of the day only).",
    }),
};
const secret = () => z.string().regex(/^whsec_/);

export const WebhookSchema = z.strictObject(webhookShape).meta({ id: 'Webhook' });
export const WebhookListSchema = z.strictObject({ webhooks: z.array(WebhookSchema) });
export const WebhookWithSecretSchema = z
  .strictObject({
    ...webhookShape,
    secret: secret().meta({ description: 'Signing secret; shown only now.' }),
  })
  .meta({ id: 'WebhookWithSecret' });
export const RotatedSecretSchema = z.strictObject({
  id: z.string(),
  secret: secret(),
  secret_rotated_at: z.iso.datetime(),
});

export const WebhookTestResultSchema = z
  .strictObject({
    delivery_id: z.string(),
    event_id: z.string().meta({ description: 'id of the synthetic webhook.test event' }),
    success: z.boolean().meta({ description: 'The receiver answered 2xx.' }),
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'null when the receiver did not answer.' }),
    response_body: z
      .string()
      .meta({ description: 'The receiver’s answer, truncated to 2048 bytes.' }),
    response_body_truncated: z.boolean(),
    duration_ms: z
      .number()
      .int()
      .meta({ description: 'From sending the request to reading the answer.' }),
    error: z.string().nullable().meta({
      description:
        'Why there was no answer: timeout, a connection error code, destination refused…',
    }),
  })
  .meta({ id: 'WebhookTestResult' });

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

const DeliveryAttemptSchema = z
  .strictObject({
    attempt: z.number().int().min(1),
    at: z.iso.datetime(),
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The receiver’s HTTP status; null when it did not answer.' }),
    duration_ms: z.number().int(),
    error: z.string().nullable().meta({
      description:
        'Why there was no answer: timeout, a connection error code, destination refused…',
    }),
    response_body: z.string().meta({ description: 'The start of the receiver’s answer.' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDeliverySchema = z
  .strictObject({
    id: z.string(),
    event_id: z.string().meta({ description: 'The event’s id, the same in every attempt.' }),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        'pending: an attempt is due (next_attempt_at); succeeded: a 2xx answer; failed: every attempt failed (or the receiver answered 410); cancelled: the webhook was revoked first.',
    }),
    test: z.boolean().meta({ description: 'A webhook.test sent on request.' }),
    created_at: z.iso.datetime(),
    next_attempt_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'When the next attempt is due; null once settled.' }),
    attempts: z.array(DeliveryAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveryPageSchema = z.strictObject({
  deliveries: z.array(WebhookDeliverySchema),
  has_more: z.boolean(),
  next_starting_after: z.string().nullable().meta({
    description: 'The id to pass as starting_after for the next page; null when has_more is false.',
  }),
});

/** The body of POST /v1/cli/mutate/webhooks/{id}/recover. */
export const recoverBody = z.strictObject({
  since: z.iso.datetime({ offset: true }).meta({
    description:
      'Every failed delivery created at or after this instant (ISO 8601 with a time zone) is attempted once more.',
  }),
});

export const WebhookRecoverySchema = z.strictObject({
  queued: z
    .number()
    .int()
    .min(0)
    .meta({ description: 'Failed deliveries queued for one more attempt each.' }),
});

export const WebhookEventTypesSchema = z.strictObject({
  event_types: z.array(
    z.strictObject({
      type: z.enum(EVENT_TYPES),
      description: z.string(),
      subscribable: z
        .boolean()
        .meta({ description: 'false for webhook.test, which is sent on request only.' }),
      schema: z
        .record(z.string(), z.unknown())
        .meta({ description: 'The JSON Schema (2020-12) of the event’s data.' }),
    }),
  ),
});
