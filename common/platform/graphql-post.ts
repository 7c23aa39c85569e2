import { request, type Dispatcher } from 'undici';
import { signIdentity, type Audience, type GraphQLBody } from '../contracts/identity';
import { requestIdHeaders } from './request-context';

export interface GraphQLAnswer {
  status: number;
  text: string;
}

/**
 * POSTs a GraphQL body from one of our services to another over a keep-alive undici pool, with
 * the request id and the caller's credential headers (a signed identity, or a key the facade
 * passes on). Resolves with the HTTP status and the body's text; rejects only when no whole
 * answer came (refused, reset, timed out), which each caller maps to its "unavailable" error.
 */
export async function postGraphQL(
  url: string,
  dispatcher: Dispatcher,
  body: GraphQLBody,
  credentials: Record<string, string>,
): Promise<GraphQLAnswer> {
  const response = await request(url, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', ...requestIdHeaders(), ...credentials },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/**
 * Whether a call failed because the other side closed the connection it went out on, with no
 * answer: a stopping or restarting instance closes its idle kept-alive sockets, and one may be
 * closed just as a request is written to it. Such a call may be sent once more if it only reads.
 */
export function isDroppedConnection(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** postGraphQL as one of our own services (`service`), signed for `audience` and this body only. */
export function postAsService(
  url: string,
  dispatcher: Dispatcher,
  body: GraphQLBody,
  signing: { secret: string; service: string; audience: Audience },
): Promise<GraphQLAnswer> {
  return postGraphQL(
    url,
    dispatcher,
    body,
    signIdentity(
      signing.secret,
      { kind: 'service', name: signing.service },
      { audience: signing.audience, request: body },
    ),
  );
}
