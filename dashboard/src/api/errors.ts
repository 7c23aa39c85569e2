import type { CombinedError } from 'urql';

/** Codes the gateway gives a request whose session is missing, expired or revoked. */
const SIGNED_OUT_CODES = new Set(['invalid_access_token', 'UNAUTHENTICATED']);

export function isUnauthorized(error: CombinedError): boolean {
  const response = error.response as { status?: number } | undefined;
  if (response?.status === 401) return true;
  return error.graphQLErrors.some((e) => SIGNED_OUT_CODES.has(String(e.extensions.code ?? '')));
}

/** A sentence to show the user: the server's own message when it gave one. */
export function errorMessage(error: CombinedError | Error): string {
  if ('graphQLErrors' in error) {
    const first = error.graphQLErrors[0];
    if (first) return first.message;
    if (error.networkError) return 'Could not reach the server. Check your connection.';
  }
  return error.message.replace(/^\[(GraphQL|Network)\]\s*/, '');
}
