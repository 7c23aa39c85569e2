import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Permission } from '../../../common/contracts/identity';
import type { KeyContext } from '../auth/api-key-auth';
import type { CollectorService } from '../collect/collector.service';
import type { ExternalApiDeps, FacadeDeps } from '../deps';
import type { LimitDecision } from '../limits/usage-limiter';
import type { PathId } from './path-ids';
import type { QuerySchema } from './query-parameters';
import type { DocumentedHeaders, ErrorResponse } from './responses';

export type Method = 'get' | 'post' | 'delete' | 'options';

/**
 * Who may call a route: an API key (`X-API-Key` or `Authorization: Bearer svc_…`, checked by the
 * facade, counted against the limits; `apiKeyWrite`: the same for a route that writes, answered
 * by the facade itself rather than by an operation), a dashboard access token (`Authorization: Bearer wat_…`,
 * resolved by the engine), or anyone.
 */
export type AuthMode = 'apiKey' | 'apiKeyWrite' | 'accessToken' | 'none';

export type Tag = 'Account' | 'Analytics' | 'Events' | 'Webhooks' | 'Public' | 'OpenAPI';

/** What a route's presenter may use besides the operation's data. */
export interface CallContext {
  key: KeyContext;
  usage: LimitDecision;
}

export interface RequestBody {
  /** Validates the body (API-key routes: in `variables`; access-token routes: before the operation). */
  schema: z.ZodType;
  /** The OpenAPI component the body's JSON Schema is published as. */
  component: string;
  /** The media types it is accepted in, each documented with `example`. */
  mediaTypes: readonly string[];
  example: unknown;
  /** Largest body read (bytes, or express's notation); a larger one is a 413. */
  limit: number | string;
}

export interface SuccessResponse {
  status: 200 | 201 | 202 | 204;
  description: string;
  /** The body's schema: the `data` of the success envelope unless `envelope` is false. */
  schema?: z.ZodType;
  example?: unknown;
  /** Wrapped as `{success: true, data, timestamp}` (default true when there is a schema). */
  envelope?: boolean;
  mediaType?: string;
  headers?: DocumentedHeaders;
}

/** What every declaration says: where it is, what it takes and answers, and how it is documented. */
interface RouteBase {
  method: Method;
  /** Express path from the root (`/api/external/v1/websites/:websiteId`); matched exactly. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  /** Path parameters, documented; their values are read as strings by the variables builder. */
  params?: z.ZodObject;
  /**
   * The path parameter that is a record's id: one that cannot be an id is answered 404 where an
   * unknown id would be (after the key or token and the request's other parameters), and nothing
   * is asked about it.
   */
  idParam?: PathId;
  /** Query parameters: the one list of the names a route accepts, and their documentation. */
  query?: QuerySchema;
  body?: RequestBody;
  response: SuccessResponse;
  /** The error answers it documents, by status. */
  errors: Readonly<Record<number, ErrorResponse>>;
}

/** What an erased declaration takes its operation's data and variables to be. */
type OperationData = Record<string, unknown>;
type OperationVariables = Record<string, unknown>;

/**
 * An External API call: checked key, limits, permission, then a persisted operation, typed by its
 * generated document (`TData`, `TVariables`). Declared through `apiKeyRoute`.
 */
export interface ApiKeyRouteOf<TData, TVariables> extends RouteBase {
  auth: 'apiKey';
  /** Counted against the key's per-minute limit and its organization's monthly quota. */
  counted: true;
  query: QuerySchema;
  /** Permission the key needs; checked by the facade before the operation runs. */
  permission?: Permission;
  /**
   * What the answer depends on besides the request and the caller's access scope, for the read
   * cache (docs/scaling.md, "Cached reads"): `website` — the website's analytics data (the answer
   * shows nothing else of the accounts than the website's id); `accounts` — the accounts
   * (organizations, members, websites, plans). Absent: never cached.
   */
  cache?: 'website' | 'accounts';
  /** The persisted operation (rest-facade/operations), as its generated document. */
  operation: TypedDocumentNode<TData, TVariables>;
  /** Builds the operation's variables; throws `invalidParameters` (400) on bad input. */
  variables(req: Request): TVariables;
  /** Picks the REST `data` out of the operation's result. */
  present(data: TData, call: CallContext): unknown;
}

/** An API-key declaration as the route list, the wiring and the OpenAPI document take it. */
export type ApiKeyRoute = ApiKeyRouteOf<OperationData, OperationVariables>;

/** Checks a declaration against its document's data and variables. */
export function apiKeyRoute<TData extends OperationData, TVariables extends OperationVariables>(
  route: NoInfer<ApiKeyRouteOf<TData, TVariables>> & {
    operation: TypedDocumentNode<TData, TVariables>;
  },
): ApiKeyRoute {
  // A document does not widen by itself (it takes its variables contravariantly); checked above.
  return route as unknown as ApiKeyRoute;
}

/**
 * Webhook management: a dashboard access token, then a persisted operation run as its user,
 * typed by its generated document and by the body its schema validates (`TBody`). Declared through
 * `accessTokenRoute`.
 */
export interface AccessTokenRouteOf<TData, TVariables, TBody = unknown> extends RouteBase {
  auth: 'accessToken';
  counted: false;
  body?: RequestBody & { schema: z.ZodType<TBody> };
  /** The persisted operation (rest-facade/operations), as its generated document. */
  operation: TypedDocumentNode<TData, TVariables>;
  /** Builds the operation's variables from the request and its validated body. */
  variables(req: Request, body: TBody): TVariables;
  /** The REST `data`; absent for a 204. */
  present?(data: TData): unknown;
  /** The 400 message when the body does not match its schema (the issues go in `details`). */
  invalidBody?: string;
}

/** An access-token declaration as the route list, the wiring and the OpenAPI document take it. */
export type AccessTokenRoute = AccessTokenRouteOf<OperationData, OperationVariables>;

/** Checks a declaration against its document's data and variables and its body's schema. */
export function accessTokenRoute<
  TData extends OperationData,
  TVariables extends OperationVariables,
  TBody = unknown,
>(
  route: NoInfer<AccessTokenRouteOf<TData, TVariables, TBody>> & {
    operation: TypedDocumentNode<TData, TVariables>;
    body?: { schema: z.ZodType<TBody> };
  },
): AccessTokenRoute {
  // A document does not widen by itself (it takes its variables contravariantly); checked above.
  return route as unknown as AccessTokenRoute;
}

/** What a public route's answer is built from, once at start-up. */
export interface PublicServices {
  deps: FacadeDeps;
  collector: CollectorService;
  /** The OpenAPI document, generated once. */
  document: object;
}

/** A per-minute limit per client IP of a key-less route. */
export interface PerIpLimit {
  /** Names the Redis counter. */
  name: string;
  perMinute: number;
  /** What is limited, for the 429's message ("Events are limited to …"). */
  what: string;
}

/** A key-less route answered by the facade itself. */
export interface PublicRoute extends RouteBase {
  auth: 'none';
  counted: false;
  /** Readable from any origin: CORS headers naming the path's methods (OPTIONS answers 204). */
  cors: boolean;
  /** A text body (`express.text`), read before the limit; `body.mediaTypes` are the types read. */
  textBody?: boolean;
  perIpLimit?: PerIpLimit;
  /** Builds the route's answer once at start-up. */
  answer(services: PublicServices): (req: Request, res: Response) => void | Promise<void>;
}

/**
 * A route that writes with an API key (the server-side Events API): checked key, limits and
 * permission exactly as an External API call (pipeline/api-key-write.pipeline.ts), then the
 * facade's own `answer`, whose result is the `data` of the success envelope.
 */
export interface ApiKeyWriteRoute extends RouteBase {
  auth: 'apiKeyWrite';
  /** Counted against the key's per-minute limit and its organization's monthly quota. */
  counted: true;
  permission: Permission;
  query: QuerySchema;
  body: RequestBody;
  /** Builds the route's answer once at start-up; it reads the body (already parsed as JSON). */
  answer(services: KeyedServices): (req: Request, call: CallContext) => Promise<unknown>;
}

/** What an API-key write route's answer is built from: the public services and the key's. */
export interface KeyedServices extends PublicServices {
  deps: ExternalApiDeps;
}

export type RouteDeclaration = ApiKeyRoute | ApiKeyWriteRoute | AccessTokenRoute | PublicRoute;
