/**
 * The steps of an External API call (API key), in the order of docs/api.md "Order of answers":
 * authenticate the key and decide its limits (per-minute point, monthly count and key counts, in
 * one Redis round trip), start the operation (or use the one started early), apply the limits
 * (headers, usage events, 429s), check the permission, await the result (a failure of ours gives
 * the monthly count back), present it. A route whose answers may be cached looks its answer up in
 * the read cache before starting the operation (cached-read.ts). The call log records the call
 * when its response is done (call-logger.ts).
 */
import type { Request, Response } from 'express';
import type { CallUsage } from '../../../common/contracts/call-log';
import { forbidden } from '../errors';
import { refusedKeyId, type KeyContext, type PresentedKey } from '../auth/api-key-auth';
import type { ExternalApiDeps } from '../deps';
import { sendSuccess } from '../envelope';
import { fromGraphQLErrors, toApiError } from '../error-mapper';
import type { GatewayResult } from '../gateway-client';
import { jsonBodyReader } from '../json-body';
import { answerLimits, limitSubject, usageOf } from '../limits/limit-answers';
import type { LimitDecision } from '../limits/usage-limiter';
import { refuseImpossibleId } from '../routes/path-ids';
import { acceptedNames, rejectUnknownQueryParameters } from '../routes/query-parameters';
import type { ApiKeyRoute } from '../routes/route';
import type { ReadCache } from '../cache/read-cache';
import { requestKey, sendThroughCache, startCachedRead, type CachedRead } from './cached-read';
import { loggedWhenAnswered } from './call-logger';
import { pipeline, started, type Step } from './steps';

type Data = Record<string, unknown>;

/** An operation started for a cached key before its key and limits were confirmed. */
interface EarlyStart {
  resultFor(confirmed: KeyContext): Promise<GatewayResult<Data>> | null;
  release(): void;
}

/** One call's state, filled in by the steps in order. */
interface KeyCall {
  readonly req: Request;
  readonly res: Response;
  body: Promise<void> | null;
  presented?: PresentedKey;
  cached: KeyContext | null;
  early: EarlyStart | null;
  context?: KeyContext;
  /** The limits' decision for the call (past applyLimits, an admitted call's). */
  decision?: LimitDecision;
  executing: Promise<GatewayResult<Data>> | null;
  data?: Data;
  /** The read cache's part, on a route whose answers may be cached while the cache is on. */
  cache: CachedRead | null;
  /** The operation's variables, once built (they are built once, for the cache and the run). */
  variables?: Record<string, unknown>;
  /** The answer found in the read cache, already serialized. */
  cachedBody?: string;
  /** The request's name in the read cache, for the key context it was made for. */
  requestKey?: { for: KeyContext; key: string };
}

const mayRun = (route: ApiKeyRoute, context: KeyContext) =>
  !route.permission || context.permissions.includes(route.permission);

/**
 * The route's persisted operation. The key was checked (and against revocations on every call),
 * so the operation runs with the key's identity and the key is not looked up again. Async, so
 * bad parameters (a 400 thrown while building the variables) come out after the limits were
 * decided and their headers set, like every other answer of the operation.
 */
function operationRunner(route: ApiKeyRoute, deps: ExternalApiDeps) {
  const variablesOf = variablesBuilder(route);
  return async (call: KeyCall, context: KeyContext) => {
    return deps.gateway.execute<Data>(route.operation, await variablesOf(call), {
      identity: {
        kind: 'apiKey',
        keyId: context.keyId,
        userId: context.userId,
        organizationId: context.organizationId,
        permissions: context.permissions,
        websiteIds: context.websiteIds,
      },
    });
  };
}
type Execute = ReturnType<typeof operationRunner>;

/**
 * The operation's variables from the request, built once per call: refuses unknown query
 * parameters, waits for the body, runs the route's builder (which throws a 400 on bad input), then
 * refuses a path id that cannot be one (404, as an unknown id comes after bad input).
 */
function variablesBuilder(route: ApiKeyRoute) {
  const accepted = acceptedNames(route.query);
  return async (call: KeyCall): Promise<Record<string, unknown>> => {
    if (call.variables) return call.variables;
    rejectUnknownQueryParameters(call.req, accepted);
    await call.body;
    const variables = route.variables(call.req);
    refuseImpossibleId(route.idParam, call.req);
    call.variables = variables;
    return variables;
  };
}

/** Starts reading the generation the answer depends on, in the same tick as the key check. */
function startReadingGeneration(route: ApiKeyRoute, cache: ReadCache): Step<KeyCall> {
  return (call) => {
    call.cache = startCachedRead(route, cache, call.req);
  };
}

/**
 * The answer from the read cache, or the operation's result (the one started early, if any).
 * Bad parameters are not looked up: the operation's run refuses them, after the limits.
 */
function cachedOrRun(route: ApiKeyRoute, cache: ReadCache, execute: Execute) {
  const variablesOf = variablesBuilder(route);
  return async (
    call: KeyCall,
    context: KeyContext,
    early: Promise<GatewayResult<Data>> | null,
  ): Promise<GatewayResult<Data>> => {
    const read = call.cache!;
    let key: string;
    try {
      key =
        call.requestKey?.for === context
          ? call.requestKey.key
          : requestKey(route, await variablesOf(call), context);
    } catch {
      return early ?? execute(call, context);
    }
    read.lookup = await cache.lookup(read.tag, await read.generation, key);
    if (read.lookup.result === 'hit-local' || read.lookup.result === 'hit-shared') {
      call.cachedBody = read.lookup.body;
      return { data: {}, errors: [] };
    }
    return early ?? execute(call, context);
  };
}

/**
 * Reads a JSON body. Started with the call and awaited only by the operation, so a body that is
 * not JSON or too large (400, 413) is answered after the key and the limits, like every other
 * problem with the request's content (docs/api.md, "Order of answers").
 */
function startReadingBody(limit: number | string): Step<KeyCall> {
  const read = jsonBodyReader(limit);
  return (call) => {
    call.body = started(read(call.req, call.res));
  };
}

function identifyKey(deps: ExternalApiDeps): Step<KeyCall> {
  return (call) => {
    call.presented = deps.auth.presented(call.req);
    call.cached = deps.auth.cached(call.presented);
  };
}

/**
 * The optional step that makes a cached key's call answer sooner: a key cached here whose
 * organization had room at its last decision starts its (read-only) operation at once, beside the
 * revocation check and the limits; the result is used only if both confirm the call for that same
 * key (docs/api.md, "Work that runs beside the limits").
 */
function startEarly(route: ApiKeyRoute, deps: ExternalApiDeps, execute: Execute): Step<KeyCall> {
  const accepted = acceptedNames(route.query);
  return (call) => {
    const { cached } = call;
    if (!cached || !mayRun(route, cached)) return;
    if (answeredFromCache(route, accepted, deps, call, cached)) return;
    if (!deps.headroom.claim(cached.billingOrganizationId)) return;
    const operation = started(execute(call, cached));
    call.early = {
      resultFor: (confirmed) => (confirmed === cached ? operation : null),
      release: () => deps.headroom.release(cached.billingOrganizationId),
    };
  };
}

/**
 * Whether this process holds an answer for the call (current or not: the generation is not read
 * yet), in which case starting the operation early would most likely be work thrown away.
 */
function answeredFromCache(
  route: ApiKeyRoute,
  accepted: readonly string[],
  deps: ExternalApiDeps,
  call: KeyCall,
  cached: KeyContext,
): boolean {
  if (!call.cache || !deps.readCache || route.body) return false;
  try {
    rejectUnknownQueryParameters(call.req, accepted);
    call.variables = route.variables(call.req);
  } catch {
    // Refused after the limits, by the operation's run (variablesBuilder).
    return false;
  }
  // Kept for the lookup, which uses it when the key is confirmed as this same context.
  call.requestKey = { for: cached, key: requestKey(route, call.variables, cached) };
  return deps.readCache.holds(call.requestKey.key);
}

/**
 * The key's context and its limits' decision. A key cached in this process is admitted in the same
 * Redis round trip that checks for revocations; if one happened, what the call took goes back and
 * the key is authenticated afresh (so a refused key never counts).
 */
function authenticateAndAdmit(deps: ExternalApiDeps): Step<KeyCall> {
  return async (call) => {
    const { cached, res } = call;
    if (cached) {
      const decision = await deps.limiter.admitIf(limitSubject(cached), deps.auth.stillCurrent());
      if (decision) {
        call.context = cached;
        call.decision = decision;
        res.locals.keyId = cached.keyId;
        res.locals.usage = usageOf(cached, decision);
        res.locals.recorded = deps.callLog.admitted();
        return;
      }
    }
    let context: KeyContext;
    try {
      context = await deps.auth.authenticate(call.presented!);
    } catch (error) {
      // Refused though identified (expired, Free plan): the call is logged under the key.
      res.locals.keyId = refusedKeyId(error) ?? undefined;
      throw error;
    }
    res.locals.keyId = context.keyId;
    call.decision = await deps.limiter.admit(limitSubject(context));
    call.context = context;
    res.locals.usage = usageOf(context, call.decision);
    res.locals.recorded = deps.callLog.admitted();
  };
}

/**
 * Starts the operation now unless it started early. Not started when the limits refused the call
 * or the key lacks the route's permission.
 */
function startOperation(
  route: ApiKeyRoute,
  execute: Execute,
  cachedOrRunning: ReturnType<typeof cachedOrRun> | null,
): Step<KeyCall> {
  return (call) => {
    const context = call.context!;
    if (call.decision!.outcome !== 'admitted' || !mayRun(route, context)) {
      call.executing = null;
      return;
    }
    const early = call.early?.resultFor(context) ?? null;
    call.executing =
      call.cache && cachedOrRunning
        ? started(cachedOrRunning(call, context, early))
        : (early ?? started(execute(call, context)));
  };
}

/** The operation was not started only when the key lacks the permission (a refused call threw). */
/** Records the decision, sets the usage headers, announces a crossed threshold; throws a 429. */
function applyLimits(deps: ExternalApiDeps): Step<KeyCall> {
  return (call) => answerLimits(deps, call.res, call.context!, call.decision!);
}

function requirePermission(route: ApiKeyRoute): Step<KeyCall> {
  return (call) => {
    if (!call.executing) throw forbidden(`This API key lacks the ${route.permission} permission`);
  };
}

/**
 * The operation's data, or its failure as an error. Failed on our side (5xx): the call gives its
 * monthly count back, so an outage of ours costs no quota. The per-minute point stays, so retries
 * are still paced.
 */
function resultOrRefund(deps: ExternalApiDeps): Step<KeyCall> {
  return async (call) => {
    const usage = call.decision!;
    try {
      const result = await call.executing!;
      if (call.cachedBody !== undefined) return;
      if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
      call.data = result.data;
    } catch (error) {
      if (toApiError(error).status >= 500 && usage.monthlyUsed !== null) {
        await deps.limiter.refundMonthly(limitSubject(call.context!), usage.resetAt);
        call.res.setHeader('X-Usage-Monthly', String(usage.monthlyUsed - 1));
        call.res.locals.usage = { ...(call.res.locals.usage as CallUsage), quota: null };
      }
      throw error;
    }
  };
}

function present(route: ApiKeyRoute): Step<KeyCall> {
  return (call) => {
    if (!call.cache) {
      sendSuccess(
        call.res,
        route.present(call.data!, { key: call.context!, usage: call.decision! }),
      );
      return;
    }
    sendThroughCache(
      call.res,
      call.cache,
      call.cachedBody !== undefined
        ? { body: call.cachedBody }
        : { presented: route.present(call.data!, { key: call.context!, usage: call.decision! }) },
    );
  };
}

/** The handler of an API-key route: its steps, composed once. */
export function apiKeyHandler(route: ApiKeyRoute, deps: ExternalApiDeps) {
  const execute = operationRunner(route, deps);
  const cache = route.cache ? deps.readCache : null;
  const answer = pipeline<KeyCall>([
    ...(route.body ? [startReadingBody(route.body.limit)] : []),
    identifyKey(deps),
    ...(cache ? [startReadingGeneration(route, cache)] : []),
    startEarly(route, deps, execute),
    authenticateAndAdmit(deps),
    startOperation(route, execute, cache ? cachedOrRun(route, cache, execute) : null),
    applyLimits(deps),
    requirePermission(route),
    resultOrRefund(deps),
    present(route),
  ]);
  return loggedWhenAnswered(async (req, res) => {
    const call: KeyCall = {
      req,
      res,
      body: null,
      cached: null,
      early: null,
      executing: null,
      cache: null,
    };
    try {
      await answer(call);
    } finally {
      call.early?.release();
    }
  });
}
