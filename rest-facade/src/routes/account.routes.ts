import { GetWebsiteDocument, ListWebsitesDocument, UsageDocument } from '../generated/operations';
import { USAGE_EXAMPLE, WEBSITE_EXAMPLE } from '../openapi/examples';
import { UsageSchema, WebsiteListSchema, WebsiteSchema } from './account.schema';
import { snakeKeys } from './snake-keys';
import { API_BASE, COUNTED_CALL, param, WEBSITE_PARAMS } from './common';
import { WEBSITE_ID } from './path-ids';
import { NO_QUERY } from './query-parameters';
import { API_KEY_ERRORS, USAGE_HEADERS } from './responses';
import { apiKeyRoute, type ApiKeyRoute } from './route';

/** The websites a key may read, and the usage and limits of its organization. */
export const ACCOUNT_ROUTES: ApiKeyRoute[] = [
  apiKeyRoute({
    method: 'get',
    path: `${API_BASE}/websites`,
    auth: 'apiKey',
    counted: true,
    permission: 'read_analytics',
    operation: ListWebsitesDocument,
    cache: 'accounts',
    query: NO_QUERY,
    variables: () => ({}),
    present: (data) => ({ websites: snakeKeys(data.websites) }),
    operationId: 'listWebsites',
    tag: 'Account',
    summary: 'Websites the key may access',
    description: `The websites of the key's organization that the key may read: all of them, or the ones it was limited to at creation. ${COUNTED_CALL}`,
    response: {
      status: 200,
      description: 'The websites',
      schema: WebsiteListSchema,
      example: { websites: [WEBSITE_EXAMPLE] },
      headers: USAGE_HEADERS,
    },
    errors: API_KEY_ERRORS,
  }),
  apiKeyRoute({
    method: 'get',
    path: `${API_BASE}/websites/:websiteId`,
    auth: 'apiKey',
    counted: true,
    permission: 'read_analytics',
    operation: GetWebsiteDocument,
    cache: 'accounts',
    params: WEBSITE_PARAMS,
    idParam: WEBSITE_ID,
    query: NO_QUERY,
    variables: (req) => ({ id: param(req, 'websiteId') }),
    present: (data) => snakeKeys(data.website),
    operationId: 'getWebsite',
    tag: 'Account',
    summary: 'One website',
    description: `One website the key may read. A website outside the key's reach is 403 forbidden; an unknown id is 404. ${COUNTED_CALL}`,
    response: {
      status: 200,
      description: 'The website',
      schema: WebsiteSchema,
      example: WEBSITE_EXAMPLE,
      headers: USAGE_HEADERS,
    },
    errors: API_KEY_ERRORS,
  }),
  apiKeyRoute({
    method: 'get',
    path: `${API_BASE}/usage`,
    auth: 'apiKey',
    counted: true,
    // Any valid key may read its own usage.
    operation: UsageDocument,
    query: NO_QUERY,
    variables: () => ({}),
    present: (_data, { key, usage }) => ({
      tier: key.tier,
      monthly_requests: usage.monthlyUsed,
      monthly_limit: key.requestsPerMonth,
      remaining_requests:
        usage.monthlyUsed === null ? null : Math.max(0, key.requestsPerMonth - usage.monthlyUsed),
      requests_per_minute: key.requestsPerMinute,
      reset_at: usage.resetAt.toISOString(),
      total_requests: usage.keyTotal,
    }),
    operationId: 'getUsage',
    tag: 'Account',
    summary: 'Monthly request count, remaining quota, per-minute limit and tier',
    description: `Usage of the key's billing organization this month, this call included, and its plan's limits. The monthly quota resets at reset_at. ${COUNTED_CALL}`,
    response: {
      status: 200,
      description: 'Usage of the key’s billing organization',
      schema: UsageSchema,
      example: USAGE_EXAMPLE,
      headers: USAGE_HEADERS,
    },
    errors: API_KEY_ERRORS,
  }),
];
