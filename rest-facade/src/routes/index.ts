/**
 * Every REST route of the facade, one declaration each: where to start reading any REST
 * behaviour. A declaration says what a route takes (method, path, auth mode, permission,
 * parameters, body), what it runs (persisted operation, variables builder, presenter, or the
 * public answer) and what it answers (success schema and example, error responses). From this
 * list come the Express wiring with its 405s (pipeline/route-wiring.ts), the steps of each auth
 * mode (pipeline/*.pipeline.ts) and the OpenAPI document (openapi/document.ts).
 */
import { ACCOUNT_ROUTES } from './account.routes';
import { ANALYTICS_ROUTES } from './analytics.routes';
import { EVENTS_ROUTES } from './events.routes';
import { PUBLIC_ROUTES } from './public.routes';
import type { RouteDeclaration, Tag } from './route';
import { WEBHOOK_ROUTES } from './webhooks.routes';

export type { RouteDeclaration };
export { API_BASE, EVENTS_BASE, WEBHOOKS_BASE } from './common';

/** External API (API key), server-side events, webhook management (access token), public routes; in document order. */
export const ROUTES: readonly RouteDeclaration[] = [
  ...ACCOUNT_ROUTES,
  ...ANALYTICS_ROUTES,
  ...EVENTS_ROUTES,
  ...WEBHOOK_ROUTES,
  ...PUBLIC_ROUTES,
];

/** Every route names one of these, in the order a reader meets them. */
export const TAGS: ReadonlyArray<{ name: Tag; description: string }> = [
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
    name: 'Events',
    description:
      'The server-side Events API: page views and named events sent from a backend with an API key that has the track events permission. Outside the read-only External API; each request counts against the quota as one call.',
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
