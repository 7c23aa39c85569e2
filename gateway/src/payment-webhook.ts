import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Dispatcher } from 'undici';
import { postAsService } from '../../common/platform/graphql-post';
import { z } from 'zod';
import type { Logger } from '../../common/platform/logger';
import { PLANS, type PlanName } from '../../common/contracts/plans';

export const PAYMENT_SIGNATURE_HEADER = 'payment-signature';
/** Deliveries older (or newer) than this are refused as replays. */
const TOLERANCE_S = 300;

const paymentEvent = z.object({
  id: z.string().min(1).max(200),
  /** Unix seconds when the processor created the event; deliveries can arrive out of order. */
  created: z.number().int().positive(),
  type: z.enum([
    'checkout.completed',
    'subscription.created',
    'subscription.updated',
    'subscription.deleted',
  ]),
  data: z.object({
    organizationId: z.string().min(1),
    plan: z.enum(PLANS).optional(),
    requestsPerMinute: z.number().int().positive().optional(),
    requestsPerMonth: z.number().int().positive().optional(),
  }),
});
type PaymentEvent = z.infer<typeof paymentEvent>;

const APPLY = `mutation ApplyPaymentEvent($input: PaymentEventInput!) { applyPaymentEvent(input: $input) }`;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the common processor scheme. */
export function verifyPaymentSignature(
  secret: string,
  header: string | undefined,
  rawBody: Buffer,
  now = Date.now(),
): boolean {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]),
  );
  const timestamp = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > TOLERANCE_S)
    return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A refusal of the hook: its status and `{error:{code,message}}` body. */
class HookRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The verified body as an event this endpoint understands, and the plan it moves to. */
function readEvent(raw: Buffer): { event: PaymentEvent; plan: PlanName } {
  let event: PaymentEvent;
  try {
    event = paymentEvent.parse(JSON.parse(raw.toString('utf8')));
  } catch {
    throw new HookRefusal(400, 'invalid_event', 'Not a payment event this endpoint understands');
  }
  const plan = event.type === 'subscription.deleted' ? 'free' : event.data.plan;
  if (!plan) throw new HookRefusal(400, 'invalid_event', `${event.type} needs data.plan`);
  return { event, plan };
}

/** The keys subgraph's `applyPaymentEvent` input for the event. */
const applyInput = (event: PaymentEvent, plan: PlanName) => ({
  eventId: event.id,
  occurredAt: new Date(event.created * 1000).toISOString(),
  organizationId: event.data.organizationId,
  plan: plan.toUpperCase(),
  requestsPerMinute: event.data.requestsPerMinute ?? null,
  requestsPerMonth: event.data.requestsPerMonth ?? null,
});

interface PaymentHookOptions {
  secret: string | null;
  keysUrl: string;
  internalSecret: string;
  dispatcher: Dispatcher;
  logger: Logger;
}

/**
 * Applies the event through the keys subgraph (once per event id there); whether it changed the
 * plan. A refusal the processor should retry (409: another change of the plan held it; 5xx) is a
 * 503; one it should not (an organization we do not have) a 422.
 */
async function applyEvent(
  options: PaymentHookOptions,
  event: PaymentEvent,
  plan: PlanName,
): Promise<boolean> {
  const answer = await postAsService(
    options.keysUrl,
    options.dispatcher,
    { query: APPLY, variables: { input: applyInput(event, plan) } },
    { secret: options.internalSecret, service: 'payments', audience: 'keys' },
  );
  const body = JSON.parse(answer.text) as {
    data?: { applyPaymentEvent: boolean };
    errors?: Array<{ message: string; extensions?: { httpStatus?: number } }>;
  };
  const error = body.errors?.[0];
  if (!error) return body.data?.applyPaymentEvent ?? false;
  const status = error.extensions?.httpStatus ?? 500;
  const retryable = status >= 500 || status === 409;
  if (retryable)
    options.logger.error({ eventId: event.id, error: error.message }, 'payment event not applied');
  throw new HookRefusal(retryable ? 503 : 422, 'not_applied', error.message);
}

/**
 * Inbound webhooks from the payment processor (subscriptions and checkouts) at the gateway, the
 * platform's public edge for traffic that is not a customer's API call (docs/api.md, "Inbound
 * webhooks (internal)"). No customer configures or sees them. In steps: configured, signature,
 * event, applied by the keys subgraph (which owns plans), answered.
 */
export function paymentWebhookRouter(options: PaymentHookOptions): Router {
  const router = Router();
  router.post(
    '/hooks/payments',
    express.raw({ type: () => true, limit: '64kb' }),
    async (req: Request, res: Response) => {
      try {
        if (!options.secret)
          throw new HookRefusal(503, 'not_configured', 'PAYMENT_WEBHOOK_SECRET is not set');
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        if (!verifyPaymentSignature(options.secret, req.header(PAYMENT_SIGNATURE_HEADER), raw))
          throw new HookRefusal(401, 'invalid_signature', 'Signature missing, wrong or too old');
        const { event, plan } = readEvent(raw);
        const applied = await applyEvent(options, event, plan);
        options.logger.info(
          { eventId: event.id, type: event.type, organizationId: event.data.organizationId, plan },
          'payment event applied',
        );
        res.json({ received: true, applied });
      } catch (error) {
        if (!(error instanceof HookRefusal)) throw error;
        res.status(error.status).json({ error: { code: error.code, message: error.message } });
      }
    },
  );
  return router;
}
