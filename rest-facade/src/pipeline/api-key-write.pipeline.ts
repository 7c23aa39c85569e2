/**
 * The stages of a call to a route that writes with an API key (the server-side Events API): the
 * key and its limits exactly as an External API call (api-key.pipeline.ts, docs/api.md "Order of
 * answers": 401, 403 plan, 429, 403 permission, then 400 and 413 for the request), then the
 * route's own answer. A failure of ours (5xx) gives the call's monthly count back. Logged in the
 * call log like every call made with a key.
 */
import type { ApiKeyWriteRoute, KeyedServices } from '../routes/route';
import { sendSuccess } from '../envelope';
import { toApiError } from '../error-mapper';
import { forbidden } from '../errors';
import { jsonBodyReader } from '../json-body';
import { answerLimits, refundFailedCall } from '../limits/limit-answers';
import { acceptedNames, rejectUnknownQueryParameters } from '../routes/query-parameters';
import { admit } from './api-key.pipeline';
import { loggedWhenAnswered } from './call-logger';
import { started } from './steps';

export function apiKeyWriteHandler(route: ApiKeyWriteRoute, services: KeyedServices) {
  const { deps } = services;
  const readBody = jsonBodyReader(route.body.limit);
  const accepted = acceptedNames(route.query);
  const answer = route.answer(services);
  return loggedWhenAnswered(async (req, res, entry) => {
    // Read beside the key check and awaited after it, as the External API does.
    const body = started(readBody(req, res));
    const presented = deps.auth.presented(req);
    const { context, decision } = await admit(deps, entry, presented, deps.auth.cached(presented));
    answerLimits(deps, res, context, decision);
    if (!context.permissions.includes(route.permission))
      throw forbidden(`This API key lacks the ${route.permission} permission`);
    rejectUnknownQueryParameters(req, accepted);
    await body;
    let data: unknown;
    try {
      data = await answer(req, { key: context, usage: decision });
    } catch (error) {
      const refunded =
        toApiError(error).status >= 500 && (await refundFailedCall(deps, res, context, decision));
      if (refunded && entry.usage) entry.usage = { ...entry.usage, quota: null };
      throw error;
    }
    sendSuccess(res, data, route.response.status);
  });
}
