/**
 * One External API call's operation (api-key.pipeline.ts): its variables, built once; the read
 * cache's part (cached-read.ts); and the early start, which runs a cached key's operation beside
 * the revocation check and the limits (docs/api.md, "Work that runs beside the limits").
 */
import type { Request } from 'express';
import type { CallerIdentity } from '../../../common/contracts/identity';
import type { KeyContext } from '../auth/api-key-auth';
import type { ReadCache } from '../cache/read-cache';
import type { ExternalApiDeps } from '../deps';
import type { GatewayResult } from '../gateway-client';
import { refuseImpossibleId } from '../routes/path-ids';
import { acceptedNames, rejectUnknownQueryParameters } from '../routes/query-parameters';
import type { ApiKeyRoute } from '../routes/route';
import { requestKey, startCachedRead, type CachedRead } from './cached-read';
import { started } from './steps';

export type Data = Record<string, unknown>;

/** What an operation's run gave: an answer found in the read cache, or the gateway's result. */
export type Ran = { cachedBody: string; read: CachedRead } | { result: GatewayResult<Data> };

/** The identity an operation runs with for a confirmed key. */
export const keyIdentity = (context: KeyContext): CallerIdentity => ({
  kind: 'apiKey',
  keyId: context.keyId,
  userId: context.userId,
  organizationId: context.organizationId,
  permissions: context.permissions,
  websiteIds: context.websiteIds,
});

export const mayRun = (route: ApiKeyRoute, context: KeyContext) =>
  !route.permission || context.permissions.includes(route.permission);

/** What every call of a route shares, made once when the route is wired. */
export interface RouteOperation {
  route: ApiKeyRoute;
  deps: ExternalApiDeps;
  /** The query parameter names the route accepts. */
  accepted: readonly string[];
  /** The read cache, on a route whose answers may be cached while the cache is on. */
  cache: ReadCache | null;
}

export function routeOperation(route: ApiKeyRoute, deps: ExternalApiDeps): RouteOperation {
  return {
    route,
    deps,
    accepted: acceptedNames(route.query),
    cache: route.cache ? deps.readCache : null,
  };
}

export class CallOperation {
  /** The read cache's part, on a route whose answers may be cached while the cache is on. */
  readonly cached: CachedRead | null;
  private variables?: Record<string, unknown>;
  /** The request's name in the read cache, for the key context it was made for. */
  private requestKey?: { for: KeyContext; key: string };
  private early: { for: KeyContext; ran: Promise<Ran>; organizationId: string } | null = null;

  private readonly route: ApiKeyRoute;
  private readonly deps: ExternalApiDeps;
  private readonly cache: ReadCache | null;

  constructor(
    private readonly shared: RouteOperation,
    private readonly req: Request,
    /** The body being read (a route with a body), awaited by the variables only. */
    private readonly body: Promise<void> | null,
  ) {
    ({ route: this.route, deps: this.deps, cache: this.cache } = shared);
    // Started in the same tick as the key check, so both share its Redis round trip.
    this.cached = this.cache ? startCachedRead(this.route, this.cache, req) : null;
  }

  /**
   * Starts the operation for a key cached here whose organization had room at its last decision,
   * unless this process holds an answer for it (the start would most likely be work thrown away).
   * Its result is used only if the key and the limits confirm the call for that same key.
   */
  startEarly(cached: KeyContext): void {
    if (!mayRun(this.route, cached) || this.answeredFromCache(cached)) return;
    if (!this.deps.headroom.claim(cached.billingOrganizationId)) return;
    this.early = {
      for: cached,
      ran: started(this.execute(cached)),
      organizationId: cached.billingOrganizationId,
    };
  }

  /**
   * Runs the operation for the confirmed key: the answer from the read cache, or the operation's
   * result (the one started early for this same key, if any).
   */
  start(context: KeyContext): Promise<Ran> {
    const early = this.early?.for === context ? this.early.ran : null;
    if (this.cached && this.cache)
      return started(this.lookupOrRun(this.cached, this.cache, context, early));
    return early ?? started(this.execute(context));
  }

  /** Gives back the headroom an early start claimed (when the call is done). */
  release(): void {
    if (this.early) this.deps.headroom.release(this.early.organizationId);
  }

  /** The answer from the read cache when it holds a current one, else the operation's result. */
  private async lookupOrRun(
    read: CachedRead,
    cache: ReadCache,
    context: KeyContext,
    early: Promise<Ran> | null,
  ): Promise<Ran> {
    // Bad parameters are not looked up: the operation's run refuses them, after the limits.
    let key: string;
    try {
      key =
        this.requestKey?.for === context
          ? this.requestKey.key
          : requestKey(this.route, await this.variablesOf(), context);
    } catch {
      return early ?? this.execute(context);
    }
    read.lookup = await cache.lookup(read.tag, await read.generation, key);
    if (read.lookup.result === 'hit-local' || read.lookup.result === 'hit-shared')
      return { cachedBody: read.lookup.body, read };
    return early ?? this.execute(context);
  }

  /**
   * The route's persisted operation. The key was checked (and against revocations on every call),
   * so the operation runs with the key's identity and the key is not looked up again. Async, so
   * bad parameters (a 400 thrown while building the variables) come out after the limits were
   * decided and their headers set, like every other answer of the operation.
   */
  private async execute(context: KeyContext): Promise<Ran> {
    const result = await this.deps.gateway.execute<Data>(
      this.route.operation,
      await this.variablesOf(),
      { identity: keyIdentity(context) },
    );
    return { result };
  }

  /**
   * The operation's variables from the request, built once per call: refuses unknown query
   * parameters, waits for the body, runs the route's builder (which throws a 400 on bad input),
   * then refuses a path id that cannot be one (404, as an unknown id comes after bad input).
   */
  private async variablesOf(): Promise<Record<string, unknown>> {
    if (this.variables) return this.variables;
    rejectUnknownQueryParameters(this.req, this.shared.accepted);
    await this.body;
    const variables = this.route.variables(this.req);
    refuseImpossibleId(this.route.idParam, this.req);
    this.variables = variables;
    return variables;
  }

  /** Whether this process holds an answer for the call (current or not: not checked yet). */
  private answeredFromCache(cached: KeyContext): boolean {
    if (!this.cached || !this.deps.readCache || this.route.body) return false;
    try {
      rejectUnknownQueryParameters(this.req, this.shared.accepted);
      this.variables = this.route.variables(this.req);
    } catch {
      // Refused after the limits, by the operation's run (variablesOf).
      return false;
    }
    // Kept for the lookup, which uses it when the key is confirmed as this same context.
    this.requestKey = { for: cached, key: requestKey(this.route, this.variables, cached) };
    return this.deps.readCache.holds(this.requestKey.key);
  }
}
