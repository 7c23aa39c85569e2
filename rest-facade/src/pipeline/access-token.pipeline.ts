/**
 * The steps of a webhook-management call: the bearer access token first (so a caller without one
 * gets 401 whatever its body), then the body (read, JSON, valid), then who the token is (401 for
 * an unknown or revoked one), then the query parameters where the route takes some (400 for one
 * it does not take or a bad value), then the path's webhook id (404 for one that cannot be an id,
 * nothing asked about it), then the persisted operation run as the token's user, then the answer.
 * No limits of a key apply; the webhooks service keeps its own (tests per minute, webhooks per
 * user).
 */
import type { Request, Response } from 'express';
import { API_KEY_PREFIX } from '../../../common/platform/secrets';
import { accessTokenRequired, apiKeyNotAccepted, invalidParameters, notJsonBody } from '../errors';
import type { FacadeDeps } from '../deps';
import { sendSuccess } from '../envelope';
import { fromGraphQLErrors } from '../error-mapper';
import type { Caller } from '../gateway-client';
import { jsonBodyReader } from '../json-body';
import { refuseImpossibleId } from '../routes/path-ids';
import {
  acceptedNames,
  rejectUnknownQueryParameters,
  type QuerySchema,
} from '../routes/query-parameters';
import type { AccessTokenRoute, RequestBody } from '../routes/route';
import { pipeline, type Step } from './steps';

interface TokenCall {
  readonly req: Request;
  readonly res: Response;
  credential?: string;
  caller?: Caller;
  body?: unknown;
  variables?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

/** Only the bearer token is taken: webhook management never accepts X-API-Key. */
const requireAccessToken: Step<TokenCall> = (call) => {
  const authorization = call.req.headers.authorization;
  const token =
    typeof authorization === 'string' ? /^Bearer\s+(\S+)/i.exec(authorization.trim()) : null;
  if (!token) throw accessTokenRequired();
  // An API key is not a management credential.
  if (token[1]!.startsWith(API_KEY_PREFIX)) throw apiKeyNotAccepted();
  call.credential = token[1]!;
};

/** Resolves the token, so an id is looked at only for a caller it could concern. */
function identifyToken(deps: FacadeDeps): Step<TokenCall> {
  return async (call) => {
    const identified = await deps.gateway.identify(call.credential!);
    if ('errors' in identified) throw fromGraphQLErrors(identified.errors);
    call.caller = identified;
  };
}

function requirePossibleId(route: AccessTokenRoute): Step<TokenCall> {
  return (call) => refuseImpossibleId(route.idParam, call.req);
}

function readJsonBody(body: RequestBody): Step<TokenCall> {
  const read = jsonBodyReader(body.limit);
  return (call) => read(call.req, call.res);
}

const requireJson: Step<TokenCall> = (call) => {
  if (!call.req.is('application/json')) throw notJsonBody();
};

function validateBody(body: RequestBody, message: string): Step<TokenCall> {
  return (call) => {
    const parsed = body.schema.safeParse(call.req.body);
    if (!parsed.success) {
      throw invalidParameters(
        message,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    call.body = parsed.data;
  };
}

/**
 * A route with query parameters refuses those it does not take and builds its variables (its
 * 400s) before the path's id is looked at, as API-key routes do.
 */
function readQuery(route: AccessTokenRoute, query: QuerySchema): Step<TokenCall> {
  const accepted = acceptedNames(query);
  return (call) => {
    rejectUnknownQueryParameters(call.req, accepted);
    call.variables = route.variables(call.req, call.body);
  };
}

function runOperation(route: AccessTokenRoute, deps: FacadeDeps): Step<TokenCall> {
  return async (call) => {
    const result = await deps.gateway.execute(
      route.operation,
      call.variables ?? route.variables(call.req, call.body),
      call.caller!,
    );
    if (result.errors.length > 0 || !result.data) throw fromGraphQLErrors(result.errors);
    call.data = result.data;
  };
}

function answer(route: AccessTokenRoute): Step<TokenCall> {
  const { status } = route.response;
  return (call) => {
    if (!route.present) call.res.status(status).end();
    else sendSuccess(call.res, route.present(call.data!), status);
  };
}

/** The handler of an access-token route: its steps, composed once. */
export function accessTokenHandler(route: AccessTokenRoute, deps: FacadeDeps) {
  const run = pipeline<TokenCall>([
    requireAccessToken,
    ...(route.body
      ? [
          readJsonBody(route.body),
          requireJson,
          validateBody(route.body, route.invalidBody ?? 'The body is not valid'),
        ]
      : []),
    identifyToken(deps),
    ...(route.query ? [readQuery(route, route.query)] : []),
    ...(route.idParam ? [requirePossibleId(route)] : []),
    runOperation(route, deps),
    answer(route),
  ]);
  return (req: Request, res: Response) => run({ req, res });
}
