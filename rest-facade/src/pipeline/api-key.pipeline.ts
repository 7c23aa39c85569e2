/**
 * The stages of an External API call (API key), in the order of docs/api.md "Order of answers",
 * each taking what it needs and returning what the next one needs:
 *
 *   identify  → Identified  the key presented (401 when there is none), the body being read, the
 *                           read cache's generation being read, an early start for a cached key;
 *   admit     → Admitted    the key confirmed (401, 403 plan) and its limits decided: per-minute
 *                           point, monthly count and key counts in one Redis round trip;
 *   start     → Started     the operation started, unless the limits refused the call or the key
 *                           lacks the permission; the limits answered (headers, usage events,
 *                           429), then the permission (403);
 *   await     → Answer      the operation's data or cached answer (a failure of ours gives the
 *                           monthly count back);
 *   present                 the envelope, through the read cache when the route has one.
 *
 * The call log records the call when its response is done (call-logger.ts), with what the stages
 * put in its entry (call-entry.ts).
 */
import type { Request, Response } from 'express';
import type { PresentedKey, KeyContext } from '../auth/api-key-auth';
import { refusedKeyId } from '../auth/api-key-auth';
import type { ExternalApiDeps } from '../deps';
import { sendSuccess } from '../envelope';
import { fromGraphQLErrors, toApiError } from '../error-mapper';
import { forbidden } from '../errors';
import { jsonBodyReader } from '../json-body';
import { answerLimits, limitSubject, refundFailedCall, usageOf } from '../limits/limit-answers';
import type { LimitDecision } from '../limits/usage-limiter';
import type { ApiKeyRoute } from '../routes/route';
import { sendThroughCache, type CachedRead } from './cached-read';
import type { CallEntry } from './call-entry';
import { loggedWhenAnswered } from './call-logger';
import {
  CallOperation,
  mayRun,
  routeOperation,
  type Data,
  type Ran,
  type RouteOperation,
} from './call-operation';
import { started } from './steps';

/** The key presented, and the work started before anything is awaited. */
interface Identified {
  presented: PresentedKey;
  /** The key's context, when this process has it cached. */
  cached: KeyContext | null;
  operation: CallOperation;
}

/** The key confirmed and its limits decided. */
export interface Admitted {
  context: KeyContext;
  decision: LimitDecision;
}

/** What the call sends: an answer from the read cache, or the operation's data. */
type Answer = { cachedBody: string; read: CachedRead } | { data: Data };

/** The handler of an API-key route. */
export function apiKeyHandler(route: ApiKeyRoute, deps: ExternalApiDeps) {
  const readBody = route.body ? jsonBodyReader(route.body.limit) : null;
  const shared = routeOperation(route, deps);
  return loggedWhenAnswered(async (req, res, entry) => {
    // Read with the call and awaited only by the operation, so a body that is not JSON or too
    // large (400, 413) is answered after the key and the limits (docs/api.md, "Order of answers").
    const body = readBody ? started(readBody(req, res)) : null;
    const { presented, cached, operation } = identify(shared, req, body);
    try {
      const admitted = await admit(deps, entry, presented, cached);
      const running =
        admitted.decision.outcome === 'admitted' && mayRun(route, admitted.context)
          ? operation.start(admitted.context)
          : null;
      answerLimits(deps, res, admitted.context, admitted.decision);
      // Not started, past the limits: only when the key lacks the permission.
      if (!running) throw forbidden(`This API key lacks the ${route.permission} permission`);
      const answer = await resultOrRefund(deps, res, entry, admitted, running);
      present(route, res, operation, admitted, answer);
    } finally {
      operation.release();
    }
  });
}

/** The key presented (401 when none or malformed), and the work that starts with it. */
function identify(shared: RouteOperation, req: Request, body: Promise<void> | null): Identified {
  const presented = shared.deps.auth.presented(req);
  const cached = shared.deps.auth.cached(presented);
  const operation = new CallOperation(shared, req, body);
  if (cached) operation.startEarly(cached);
  return { presented, cached, operation };
}

/**
 * The key's context and its limits' decision. A key cached in this process is admitted in the same
 * Redis round trip that checks for revocations; if one happened, what the call took goes back and
 * the key is authenticated afresh (so a refused key never counts).
 */
export async function admit(
  deps: ExternalApiDeps,
  entry: CallEntry,
  presented: PresentedKey,
  cached: KeyContext | null,
): Promise<Admitted> {
  const admitted = (context: KeyContext, decision: LimitDecision): Admitted => {
    entry.keyId = context.keyId;
    entry.usage = usageOf(context, decision);
    entry.onRecorded = deps.callLog.admitted();
    return { context, decision };
  };
  if (cached) {
    const decision = await deps.limiter.admitIf(limitSubject(cached), deps.auth.stillCurrent());
    if (decision) return admitted(cached, decision);
  }
  let context: KeyContext;
  try {
    context = await deps.auth.authenticate(presented);
  } catch (error) {
    // Refused though identified (expired, Free plan): the call is logged under the key.
    entry.keyId = refusedKeyId(error);
    throw error;
  }
  entry.keyId = context.keyId;
  return admitted(context, await deps.limiter.admit(limitSubject(context)));
}

/**
 * The operation's data or cached answer, or its failure as an error. Failed on our side (5xx): the
 * call gives its monthly count back (refundFailedCall), and its log entry counts no request of the
 * month.
 */
async function resultOrRefund(
  deps: ExternalApiDeps,
  res: Response,
  entry: CallEntry,
  { context, decision }: Admitted,
  running: Promise<Ran>,
): Promise<Answer> {
  try {
    const ran = await running;
    if ('cachedBody' in ran) return ran;
    const { result } = ran;
    if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
    return { data: result.data };
  } catch (error) {
    const refunded =
      toApiError(error).status >= 500 && (await refundFailedCall(deps, res, context, decision));
    if (refunded && entry.usage) entry.usage = { ...entry.usage, quota: null };
    throw error;
  }
}

function present(
  route: ApiKeyRoute,
  res: Response,
  operation: CallOperation,
  { context, decision }: Admitted,
  answer: Answer,
): void {
  if ('cachedBody' in answer) {
    sendThroughCache(res, answer.read, { body: answer.cachedBody });
    return;
  }
  const data = route.present(answer.data, { key: context, usage: decision });
  if (operation.cached) sendThroughCache(res, operation.cached, { presented: data });
  else sendSuccess(res, data);
}
