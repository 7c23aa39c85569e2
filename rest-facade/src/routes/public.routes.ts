import { z } from 'zod';
import { COLLECT_BODY_LIMIT_BYTES, collectPayloadSchema } from '../collect/collect.schema';
import { COLLECT_RETRY_AFTER_SECONDS } from '../collect/collected-event.writer';
import { collectEvent, liveVisitors, trackerScript } from '../collect/public.handlers';
import {
  COLLECT_REQUEST_EXAMPLE,
  LIVE_VISITORS_EXAMPLE,
  OPENAPI_EXAMPLE,
  TRACKER_SCRIPT_EXAMPLE,
} from '../openapi/examples';
import { API_BASE } from './common';
import {
  CollectAcceptedSchema,
  LiveVisitorsSchema,
  OpenApiDocumentSchema,
  TrackerScriptSchema,
} from './public.schema';
import { CORS_HEADERS, errorResponse, METHOD_NOT_ALLOWED, RETRY_AFTER } from './responses';
import type { PublicRoute } from './route';

/** Requests per minute one IP may make to GET /live/{trackingCode}. */
export const LIVE_REQUESTS_PER_MINUTE = 60;
/**
 * Events per minute one IP may post to /api/collect: far above what one browser sends (a page
 * view, some clicks and replay chunks), low enough that one host cannot flood the raw-event store.
 */
export const COLLECT_EVENTS_PER_MINUTE = 600;

const TRACKING_CODE_PARAMS = z.object({
  trackingCode: z.string().meta({
    param: {
      description: 'Tracking code of the website (the data-tracking-code of its script tag)',
    },
  }),
});

const publicRoute = { auth: 'none', counted: false, tag: 'Public' } as const;
const preflight = () => (_req: unknown, res: { status(code: number): { end(): void } }) =>
  res.status(204).end();
const CORS_ANSWER = { status: 204, description: 'CORS headers', headers: CORS_HEADERS } as const;

/** Key-less routes for websites and their visitors, and this API's OpenAPI document. */
export const PUBLIC_ROUTES: PublicRoute[] = [
  {
    ...publicRoute,
    method: 'get',
    path: '/tracker.js',
    cors: true,
    answer: trackerScript,
    operationId: 'getTrackerScript',
    summary:
      'The tracking script: <script defer src="{base_url}/tracker.js" data-tracking-code="…">',
    description:
      'The script a website embeds to be tracked; it sends its events to POST /api/collect. Public, served to any origin.',
    response: {
      status: 200,
      description: 'JavaScript, cacheable for an hour',
      schema: TrackerScriptSchema,
      example: TRACKER_SCRIPT_EXAMPLE,
      envelope: false,
      mediaType: 'application/javascript',
      headers: CORS_HEADERS,
    },
    errors: { 405: METHOD_NOT_ALLOWED },
  },
  {
    ...publicRoute,
    method: 'post',
    path: '/api/collect',
    cors: true,
    // Beacons arrive as text/plain (no CORS preflight); fetch clients may send application/json.
    textBody: true,
    body: {
      schema: collectPayloadSchema,
      component: 'CollectRequest',
      mediaTypes: ['text/plain', 'application/json'],
      example: COLLECT_REQUEST_EXAMPLE,
      limit: COLLECT_BODY_LIMIT_BYTES,
    },
    perIpLimit: { name: 'collect', perMinute: COLLECT_EVENTS_PER_MINUTE, what: 'Events' },
    answer: collectEvent,
    operationId: 'collectEvent',
    summary: 'Collect one event from the tracking script (public, identified by tracking code)',
    description: `Called by the tracking script, without a key: one event (page view, custom event with an optional revenue, click, error or replay chunk) of the website with this tracking code; the page URL's hostname and UTM parameters are kept with it. Sent as text/plain (navigator.sendBeacon, no CORS preflight) or application/json. At most ${COLLECT_EVENTS_PER_MINUTE} events per minute per IP.`,
    response: {
      status: 202,
      description:
        'Accepted: queued and applied within milliseconds, or not counted (a bot, or no User-Agent) with the reason',
      schema: CollectAcceptedSchema,
      example: { accepted: true },
      envelope: false,
      headers: CORS_HEADERS,
    },
    errors: {
      400: errorResponse(
        'invalid_json (the body is not JSON, or its bytes do not match their Content-Encoding or length) or invalid_parameters (the message lists every problem); nothing is stored',
        ['invalid_json', 'invalid_parameters'],
      ),
      404: errorResponse('unknown_tracking_code', ['unknown_tracking_code']),
      405: METHOD_NOT_ALLOWED,
      413: errorResponse(`payload_too_large: the body exceeds ${COLLECT_BODY_LIMIT_BYTES} bytes`, [
        'payload_too_large',
      ]),
      415: errorResponse(
        'unsupported_media_type: the body is in a Content-Encoding or charset the server does not read',
        ['unsupported_media_type'],
      ),
      429: errorResponse(
        `RATE_LIMIT_EXCEEDED: more than ${COLLECT_EVENTS_PER_MINUTE} events per minute from one IP`,
        ['RATE_LIMIT_EXCEEDED'],
        RETRY_AFTER,
      ),
      503: errorResponse(
        "service_unavailable; nothing stored. With Retry-After: Redis cannot take events and this instance already holds as many as it may (COLLECT_BUFFER_EVENTS; until then events are held and answered 202), or it cannot reach Redis for the day's salt. Without: the tracking code is not cached and its website cannot be looked up.",
        ['service_unavailable'],
        {
          'Retry-After': {
            description: `Seconds to wait before sending again (${COLLECT_RETRY_AFTER_SECONDS}).`,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      ),
    },
  },
  {
    ...publicRoute,
    method: 'options',
    path: '/api/collect',
    cors: true,
    answer: preflight,
    operationId: 'collectPreflight',
    summary: 'CORS preflight: any origin',
    description:
      'The CORS answer for POST /api/collect, to any origin: fetch with application/json asks for it, sendBeacon with text/plain does not.',
    response: CORS_ANSWER,
    errors: {},
  },
  {
    ...publicRoute,
    method: 'get',
    path: '/live/:trackingCode',
    cors: true,
    params: TRACKING_CODE_PARAMS,
    perIpLimit: { name: 'live', perMinute: LIVE_REQUESTS_PER_MINUTE, what: 'Live visitor counts' },
    answer: liveVisitors,
    operationId: 'getLiveVisitors',
    summary: 'Visitors active in the last 5 minutes (public; no key)',
    description: `Distinct visitors with any event in the last 5 minutes on the website with this tracking code. Public: no key, not counted, readable from any origin; at most ${LIVE_REQUESTS_PER_MINUTE} requests per minute per IP.`,
    response: {
      status: 200,
      description: 'Live visitor count; Cache-Control: public, max-age=10',
      schema: LiveVisitorsSchema,
      example: LIVE_VISITORS_EXAMPLE,
      headers: { ...CORS_HEADERS, 'Cache-Control': { schema: { type: 'string' } } },
    },
    errors: {
      400: errorResponse('invalid_parameters: the tracking code is not valid percent-encoding', [
        'invalid_parameters',
      ]),
      404: errorResponse('unknown_tracking_code', ['unknown_tracking_code']),
      405: METHOD_NOT_ALLOWED,
      429: errorResponse(
        `RATE_LIMIT_EXCEEDED: more than ${LIVE_REQUESTS_PER_MINUTE} requests per minute from one IP`,
        ['RATE_LIMIT_EXCEEDED'],
        RETRY_AFTER,
      ),
      503: errorResponse(
        'service_unavailable: the presence counts (Redis) or, for a tracking code not cached, the website lookup cannot be reached; retry shortly',
        ['service_unavailable'],
      ),
    },
  },
  {
    ...publicRoute,
    method: 'options',
    path: '/live/:trackingCode',
    cors: true,
    params: TRACKING_CODE_PARAMS,
    answer: preflight,
    operationId: 'livePreflight',
    summary: 'CORS preflight: any origin (the methods allowed: GET, HEAD, OPTIONS)',
    description: 'The CORS answer for GET /live/{trackingCode}, to any origin.',
    response: CORS_ANSWER,
    errors: {},
  },
  {
    ...publicRoute,
    tag: 'OpenAPI',
    method: 'get',
    path: `${API_BASE}/openapi.json`,
    cors: false,
    answer:
      ({ document }) =>
      (_req, res) => {
        res.json(document);
      },
    operationId: 'getOpenApi',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of the whole REST surface. Public: no key, not counted, no usage headers.',
    response: {
      status: 200,
      description: 'OpenAPI 3.1 document',
      schema: OpenApiDocumentSchema,
      example: OPENAPI_EXAMPLE,
      envelope: false,
    },
    errors: {},
  },
];
