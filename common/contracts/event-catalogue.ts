/**
 * What each platform event type's `data` holds, as JSON Schema (2020-12): served at
 * GET /v1/cli/mutate/webhooks/event-types and published in docs/webhooks.md ("Event
 * catalogue"; test/unit/webhooks-event-catalogue.test.ts holds the two equal).
 */
import type { EventType } from './platform-events';

export interface EventTypeEntry {
  description: string;
  /** The JSON Schema of the event's `data`. */
  schema: Record<string, unknown>;
}

const keyFields = {
  key_id: { type: 'string' },
  name: { type: 'string' },
} as const;

const keyChange: EventTypeEntry = {
  description:
    'A key was created, regenerated (the old value stops working at once) or deleted in the dashboard.',
  schema: {
    type: 'object',
    required: ['key_id', 'name', 'prefix', 'expires_at'],
    properties: {
      ...keyFields,
      prefix: { type: 'string', description: 'First characters of the key (svc_…), never the key' },
      expires_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'null: never expires',
      },
    },
  },
};

const website = {
  website_id: { type: 'string' },
  website_name: { type: 'string' },
  domain: { type: 'string' },
} as const;

const trafficChange = (direction: 'spike' | 'drop'): EventTypeEntry => ({
  description: `Visitors of a website in the last complete UTC hour were ${direction === 'spike' ? 'at least the spike ratio times' : 'at most the drop ratio times'} the same hour's baseline (its mean over the same weekday of the previous four weeks). At most one per website and hour; sent to the webhooks of every member of the website's organization whose alert settings it meets (${direction === 'spike' ? 'ratio ≥ spike_ratio' : 'ratio ≤ drop_ratio'}).`,
  schema: {
    type: 'object',
    required: [...Object.keys(website), 'hour_start', 'visitors', 'baseline', 'ratio', 'weeks'],
    properties: {
      ...website,
      hour_start: { type: 'string', format: 'date-time', description: 'The hour measured (UTC)' },
      visitors: { type: 'integer', minimum: 0, description: 'Unique visitors in that hour' },
      baseline: {
        type: 'number',
        minimum: 0,
        description: 'Mean unique visitors of the same hour in the weeks compared',
      },
      ratio: { type: 'number', minimum: 0, description: 'visitors / baseline, two decimals' },
      weeks: { type: 'integer', minimum: 1, maximum: 4, description: 'Weeks in the baseline' },
    },
  },
});

const topRows = {
  type: 'array',
  maxItems: 5,
  items: {
    type: 'object',
    required: ['name', 'visitors'],
    properties: { name: { type: 'string' }, visitors: { type: 'integer', minimum: 0 } },
  },
} as const;

export const EVENT_CATALOGUE: Readonly<Record<EventType, EventTypeEntry>> = {
  'api_key.created': keyChange,
  'api_key.regenerated': keyChange,
  'api_key.deleted': keyChange,
  'api_key.expiring': {
    description:
      'Sent 30, 7 and 1 days before a key expires, each at most once per key (a key found with less time left gets only the most urgent warning due).',
    schema: {
      type: 'object',
      required: ['key_id', 'name', 'prefix', 'expires_at', 'days_before'],
      properties: {
        ...keyFields,
        prefix: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time' },
        days_before: { enum: [30, 7, 1] },
      },
    },
  },
  'api_key.expired': {
    description: 'The key has passed its expiration; requests with it now get 401 key_expired.',
    schema: {
      type: 'object',
      required: ['key_id', 'name', 'prefix', 'expires_at'],
      properties: {
        ...keyFields,
        prefix: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time' },
      },
    },
  },
  'usage.threshold_reached': {
    description:
      "The organization's monthly External API usage reached 80 %, then 100 %, of its quota; each once per month and quota.",
    schema: {
      type: 'object',
      required: ['percent', 'used', 'limit', 'resets_at'],
      properties: {
        percent: { enum: [80, 100] },
        used: { type: 'integer', description: 'Requests counted this month' },
        limit: { type: 'integer', description: 'Monthly quota' },
        resets_at: {
          type: 'string',
          format: 'date-time',
          description: 'First day of next month',
        },
      },
    },
  },
  'traffic.spike': trafficChange('spike'),
  'traffic.drop': trafficChange('drop'),
  'report.daily': {
    description:
      "Yesterday's summary of a website (UTC day): made after midnight UTC for every website with events that day, and delivered to each subscribed webhook at its report_hour (UTC).",
    schema: {
      type: 'object',
      required: [
        ...Object.keys(website),
        'day',
        'visitors',
        'pageviews',
        'sessions',
        'bounce_rate',
        'top_pages',
        'top_sources',
      ],
      properties: {
        ...website,
        day: { type: 'string', format: 'date', description: 'The UTC day summarised' },
        visitors: { type: 'integer', minimum: 0 },
        pageviews: { type: 'integer', minimum: 0 },
        sessions: { type: 'integer', minimum: 0 },
        bounce_rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
        top_pages: { ...topRows, description: 'The five pages with the most visitors' },
        top_sources: { ...topRows, description: 'The five sources with the most visitors' },
      },
    },
  },
  'goal.reached': {
    description:
      "A goal of a website had more converting visitors today (UTC) than when last looked at (about every minute). Delivered to a webhook for the day's first conversion, and, when its alerts.goal_every is N, each time the count passes a multiple of N.",
    schema: {
      type: 'object',
      required: [...Object.keys(website), 'goal', 'day', 'conversions', 'previous'],
      properties: {
        ...website,
        goal: { type: 'string', description: 'The goal’s name' },
        day: { type: 'string', format: 'date', description: 'The UTC day counted' },
        conversions: {
          type: 'integer',
          minimum: 1,
          description: 'Unique visitors who converted on the goal that day so far',
        },
        previous: {
          type: 'integer',
          minimum: 0,
          description: 'The count when last looked at (0 for the first conversion of the day)',
        },
      },
    },
  },
  'webhook.disabled': {
    description:
      "One of the user's webhooks was disabled: its receiver failed every attempt for WEBHOOK_DISABLE_AFTER_DAYS (5 days by default), or answered 410 Gone. Sent to the user's other webhooks.",
    schema: {
      type: 'object',
      required: ['webhook_id', 'url', 'reason', 'failing_since'],
      properties: {
        webhook_id: { type: 'string' },
        url: { type: 'string' },
        reason: { type: 'string' },
        failing_since: {
          type: ['string', 'null'],
          format: 'date-time',
          description: 'The first failed attempt since the last success; null after a 410',
        },
      },
    },
  },
  'webhook.test': {
    description: 'Sent only by POST …/{id}/test; never subscribed to, never retried.',
    schema: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' } },
    },
  },
};
