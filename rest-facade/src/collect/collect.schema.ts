import { z } from 'zod';

/** Largest accepted collection request body; a replay chunk is the only kind that comes near it. */
export const COLLECT_BODY_LIMIT_BYTES = 64 * 1024;

const url = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const base = {
  trackingCode: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, 'letters, digits, _ and - only'),
  url,
  screen: z
    .object({
      width: z.number().int().min(1).max(20_000),
      height: z.number().int().min(1).max(20_000),
    })
    .strict()
    .optional(),
};

const propValue = z.union([z.string().max(500), z.number().finite(), z.boolean()]);
/**
 * Property names become field names of the stored raw event, and MongoDB (and FerretDB) refuse
 * names containing '.' or starting with '$'.
 */
const props = z
  .record(z.string().min(1).max(100), propValue)
  .refine((p) => Object.keys(p).length <= 30, 'at most 30 properties')
  .superRefine((p, ctx) => {
    for (const name of Object.keys(p))
      if (name.includes('.') || name.startsWith('$'))
        ctx.addIssue({
          code: 'custom',
          message: `property name ${JSON.stringify(name)} must not contain "." or start with "$"`,
        });
  });

/** One collected event, as the tracking script sends it. Unknown fields are refused. */
export const collectPayloadSchema = z.discriminatedUnion('type', [
  z
    .object({
      ...base,
      type: z.literal('pageview'),
      referrer: z.union([z.string().max(2048), z.null()]).optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('event'),
      name: z.string().min(1).max(100),
      props: props.optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('click'),
      x: z.number().finite().min(0).max(1_000_000),
      y: z.number().finite().min(0).max(1_000_000),
      viewport: z
        .object({
          width: z.number().int().min(1).max(20_000),
          height: z.number().int().min(1).max(20_000),
        })
        .strict(),
      selector: z.string().max(300).optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('error'),
      message: z.string().min(1).max(1000),
      stack: z.string().max(10_000).optional(),
    })
    .strict(),
  z
    .object({
      ...base,
      type: z.literal('replay'),
      sessionId: z.string().regex(/^[\w-]{8,64}$/, '8 to 64 letters, digits, _ or -'),
      sequence: z.number().int().min(0).max(1_000_000),
      events: z.array(z.unknown()).min(1).max(5_000),
    })
    .strict(),
]);

export type CollectPayload = z.infer<typeof collectPayloadSchema>;

/** "field: problem" for every issue, so a client sees exactly what to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
