import type { Request } from 'express';
import { ANALYTICS_ROUTES, snakeKeys } from './analytics.routes';
import type { RouteDefinition } from './route-definition';

export type { RouteDefinition };

const param = (req: Request, name: string) => String(req.params[name]);

const ACCOUNT_ROUTES: RouteDefinition[] = [
  {
    method: 'get',
    path: '/websites',
    operation: 'ListWebsites',
    query: [],
    permission: 'read_analytics',
    variables: () => ({}),
    present: (data) => ({ websites: snakeKeys(data.websites) }),
  },
  {
    method: 'get',
    path: '/websites/:websiteId',
    operation: 'GetWebsite',
    query: [],
    permission: 'read_analytics',
    variables: (req) => ({ id: param(req, 'websiteId') }),
    present: (data) => snakeKeys(data.website),
  },
  {
    method: 'get',
    path: '/usage',
    operation: 'Usage',
    query: [],
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
  },
];

/** Every External API route and the persisted operation it runs. */
export const ROUTES: RouteDefinition[] = [...ACCOUNT_ROUTES, ...ANALYTICS_ROUTES];
