import { ANALYTICS_PATHS, ANALYTICS_SCHEMAS } from './analytics.openapi';
import { CORE_PATHS, CORE_SCHEMAS, CORE_COMPONENTS } from './core.openapi';
import { WEBHOOKS_PATHS, WEBHOOKS_SCHEMAS } from './webhooks.openapi';

type Responses = Record<string, Record<string, unknown>>;

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/** Every response of the facade carries X-Request-Id (docs/api.md, "Request ids"). */
function withRequestId(responses: Responses): Responses {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      '$ref' in response
        ? response
        : { ...response, headers: { ...REQUEST_ID, ...(response.headers as object | undefined) } },
    ]),
  );
}

function withRequestIdOnPaths<P extends object>(paths: P): P {
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations as Record<string, { responses: Responses }>).map(
          ([method, operation]) => [
            method,
            { ...operation, responses: withRequestId(operation.responses) },
          ],
        ),
      ),
    ]),
  ) as P;
}

/** Every operation names one of these, in the order a reader meets them. */
const TAGS = [
  {
    name: 'Account',
    description: 'The websites an API key may read, and the usage and limits of its organization.',
  },
  {
    name: 'Analytics',
    description:
      'Read-only analytics of one website: overview, visitors, breakdowns, heatmaps, session replays, error groups and custom queries. Each call needs an API key with the read analytics data permission and counts against the quota.',
  },
  {
    name: 'Webhooks',
    description:
      'Outbound webhooks: platform events pushed to a URL of yours, signed with HMAC-SHA256. Managed with a dashboard access token (Authorization: Bearer wat_…), never an API key.',
  },
  {
    name: 'Public',
    description:
      'Key-less routes for websites and their visitors: the tracking script, event collection and the live visitor count. Not counted against any quota.',
  },
  { name: 'OpenAPI', description: 'This document.' },
];

/** The OpenAPI 3.1 document of the whole REST surface, served at /api/external/v1/openapi.json. */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Web Analytics External API',
      version: '1.0.0',
      description:
        'Read-only REST API for analytics data (`/api/external/v1`), webhook management (`/v1/cli/mutate/webhooks`) and the public live-visitor count. See docs/api.md for the decisions behind every status code.\n\nPaths match exactly as written here (another case or a trailing slash is a 404). Every GET also answers HEAD: the same call, counted and logged, without the body. A 404 for an unknown path and a 405 come before the key is checked: they carry no usage headers and do not count.\n\nPolling: poll no more often than every 5 minutes; subscribe to webhooks for changes. On 429, wait `Retry-After` seconds, or back off exponentially (1–2, 2–4, 4–8, 8–16, 16–32 s).',
    },
    servers: [{ url: '/' }],
    tags: TAGS,
    security: [{ ApiKeyHeader: [] }, { BearerApiKey: [] }],
    paths: withRequestIdOnPaths({ ...CORE_PATHS, ...ANALYTICS_PATHS, ...WEBHOOKS_PATHS }),
    components: {
      ...CORE_COMPONENTS,
      responses: withRequestId(CORE_COMPONENTS.responses),
      schemas: { ...CORE_SCHEMAS, ...ANALYTICS_SCHEMAS, ...WEBHOOKS_SCHEMAS },
    },
  };
}
