/**
 * Example bodies of the OpenAPI document: one consistent story (a website, a week of traffic, a
 * webhook) that every example draws on. A test validates each against the schema it illustrates.
 */

/** When the examples were answered: noon UTC of the last day of the example week. */
export const EXAMPLE_NOW = '2026-03-09T12:00:00.000Z';

const WEBSITE_ID = '65f1c0d2a4b5c6d7e8f90123';
const TRACKING_CODE = 'wa-Xq3vT9kLm2Pa';

export const WEBSITE_EXAMPLE = {
  id: WEBSITE_ID,
  name: 'Marketing site',
  domain: 'www.example.com',
  tracking_code: TRACKING_CODE,
  created_at: '2025-11-04T08:15:27.000Z',
};

export const USAGE_EXAMPLE = {
  tier: 'pro',
  monthly_requests: 2417,
  monthly_limit: 10_000,
  remaining_requests: 7583,
  requests_per_minute: 30,
  reset_at: '2026-04-01T00:00:00.000Z',
  total_requests: 18_342,
};

const page = (limit: number, offset = 0, hasMore = false) => ({
  limit,
  offset,
  has_more: hasMore,
});

const DAYS = [
  [412, 131, 158, 71],
  [388, 126, 149, 66],
  [455, 142, 171, 80],
  [431, 137, 160, 69],
  [296, 98, 117, 55],
  [214, 76, 88, 41],
  [187, 64, 75, 33],
] as const;
const dailyStats = DAYS.map(([pageviews, visitors, sessions, bounces], i) => ({
  date: `2026-03-0${i + 3}T00:00:00.000Z`,
  pageviews,
  visitors,
  sessions,
  bounces,
}));
const sum = (pick: (day: (typeof dailyStats)[number]) => number) =>
  dailyStats.reduce((total, day) => total + pick(day), 0);

export const OVERVIEW_EXAMPLE = {
  website_id: WEBSITE_ID,
  range: '7d',
  granularity: 'day',
  from: '2026-03-03T00:00:00.000Z',
  to: '2026-03-10T00:00:00.000Z',
  summary: {
    total_visitors: sum((d) => d.sessions),
    pageviews: sum((d) => d.pageviews),
    unique_visitors: sum((d) => d.visitors),
    sessions: sum((d) => d.sessions),
    bounce_rate: Math.round((sum((d) => d.bounces) / sum((d) => d.sessions)) * 1000) / 1000,
    avg_visit_duration: 94.6,
  },
  daily_stats: dailyStats,
};

export const VISITORS_EXAMPLE = {
  visitors: [
    {
      id: '9c1f4e2a7b3d5c8e0f6a1b2c3d4e5f60',
      country: 'DE',
      device: 'desktop',
      browser: 'Firefox',
      os: 'Linux',
      first_seen: '2026-03-09T07:42:10.512Z',
      last_seen: '2026-03-09T07:49:03.118Z',
      pageviews: 4,
      sessions: 1,
      entry_page: '/',
      last_page: '/pricing',
    },
    {
      id: '2b7d0a9e4c6f1e3a5b8c7d9e0f1a2b3c',
      country: null,
      device: 'mobile',
      browser: 'Safari',
      os: 'iOS',
      first_seen: '2026-03-09T09:05:44.030Z',
      last_seen: '2026-03-09T09:05:44.030Z',
      pageviews: 1,
      sessions: 1,
      entry_page: '/blog/privacy-first-analytics',
      last_page: '/blog/privacy-first-analytics',
    },
  ],
  pagination: page(100),
};

const breakdownRow = (
  name: string,
  value: string,
  visitors: number,
  pageviews: number,
  sessions: number,
) => ({
  [name]: value,
  visitors,
  pageviews,
  sessions,
  bounce_rate: 0.41,
  avg_visit_duration: 88.2,
});

export const COUNTRIES_EXAMPLE = {
  countries: [
    breakdownRow('country', 'DE', 312, 1021, 365),
    breakdownRow('country', 'US', 201, 688, 240),
    breakdownRow('country', 'unknown', 14, 30, 16),
  ],
  pagination: page(3, 0, true),
};

export const PAGES_EXAMPLE = {
  pages: [breakdownRow('path', '/', 402, 811, 377), breakdownRow('path', '/pricing', 188, 240, 61)],
  pagination: page(100),
};

export const SOURCES_EXAMPLE = {
  sources: [
    breakdownRow('source', 'direct', 344, 1102, 402),
    breakdownRow('source', 'www.google.com', 190, 577, 213),
    breakdownRow('source', 'newsletter', 41, 96, 44),
  ],
  pagination: page(100),
};

const technologyRow = (value: string, visitors: number, pageviews: number, sessions: number) => ({
  value,
  visitors,
  pageviews,
  sessions,
});

export const TECHNOLOGY_EXAMPLE = {
  devices: [technologyRow('desktop', 512, 1690, 601), technologyRow('mobile', 261, 690, 317)],
  browsers: [technologyRow('Chrome', 401, 1288, 466), technologyRow('Safari', 199, 540, 231)],
  operating_systems: [technologyRow('Windows', 288, 960, 340), technologyRow('iOS', 170, 455, 202)],
};

export const HEATMAP_PAGES_EXAMPLE = {
  pages: [
    {
      path: '/pricing',
      clicks: 1240,
      visitors: 311,
      cells: [
        { x: 48, y: 12, clicks: 402 },
        { x: 71, y: 12, clicks: 198 },
      ],
    },
  ],
  pagination: page(10),
};

export const REPLAY_SESSIONS_EXAMPLE = {
  sessions: [
    {
      id: 'k3v9Qx2LrT8a',
      visitor_id: '9c1f4e2a7b3d5c8e0f6a1b2c3d4e5f60',
      started_at: '2026-03-09T07:42:10.512Z',
      last_activity: '2026-03-09T07:49:03.118Z',
      chunks: 14,
      bytes: 183_220,
      entry_page: '/',
      country: 'DE',
      device: 'desktop',
      browser: 'Firefox',
      os: 'Linux',
    },
  ],
  pagination: page(100),
};

export const ERROR_GROUPS_EXAMPLE = {
  groups: [
    {
      fingerprint: '3f9a2c71d4e8b605',
      message: "TypeError: Cannot read properties of undefined (reading 'price')",
      stack:
        "TypeError: Cannot read properties of undefined (reading 'price')\n    at renderPlan (https://www.example.com/assets/pricing.js:1:2045)",
      occurrences: 37,
      affected_visitors: 21,
      total_occurrences: 112,
      first_seen: '2026-02-27T16:03:51.000Z',
      last_seen: '2026-03-09T10:12:40.000Z',
      last_page: '/pricing',
    },
  ],
  pagination: page(100),
};

export const QUERY_REQUEST_EXAMPLE = {
  metrics: ['visitors', 'pageviews', 'bounce_rate'],
  dimensions: ['page', 'country'],
  filters: [
    ['is', 'country', ['DE', 'AT', 'CH']],
    ['not', ['contains', 'page', ['/admin']]],
  ],
  date_range: ['2026-03-01', '2026-03-09'],
  include: { total_rows: true, comparisons: { mode: 'previous_period' } },
  limit: 2,
};

export const QUERY_RESULT_EXAMPLE = {
  metrics: ['visitors', 'pageviews', 'bounce_rate'],
  dimensions: ['page', 'country'],
  results: [
    {
      dimensions: ['/pricing', 'DE'],
      metrics: [312, 1021, 0.4231],
      comparison: {
        dimensions: ['/pricing', 'DE'],
        metrics: [260, 880, 0.45],
        change: [0.2, 0.1602, -0.0598],
      },
    },
    {
      dimensions: ['/', 'DE'],
      metrics: [201, 388, 0.5124],
      comparison: {
        dimensions: ['/', 'DE'],
        metrics: [201, 402, 0.5],
        change: [0, -0.0348, 0.0248],
      },
    },
  ],
  pagination: { limit: 2, offset: 0, has_more: true },
  date_range: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-10T00:00:00.000Z' },
  meta: {
    total_rows: 57,
    comparison_date_range: { from: '2026-02-20T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' },
  },
};

export const COLLECT_REQUEST_EXAMPLE = {
  type: 'pageview',
  trackingCode: TRACKING_CODE,
  url: 'https://www.example.com/pricing?utm_source=google&utm_medium=cpc&utm_campaign=spring_sale&utm_content=ad_a&utm_term=web+analytics',
  referrer: 'https://www.google.com/',
  screen: { width: 1440, height: 900 },
};

const SERVER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

export const SERVER_EVENTS_REQUEST_EXAMPLE = {
  website_id: WEBSITE_EXAMPLE.id,
  events: [
    {
      type: 'pageview',
      url: 'https://www.example.com/checkout',
      referrer: 'https://www.example.com/pricing',
      ip: '203.0.113.7',
      user_agent: SERVER_UA,
      idempotency_key: 'pv-7f3c2a9e-checkout',
    },
    {
      type: 'event',
      name: 'Purchase',
      url: 'https://www.example.com/checkout',
      props: { plan: 'pro', coupon: 'SPRING' },
      revenue: { amount: '49.90', currency: 'EUR' },
      ip: '203.0.113.7',
      user_agent: SERVER_UA,
      idempotency_key: 'order-10482',
    },
    {
      type: 'event',
      name: 'Signup',
      url: 'https://www.example.com/welcome',
      ip: '198.51.100.23',
      user_agent: 'curl/8.5.0',
    },
  ],
};

export const SERVER_EVENTS_ANSWER_EXAMPLE = {
  website_id: WEBSITE_EXAMPLE.id,
  accepted: 1,
  duplicates: 1,
  ignored: 1,
  invalid: 0,
  events: [
    { index: 0, status: 'accepted', event_id: 'x3Fq0cJm2Pb9LwEr' },
    { index: 1, status: 'duplicate', event_id: 'Qk7vN1sZ8aTe4HyU' },
    { index: 2, status: 'ignored', reason: 'bot' },
  ],
};

export const LIVE_VISITORS_EXAMPLE = {
  tracking_code: TRACKING_CODE,
  visitors: 7,
  window_seconds: 300,
};

export const TRACKER_SCRIPT_EXAMPLE = '(function(){"use strict";/* … */})();';

const WEBHOOK_ID = '65f2a9e1b3c4d5e6f7a8b9c0';
const SECRET = 'whsec_Jt4q3xVb8mZ2Lr9Nw6Kp1Yd7Hs5Gf0Ac3Ue8Xo2Mi4Q';

export const CREATE_WEBHOOK_REQUEST_EXAMPLE = {
  url: 'https://hooks.example.com/web-analytics',
  description: 'Quota and key alerts',
  event_types: ['api_key.expiring', 'usage.threshold_reached'],
};

export const WEBHOOK_EXAMPLE = {
  id: WEBHOOK_ID,
  ...CREATE_WEBHOOK_REQUEST_EXAMPLE,
  status: 'active',
  disabled_reason: null,
  created_at: '2026-03-02T14:20:05.000Z',
  secret_rotated_at: null,
  alerts: { website_ids: null, spike_ratio: 2, drop_ratio: 0.5, report_hour: 8, goal_every: null },
};

export const ALERTS_REQUEST_EXAMPLE = {
  website_ids: [WEBSITE_ID],
  spike_ratio: 3,
  report_hour: 7,
  goal_every: 10,
};

export const WEBHOOK_WITH_SECRET_EXAMPLE = { ...WEBHOOK_EXAMPLE, secret: SECRET };

export const WEBHOOK_TEST_RESULT_EXAMPLE = {
  delivery_id: 'dlv_5e0c2a8b7f3d4e19a6b1c0d9e8f7a6b5',
  event_id: 'evt_0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  success: true,
  status_code: 200,
  response_body: '{"received":true}',
  response_body_truncated: false,
  duration_ms: 184,
  error: null,
};

export const WEBHOOK_DELIVERY_PAGE_EXAMPLE = {
  deliveries: [
    {
      id: 'dlv_9a1b2c3d4e5f60718293a4b5c6d7e8f9',
      event_id: 'evt_3c2b1a0f-9e8d-4c7b-a6f5-e4d3c2b1a0f9',
      event_type: 'api_key.created',
      status: 'failed',
      test: false,
      created_at: '2026-11-28T09:14:02.118Z',
      next_attempt_at: null,
      attempts: [
        {
          attempt: 1,
          at: '2026-11-28T09:14:02.131Z',
          status_code: 503,
          duration_ms: 212,
          error: null,
          response_body: 'Service Unavailable',
        },
        {
          attempt: 2,
          at: '2026-11-28T09:14:32.140Z',
          status_code: null,
          duration_ms: 10000,
          error: 'timeout',
          response_body: '',
        },
      ],
    },
  ],
  has_more: true,
  next_starting_after: 'dlv_9a1b2c3d4e5f60718293a4b5c6d7e8f9',
};

export const EVENT_TYPES_EXAMPLE = {
  event_types: [
    {
      type: 'api_key.expired',
      description: 'The key has passed its expiration; requests with it now get 401 key_expired.',
      subscribable: true,
      schema: {
        type: 'object',
        required: ['key_id', 'name', 'prefix', 'expires_at'],
        properties: {
          key_id: { type: 'string' },
          name: { type: 'string' },
          prefix: { type: 'string' },
          expires_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  ],
};

export const RECOVER_REQUEST_EXAMPLE = { since: '2026-11-27T00:00:00Z' };
export const RECOVERY_EXAMPLE = { queued: 12 };

export const ROTATED_SECRET_EXAMPLE = {
  id: WEBHOOK_ID,
  secret: 'whsec_Qp7Ls2Dk9Xw4Rb1Vn8Mz3Hy6Tc0Fj5Ga2Ke7Wu9Io1P',
  secret_rotated_at: EXAMPLE_NOW,
};

export const OPENAPI_EXAMPLE = {
  openapi: '3.1.0',
  info: { title: 'Web Analytics External API', version: '1.0.0' },
  paths: {},
};
