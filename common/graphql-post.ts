import { request, type Dispatcher } from 'undici';
import { signIdentity, type Audience, type GraphQLBody } from './identity';
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
