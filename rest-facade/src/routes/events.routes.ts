import { COLLECT_RETRY_AFTER_SECONDS } from '../collect/collected-event.writer';
import { trackServerEvents } from '../events/server-events.handler';
import {
  EVENTS_BODY_LIMIT_BYTES,
  MAX_BATCH_EVENTS,
  serverEventsBodySchema,
  ServerEventsAnswerSchema,
} from '../events/server-events.schema';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../events/idempotency';
import { SERVER_EVENTS_ANSWER_EXAMPLE, SERVER_EVENTS_REQUEST_EXAMPLE } from '../openapi/examples';
import { COUNTED_CALL, EVENTS_BASE } from './common';
import { NO_QUERY } from './query-parameters';
import {
  API_KEY_BODY_ERRORS,
  API_KEY_ERRORS,
  errorResponse,
  RETRY_AFTER,
  USAGE_HEADERS,
} from './responses';
import type { ApiKeyWriteRoute } from './route';

const HOURS = IDEMPOTENCY_WINDOW_SECONDS / 3600;

/** The server-side Events API: events a backend sends with an API key (docs/api.md, "Server-side events"). */
export const EVENTS_ROUTES: ApiKeyWriteRoute[] = [
  {
    method: 'post',
    path: EVENTS_BASE,
    auth: 'apiKeyWrite',
    counted: true,
    permission: 'track_events',
    query: NO_QUERY,
    body: {
      schema: serverEventsBodySchema,
      component: 'ServerEventsRequest',
      mediaTypes: ['application/json'],
      example: SERVER_EVENTS_REQUEST_EXAMPLE,
      limit: EVENTS_BODY_LIMIT_BYTES,
    },
    answer: trackServerEvents,
    operationId: 'trackEvents',
    tag: 'Events',
    summary: `Send up to ${MAX_BATCH_EVENTS} page views and named events from your server`,
    description: `Page views and named events (with properties and revenue) of one website, sent from a backend: a signup, a purchase, a conversion. Each event carries the end user's IP address and user agent as your server saw them; they give the visitor id and the country exactly as for the tracking script and are never stored. Needs an API key with the track events permission and access to the website. Each event is answered on its own, in order: accepted, duplicate (its idempotency_key was seen for this website within ${HOURS} hours; counted once), ignored (a bot's or no user agent, as the tracking script's events) or invalid (with the problem). A batch whose answer was lost (a timeout, a 5xx, a 429) can be sent again as it was: events with an idempotency_key count once. The request is one call, whatever its number of events: ${COUNTED_CALL} The body is JSON, sent as application/json, at most 1 MiB; it is read after the key and the limits.`,
    response: {
      status: 202,
      description:
        'The batch was read; every event is answered in events, in the order sent. Accepted and duplicate events are in the analytics pipeline and show in the analytics within seconds.',
      schema: ServerEventsAnswerSchema,
      example: SERVER_EVENTS_ANSWER_EXAMPLE,
      headers: USAGE_HEADERS,
    },
    errors: {
      ...API_KEY_ERRORS,
      ...API_KEY_BODY_ERRORS,
      404: errorResponse(
        'not_found: no website has this website_id, or the path is unknown.',
        ['not_found'],
        USAGE_HEADERS,
      ),
      413: errorResponse(
        'payload_too_large: the body exceeds 1 MiB.',
        ['payload_too_large'],
        USAGE_HEADERS,
      ),
      503: errorResponse(
        `service_unavailable: the events could not be taken now (nothing that was keyed is counted twice when the batch is sent again); retry after Retry-After seconds (${COLLECT_RETRY_AFTER_SECONDS}) or, without it, shortly.`,
        ['service_unavailable'],
        { ...USAGE_HEADERS, ...RETRY_AFTER },
      ),
    },
  },
];
