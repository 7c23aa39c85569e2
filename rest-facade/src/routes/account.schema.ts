/** Response bodies of the account routes (/websites, /usage). */
import { z } from 'zod';

export const WebsiteSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    tracking_code: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Website' });

export const WebsiteListSchema = z.strictObject({ websites: z.array(WebsiteSchema) });

export const UsageSchema = z
  .strictObject({
    tier: z.enum(['pro', 'scale', 'enterprise']),
    monthly_requests: z.number().int().nullable().meta({
      description:
        'Requests counted this month, this one included; null while the counter store is unavailable.',
    }),
    monthly_limit: z.number().int(),
    remaining_requests: z.number().int().nullable(),
    requests_per_minute: z.number().int(),
    reset_at: z.iso.datetime().meta({ description: '00:00 UTC on the first day of next month.' }),
    total_requests: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'All requests ever made with this key.' }),
  })
  .meta({ id: 'Usage' });
