import { Router, type NextFunction, type Request, type Response } from 'express';
import { requestIdOf } from '../../common/request-context';
import { buildEvent, publishPlatformEvent } from '../../common/platform-events';
import {
  monthlyLimitExceeded,
  notFound,
  rateLimited,
  rejectOtherMethods,
  type ApiError,
} from './api-error';
import {
  forbidden,
  refusedKeyId,
  type ApiKeyAuthenticator,
  type KeyContext,
  type PresentedKey,
} from './auth/api-key-auth';
import type { CallLogWriter } from './call-log/call-log.writer';
import type { FacadeDeps } from './deps';
import { sendSuccess } from './envelope';
import { jsonBodyReader } from './json-body';
import { fromGraphQLErrors, toApiError } from './error-mapper';
import type { Headroom } from './limits/headroom';
import type { LimitRefusals } from './limits/limit-refusals';
import type { LimitDecision, MinuteDecision, UsageLimiter } from './limits/usage-limiter';
import { ROUTES, type RouteDefinition } from './routes';
import { rejectUnknownQueryParameters } from './routes/query-parameters';
import { EXACT_PATHS } from './exact-paths';

export const API_BASE = '/api/external/v1';

export interface ExternalApiDeps extends FacadeDeps {
  auth: ApiKeyAuthenticator;
  limiter: UsageLimiter;
  headroom: Headroom;
  callLog: CallLogWriter;
  refusals: LimitRefusals;
}

/** The spec's header table, on every response to an identified key. */
function setUsageHeaders(res: Response, key: KeyContext, usage: LimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(key.requestsPerMinute));
  if (usage.minuteRemaining !== null)
    res.setHeader('X-RateLimit-Remaining', String(usage.minuteRemaining));
  if (usage.monthlyUsed !== null) res.setHeader('X-Usage-Monthly', String(usage.monthlyUsed));
  res.setHeader('X-Usage-Limit', String(key.requestsPerMonth));
  res.setHeader('X-Usage-Reset', usage.resetAt.toISOString());
  if (usage.keyTotal !== null) res.setHeader('X-Usage-Total', String(usage.keyTotal));
}

function limitError(key: KeyContext, usage: LimitDecision): ApiError | null {
  if (usage.outcome === 'rate_limited') {
    return rateLimited(
      `Rate limit of ${key.requestsPerMinute} requests per minute exceeded; retry in ${usage.retryAfterSeconds} seconds`,
      usage.retryAfterSeconds,
    );
  }
  if (usage.outcome === 'quota_exhausted') {
    return monthlyLimitExceeded(
      `Monthly quota of ${key.requestsPerMonth} requests used up; it resets at ${usage.resetAt.toISOString()}`,
    );
  }
  return null;
}

const limitSubject = (context: KeyContext) => ({
  keyId: context.keyId,
  billingOrganizationId: context.billingOrganizationId,
  requestsPerMinute: context.requestsPerMinute,
  requestsPerMonth: context.requestsPerMonth,
});

/**
 * The key's context and its per-minute point. A key cached in this process takes its point in
 * the same Redis round trip that checks for revocations; if one happened, the point goes back and
 * the key is authenticated afresh (so a refused key never counts).
 */
async function authenticateAndTakeMinute(
  presented: PresentedKey,
  cached: KeyContext | null,
  deps: ExternalApiDeps,
  res: Response,
): Promise<{ context: KeyContext; minute: MinuteDecision }> {
  if (cached) {
    const minute = await deps.limiter.takeMinuteIf(limitSubject(cached), deps.auth.stillCurrent());
    if (minute) return { context: cached, minute };
  }
  let context: KeyContext;
  try {
    context = await deps.auth.authenticate(presented);
  } catch (error) {
    // Refused though identified (expired, Free plan): the call is logged under the key.
    res.locals.keyId = refusedKeyId(error) ?? undefined;
    throw error;
  }
  return { context, minute: await deps.limiter.takeMinute(limitSubject(context)) };
}

const mayRun = (route: RouteDefinition, context: KeyContext) =>
  !route.permission || context.permissions.includes(route.permission);

/**
 * Reads a JSON body. Started with the call and awaited only by the operation, so a body that is
 * not JSON or too large (400, 413) is answered after the key and the limits, like every other
 * problem with the request's content (docs/api.md, "Order of answers").
 */
const readJsonBody = jsonBodyReader('64kb');

/** A started operation whose result may be dropped unread, without an unhandled rejection. */
function started<T>(operation: Promise<T>): Promise<T> {
  operation.catch(() => undefined);
  return operation;
}

function routeHandler(route: RouteDefinition, deps: ExternalApiDeps) {
  const answer = answerCall(route, deps);
  return async (req: Request, res: Response) => {
    // A client that leaves while the key is being checked still gets its call logged under the
    // key it was counted for: the call log waits for `answered` then (see callLogger).
    res.locals.answering = true;
    try {
      await answer(req, res);
    } finally {
      res.locals.answering = false;
      (res.locals.answered as (() => void) | undefined)?.();
    }
  };
}

/**
 * One External API call, in steps: authenticate the key and take its per-minute point, start the
 * operation (or use the one started early), apply the limits (headers, usage events, 429s),
 * check the permission, await the result (a failure of ours gives the monthly count back), and
 * present it. The call log records it when the response is done (callLogger).
 */
function answerCall(route: RouteDefinition, deps: ExternalApiDeps) {
  return async (req: Request, res: Response) => {
    const body = route.method === 'post' ? started(readJsonBody(req, res)) : null;
    const presented = deps.auth.presented(req);
    const cached = deps.auth.cached(presented);
    const early = startEarly(route, req, cached, deps, body);
    try {
      const { context, minute } = await authenticateAndTakeMinute(presented, cached, deps, res);
      res.locals.keyId = context.keyId;
      const deciding = deps.limiter.decide(limitSubject(context), minute);
      // Started now unless it started early, beside the monthly count: a call then refused for
      // the month has cost one operation for nothing, which the per-minute limit bounds.
      const executing =
        minute.admitted && mayRun(route, context)
          ? (early?.resultFor(context) ?? started(execute(route, req, context, deps, body)))
          : null;
      const usage = applyLimits(res, context, await deciding, deps);
      // Not started only when the key lacks the route's permission (a refused minute threw above).
      if (!executing) throw forbidden(`This API key lacks the ${route.permission} permission`);
      const data = await resultOrRefund(executing, res, context, usage, deps);
      sendSuccess(res, route.present(data, { key: context, usage }));
    } finally {
      early?.release();
    }
  };
}

/**
 * The optional step that makes a cached key's call answer sooner: a key cached here whose
 * organization had room at its last decision starts its (read-only) operation at once, beside the
 * revocation check and the limits; the result is used only if both confirm the call for that same
 * key (docs/api.md, "Work that runs beside the limits").
 */
function startEarly(
  route: RouteDefinition,
  req: Request,
  cached: KeyContext | null,
  deps: ExternalApiDeps,
  body: Promise<void> | null,
) {
  if (!cached || !mayRun(route, cached) || !deps.headroom.claim(cached.billingOrganizationId))
    return null;
  const operation = started(execute(route, req, cached, deps, body));
  return {
    resultFor: (confirmed: KeyContext) => (confirmed === cached ? operation : null),
    release: () => deps.headroom.release(cached.billingOrganizationId),
  };
}

/** Records the decision, sets the usage headers, announces a crossed threshold; throws a 429. */
function applyLimits(
  res: Response,
  context: KeyContext,
  usage: LimitDecision,
  deps: ExternalApiDeps,
): LimitDecision {
  deps.headroom.record(context.billingOrganizationId, usage, context.requestsPerMonth);
  setUsageHeaders(res, context, usage);
  if (usage.crossedThreshold) publishUsageThreshold(deps, context, usage);
  const refusal = limitError(context, usage);
  if (refusal) {
    deps.refusals.count(context.tier, usage);
    throw refusal;
  }
  return usage;
}

/**
 * The operation's data, or its failure as an error. Failed on our side (5xx): the call gives its
 * monthly count back, so an outage of ours costs no quota. The per-minute point stays, so retries
 * are still paced.
 */
async function resultOrRefund(
  executing: ReturnType<typeof execute>,
  res: Response,
  context: KeyContext,
  usage: LimitDecision,
  deps: ExternalApiDeps,
): Promise<Record<string, unknown>> {
  try {
    const result = await executing;
    if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
    return result.data;
  } catch (error) {
    if (toApiError(error).status >= 500 && usage.monthlyUsed !== null) {
      await deps.limiter.refundMonthly(limitSubject(context), usage.resetAt);
      res.setHeader('X-Usage-Monthly', String(usage.monthlyUsed - 1));
    }
    throw error;
  }
}

/**
 * The route's persisted operation. The key was checked above (and against revocations on every
 * call), so the operation runs with the key's identity and the key is not looked up again.
 */
async function execute(
  route: RouteDefinition,
  req: Request,
  context: KeyContext,
  deps: ExternalApiDeps,
  body: Promise<void> | null,
) {
  // Async, so bad parameters (a 400 thrown while building the variables) come out after the
  // limits were decided and their headers set, like every other answer of the operation.
  rejectUnknownQueryParameters(req, route.query);
  await body;
  return deps.gateway.execute<Record<string, unknown>>(route.operation, route.variables(req), {
    identity: {
      kind: 'apiKey',
      keyId: context.keyId,
      userId: context.userId,
      organizationId: context.organizationId,
      permissions: context.permissions,
      websiteIds: context.websiteIds,
    },
  });
}

/**
 * One event per organization, month, quota and threshold: its id says which, and it is published
 * once, so a call that crossed the threshold and then gave its count back (a 5xx) does not make
 * the next call announce it again. A new quota (a plan change) has thresholds of its own.
 */
function publishUsageThreshold(deps: ExternalApiDeps, key: KeyContext, usage: LimitDecision): void {
  const month = new Date(usage.resetAt.getTime() - 1).toISOString().slice(0, 7);
  const event = buildEvent(
    'usage.threshold_reached',
    key.userId,
    key.billingOrganizationId,
    {
      percent: usage.crossedThreshold,
      used: usage.monthlyUsed,
      limit: key.requestsPerMonth,
      resetsAt: usage.resetAt.toISOString(),
    },
    `evt_usage_threshold_reached_${key.billingOrganizationId}_${month}_${key.requestsPerMonth}_${usage.crossedThreshold}`,
  );
  publishPlatformEvent(deps.redis, deps.config.redisKeyPrefix, event, { once: true }).catch(
    (error: unknown) =>
      deps.logger.error(
        { err: (error as Error).message, eventId: event.id },
        'could not publish usage event',
      ),
  );
}

/**
 * Nginx's code for a request whose client went away before the answer: such a call may already
 * have counted toward the limits, so it is logged too.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Records every call (timestamp, endpoint, status, IP, key) once its response is done: sent, or
 * cut short because the client closed the connection ('close' fires in both cases, 'finish'
 * only in the first).
 */
function callLogger(callLog: CallLogWriter) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    // Read now: once the client has gone, the socket no longer knows its address.
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    res.on('close', () => {
      const at = new Date().toISOString();
      const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED_REQUEST;
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const path = req.originalUrl.split('?', 1)[0]!;
      const build = () => ({
        at,
        keyId: (res.locals.keyId as string | undefined) ?? null,
        method: req.method,
        endpoint: req.route ? `${API_BASE}${String(req.route.path)}` : path,
        path,
        status,
        ip,
        durationMs,
        requestId: requestIdOf(res),
      });
      // A route's handler may still be checking the key when the client leaves: the record waits
      // for it, so it carries the key the call was counted for.
      if (res.locals.answering)
        callLog.recordAfter(new Promise<void>((resolve) => (res.locals.answered = resolve)), build);
      else callLog.record(build());
    });
    next();
  };
}

export function createExternalApiRouter(deps: ExternalApiDeps): Router {
  const api = Router(EXACT_PATHS);
  api.use(callLogger(deps.callLog));
  const methodsByPath = new Map<string, string[]>();
  for (const route of ROUTES) {
    api[route.method](route.path, routeHandler(route, deps));
    methodsByPath.set(route.path, [
      ...(methodsByPath.get(route.path) ?? []),
      route.method.toUpperCase(),
    ]);
  }
  // The API is read-only: any other method on a known path is a 405 naming what is allowed.
  for (const [path, methods] of methodsByPath) {
    const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    api.all(path, rejectOtherMethods(allowed));
  }
  api.use((_req: Request, _res: Response, next: NextFunction) => next(notFound()));
  return api;
}
