import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Dispatcher } from 'undici';
import { postAsService } from '../../common/graphql-post';
import { z } from 'zod';
import type { Logger } from '../../common/logger';

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
    plan: z.enum(['free', 'pro', 'scale', 'enterprise']).optional(),
    requestsPerMinute: z.number().int().positive().optional(),
    requestsPerMonth: z.number().int().positive().optional(),
  }),
});

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

/**
 * Inbound webhooks from the payment processor (subscriptions and checkouts). Internal: no
 * customer configures or sees them. A verified event changes the organization's plan through the
 * keys subgraph, once per event id.
 */
export function paymentWebhookRouter(options: {
  secret: string | null;
  keysUrl: string;
  internalSecret: string;
  dispatcher: Dispatcher;
  logger: Logger;
}): Router {
  const router = Router();
  router.post(
    '/hooks/payments',
    express.raw({ type: () => true, limit: '64kb' }),
    async (req: Request, res: Response) => {
      if (!options.secret) {
        res.status(503).json({
          error: { code: 'not_configured', message: 'PAYMENT_WEBHOOK_SECRET is not set' },
        });
        return;
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!verifyPaymentSignature(options.secret, req.header(PAYMENT_SIGNATURE_HEADER), raw)) {
        res.status(401).json({
          error: { code: 'invalid_signature', message: 'Signature missing, wrong or too old' },
        });
        return;
      }
      let parsed: z.infer<typeof paymentEvent>;
      try {
        parsed = paymentEvent.parse(JSON.parse(raw.toString('utf8')));
      } catch {
        res.status(400).json({
          error: {
            code: 'invalid_event',
            message: 'Not a payment event this endpoint understands',
          },
        });
        return;
      }
      const plan = parsed.type === 'subscription.deleted' ? 'free' : parsed.data.plan;
      if (!plan) {
        res
          .status(400)
          .json({ error: { code: 'invalid_event', message: `${parsed.type} needs data.plan` } });
        return;
      }
      const apply = {
        query: APPLY,
        variables: {
          input: {
            eventId: parsed.id,
            occurredAt: new Date(parsed.created * 1000).toISOString(),
            organizationId: parsed.data.organizationId,
            plan: plan.toUpperCase(),
            requestsPerMinute: parsed.data.requestsPerMinute ?? null,
            requestsPerMonth: parsed.data.requestsPerMonth ?? null,
          },
        },
      };
      const answer = await postAsService(options.keysUrl, options.dispatcher, apply, {
        secret: options.internalSecret,
        service: 'payments',
        audience: 'keys',
      });
      const body = JSON.parse(answer.text) as {
        data?: { applyPaymentEvent: boolean };
        errors?: Array<{ message: string; extensions?: { httpStatus?: number } }>;
      };
      const error = body.errors?.[0];
      if (error) {
        const status = error.extensions?.httpStatus ?? 500;
        // 409: another change of the plan held it; nothing was applied and a retry will be.
        const retryable = status >= 500 || status === 409;
        if (retryable)
          options.logger.error(
            { eventId: parsed.id, error: error.message },
            'payment event not applied',
          );
        // Other 4xx: the event names an organization we do not have; a retry would not help.
        res
          .status(retryable ? 503 : 422)
          .json({ error: { code: 'not_applied', message: error.message } });
        return;
      }
      options.logger.info(
        { eventId: parsed.id, type: parsed.type, organizationId: parsed.data.organizationId, plan },
        'payment event applied',
      );
      res.json({ received: true, applied: body.data?.applyPaymentEvent ?? false });
    },
  );
  return router;
}
