/** Pieces the declarations of several route families share. */
import type { Request } from 'express';
import { z } from 'zod';

/** The External API's base path; `v1` is a path segment (docs/api.md, "Versioning"). */
export const API_BASE = '/api/external/v1';
/** The server-side Events API: outside the read-only External API's base (docs/api.md, "Server-side events"). */
export const EVENTS_BASE = '/api/events';
/** Webhook management's base path. */
export const WEBHOOKS_BASE = '/v1/cli/mutate/webhooks';

/** Said of every API-key route (the spec's Limits: each call counts). */
export const COUNTED_CALL =
  'Counts as one request against the monthly quota and the per-minute limit; the usage headers say where the key stands.';

export const param = (req: Request, name: string) => String(req.params[name]);

export const WEBSITE_PARAMS = z.object({
  websiteId: z.string().meta({ param: { description: 'Website id (from GET /websites)' } }),
});
