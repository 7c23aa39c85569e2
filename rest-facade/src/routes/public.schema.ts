/** Response bodies of the public routes (collection, live visitors, this document). */
import { z } from 'zod';
import { NOT_COUNTED_REASONS } from '../collect/collector.service';
import { LIVE_WINDOW_MS } from '../collect/event-stream';

export const CollectAcceptedSchema = z
  .union([
    z.strictObject({ accepted: z.literal(true) }),
    z.strictObject({
      accepted: z.literal(false),
      reason: z.enum(NOT_COUNTED_REASONS).meta({
        description:
          'no_user_agent: the request has no User-Agent. bot: its User-Agent is a known bot, crawler or HTTP client (isbot: Googlebot, curl, python-requests…), not a browser.',
      }),
    }),
  ])
  .meta({
    id: 'CollectAccepted',
    description:
      'Whether the event is counted. When it is not, nothing is stored and `reason` says why.',
  });

export const LiveVisitorsSchema = z
  .strictObject({
    tracking_code: z.string(),
    visitors: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Distinct visitors with any event in the window' }),
    window_seconds: z.literal(LIVE_WINDOW_MS / 1000),
  })
  .meta({ id: 'LiveVisitors' });

export const TrackerScriptSchema = z.string();
export const OpenApiDocumentSchema = z.record(z.string(), z.unknown());
