import { Client, cacheExchange, fetchExchange, mapExchange } from 'urql';
import { isUnauthorized } from './errors';

/**
 * The GraphQL client of one session. The session cookie travels by itself (same origin);
 * `onSignedOut` runs once, on the first answer saying the session is gone.
 */
export function createGraphqlClient(onSignedOut: () => void): Client {
  let signedOut = false;
  return new Client({
    url: '/graphql',
    // POST only: the gateway's CSRF protection expects JSON bodies, never query strings.
    preferGetMethod: false,
    fetchOptions: {
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
    },
    exchanges: [
      mapExchange({
        onError(error) {
          if (signedOut || !isUnauthorized(error)) return;
          signedOut = true;
          onSignedOut();
        },
      }),
      cacheExchange,
      fetchExchange,
    ],
  });
}
