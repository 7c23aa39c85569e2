/** The gateway's cookie-session endpoints (not GraphQL): sign-in links, sign-in, sign-out. */

export class AuthRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const INVALID_LOGIN_LINK = 'invalid_login_link';

export async function requestLoginLink(email: string): Promise<void> {
  await post('/auth/login-link', { email });
}

export async function signIn(token: string): Promise<void> {
  await post('/auth/sign-in', { token });
}

export async function signOut(): Promise<void> {
  await post('/auth/sign-out', {});
}

async function post(path: string, body: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new AuthRequestError(0, 'network_error', 'Could not reach the server. Try again.');
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

async function errorOf(response: Response): Promise<AuthRequestError> {
  const fallback = `The server could not handle the request (HTTP ${response.status}). Try again.`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return new AuthRequestError(
      response.status,
      body.error?.code ?? 'request_failed',
      body.error?.message ?? fallback,
    );
  } catch {
    return new AuthRequestError(response.status, 'request_failed', fallback);
  }
}
