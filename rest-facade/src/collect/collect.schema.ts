import { z } from 'zod';
import {
  AMOUNT_FORM,
  DECIMAL_AMOUNT,
  currencyCode,
  MAX_AMOUNT_FRACTION_DIGITS,
  readAmount,
} from './revenue';

/** Largest accepted collection request body; a replay chunk is the only kind that comes near it. */
export const COLLECT_BODY_LIMIT_BYTES = 64 * 1024;

/** A page's URL, as collected and as the server-side Events API takes it. */
export const pageUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .meta({
    description:
      'The page the event happened on. Its path, hostname and utm_source, utm_medium, utm_campaign, utm_content and utm_term are kept; the rest of the query string and the fragment are not.',
  });

const base = {
  trackingCode: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/, 'letters, digits, _ and - only'),
  url: pageUrl,
  screen: z
    .object({
      width: z.number().int().min(1).max(20_000),
      height: z.number().int().min(1).max(20_000),
    })
    .strict()
    .optional(),
};

const propValue = z.union([z.string().max(500), z.number().finite(), z.boolean()]);
/** A UTF-16 surrogate without its pair: not encodable as UTF-8, so stored as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Property names become field names of the stored raw event: MongoDB (and FerretDB) refuse names
 * containing '.' or NUL or starting with '$', and two names that differ only in lone surrogates
 * would become the same name. One such event would hold up its whole ingest batch.
 */
export const eventProps = z
  .record(z.string().min(1).max(100), propValue)
  .refine((p) => Object.keys(p).length <= 30, 'at most 30 properties')
  .superRefine((p, ctx) => {
    for (const name of Object.keys(p))
      if (
        name.includes('.') ||
        name.startsWith('$') ||
        name.includes('\u0000') ||
        LONE_SURROGATE.test(name)
      )
        ctx.addIssue({
          code: 'custom',
          message: `property name ${JSON.stringify(name)} must be valid text without NUL or ".", not starting with "$"`,
        });
  });

const CURRENCY_FORM = 'must be an ISO 4217 currency code such as "EUR"';

/**
 * Validated into its stored form: the amount a canonical decimal string, the currency upper case.
 */
export const eventRevenue = z
  .strictObject({
    amount: z
      .union([z.number(), z.string().max(100).regex(DECIMAL_AMOUNT, AMOUNT_FORM)], {
        error: AMOUNT_FORM,
      })
      .meta({
        description: `A number or a decimal string ("-12.50", no exponent); negative for a refund; at most 2^53 in magnitude and ${MAX_AMOUNT_FRACTION_DIGITS} digits after the point. Kept exactly, as a decimal string.`,
      })
      .transform((value, ctx) => {
        const read = readAmount(value);
        if ('amount' in read) return read.amount;
        ctx.addIssue({ code: 'custom', message: read.problem });
        return z.NEVER;
      }),
    currency: z
      .string({ error: CURRENCY_FORM })
      .regex(/^[A-Za-z]{3}$/, CURRENCY_FORM)
      .meta({ description: 'ISO 4217 code, in any case ("EUR", "eur"); kept upper case' })
      .transform((value, ctx) => {
        const code = currencyCode(value);
        if (code) return code;
        ctx.addIssue({ code: 'custom', message: CURRENCY_FORM });
        return z.NEVER;
      }),
  })
  .meta({ description: "The event's revenue, such as an order's total" });

/** Deep enough for any page's DOM snapshot; deeper nesting only exhausts the stack. */
export const MAX_REPLAY_NESTING = 200;

/** Nesting depth of a parsed JSON value, walked without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_REPLAY_NESTING) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** One collected event, as the tracking script sends it. Unknown fields are refused. */
export const collectPayloadSchema = z
  .discriminatedUnion('type', [
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
        props: eventProps.optional(),
        revenue: eventRevenue.optional(),
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
        events: z
          .array(z.unknown())
          .min(1)
          .max(5_000)
          .refine(
            (events) => nestingDepth(events) <= MAX_REPLAY_NESTING,
            `nested more than ${MAX_REPLAY_NESTING} levels deep`,
          ),
      })
      .strict(),
  ])
  .meta({
    description: `One event. Sent as text/plain (sendBeacon, no preflight) or application/json, at most ${COLLECT_BODY_LIMIT_BYTES} bytes. Unknown fields are refused.`,
  });

/** A collection request as sent. */
export type CollectRequest = z.input<typeof collectPayloadSchema>;
/** A collection request validated: what `enrich` takes. */
export type CollectPayload = z.infer<typeof collectPayloadSchema>;

/** "field: problem" for every issue, so a client sees exactly what to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
