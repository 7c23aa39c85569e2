import { Router, type Request } from 'express';
import { z } from 'zod';
import { API_KEY_PREFIX } from '../../../common/secrets';
import { ApiError, invalidParameters, notJsonBody, rejectOtherMethods } from '../api-error';
import type { FacadeDeps } from '../deps';
import { sendSuccess } from '../envelope';
import { jsonBodyReader } from '../json-body';
import { fromGraphQLErrors } from '../error-mapper';
import type { Caller } from '../gateway-client';
import {
  presentTestResult,
  presentWebhook,
  type TestResultFields,
  type WebhookFields,
} from './webhook.presenter';
import { EXACT_PATHS } from '../exact-paths';

export const createWebhookBody = z.strictObject({
  url: z.string().min(1).max(2048),
  description: z.string().max(500).nullable().optional(),
  /** Omitted or empty: every event type. */
  event_types: z.array(z.string().max(100)).max(50).optional(),
});

const accessTokenRequired = () =>
  new ApiError(
    401,
    'invalid_access_token',
    'Send an access token in the Authorization header: Bearer wat_…',
    'auth',
  );

const apiKeyNotAccepted = () =>
  new ApiError(
    401,
    'invalid_access_token',
    'Webhook management requires an access token (Authorization: Bearer wat_…), not an API key',
    'auth',
  );

/** Only the bearer token is taken: webhook management never accepts X-API-Key. */
function bearer(req: Request): Caller {
  const authorization = req.headers.authorization;
  const token =
    typeof authorization === 'string' ? /^Bearer\s+(\S+)/i.exec(authorization.trim()) : null;
  if (!token) throw accessTokenRequired();
  // An API key is not a management credential.
  if (token[1]!.startsWith(API_KEY_PREFIX)) throw apiKeyNotAccepted();
  return { credential: token[1]! };
}

const readJsonBody = jsonBodyReader('16kb');

/** `/v1/cli/mutate/webhooks`: webhook management with a bearer access token. */
export function createWebhooksRouter(deps: FacadeDeps): Router {
  const router = Router(EXACT_PATHS);

  async function run<T>(
    operation: string,
    variables: Record<string, unknown>,
    req: Request,
  ): Promise<T> {
    const result = await deps.gateway.execute<T>(operation, variables, bearer(req));
    if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
    return result.data;
  }

  router.post('/', async (req, res) => {
    bearer(req); // 401 before any complaint about the body
    await readJsonBody(req, res);
    if (!req.is('application/json')) throw notJsonBody();
    const parsed = createWebhookBody.safeParse(req.body);
    if (!parsed.success) {
      throw invalidParameters(
        'The body must be {"url": string, "description"?: string, "event_types"?: string[]}',
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const { url, description, event_types: eventTypes } = parsed.data;
    const data = await run<{ createWebhook: { secret: string; webhook: WebhookFields } }>(
      'CreateWebhook',
      { input: { url, description: description ?? null, eventTypes: eventTypes ?? [] } },
      req,
    );
    const { webhook, secret } = data.createWebhook;
    sendSuccess(res, { ...presentWebhook(webhook), secret }, 201);
  });

  router.get('/', async (req, res) => {
    const data = await run<{ myWebhooks: WebhookFields[] }>('ListWebhooks', {}, req);
    sendSuccess(res, { webhooks: data.myWebhooks.map(presentWebhook) });
  });

  router.post('/:id/test', async (req, res) => {
    const data = await run<{ testWebhook: TestResultFields }>(
      'TestWebhook',
      { id: String(req.params.id) },
      req,
    );
    sendSuccess(res, presentTestResult(data.testWebhook));
  });

  router.post('/:id/rotate', async (req, res) => {
    const data = await run<{ rotateWebhookSecret: { secret: string; webhook: WebhookFields } }>(
      'RotateWebhookSecret',
      { id: String(req.params.id) },
      req,
    );
    const { webhook, secret } = data.rotateWebhookSecret;
    sendSuccess(res, { id: webhook.id, secret, secret_rotated_at: webhook.secretRotatedAt });
  });

  router.delete('/:id', async (req, res) => {
    await run('DeleteWebhook', { id: String(req.params.id) }, req);
    res.status(204).end();
  });

  router.all('/', rejectOtherMethods(['GET', 'POST']));
  router.all('/:id', rejectOtherMethods(['DELETE']));
  router.all('/:id/test', rejectOtherMethods(['POST']));
  router.all('/:id/rotate', rejectOtherMethods(['POST']));
  return router;
}
