import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useResetSession } from '../api/api-provider';
import { useDocumentTitle } from '../layout/use-document-title';
import { AuthRequestError, INVALID_LOGIN_LINK, signIn } from './auth-api';
import { LoginLinkForm } from './login-link-form';

const INVALID_LINK_MESSAGE =
  'This sign-in link is invalid, has already been used or has expired. Enter your email to get a new one.';

/**
 * `/sign-in?token=…` (the emailed link) signs in and goes to the API keys; `/sign-in` alone asks
 * for an email address to send a link to.
 */
export function SignInPage() {
  useDocumentTitle('Sign in');
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const [signingIn, setSigningIn] = useState(token !== null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const triedToken = useRef<string | null>(null);

  useEffect(() => {
    if (!token || triedToken.current === token) return;
    triedToken.current = token;
    // The token is a credential: keep it out of the address bar and the history.
    void navigate('/sign-in', { replace: true });
    signIn(token).then(
      () => {
        resetSession();
        void navigate('/keys', { replace: true });
      },
      (error: unknown) => {
        setSigningIn(false);
        setLinkError(signInFailure(error));
      },
    );
  }, [token, navigate, resetSession]);

  return (
    <main className="standalone" id="main">
      <div className="card">
        <p className="brand">Analytics</p>
        <h1>Sign in</h1>
        {signingIn ? (
          <p role="status" aria-busy="true">
            Signing you in…
          </p>
        ) : (
          <>
            {linkError ? (
              <p role="alert" className="notice notice-error">
                {linkError}
              </p>
            ) : (
              <p>Enter your email address and we will send you a link to sign in.</p>
            )}
            <LoginLinkForm />
          </>
        )}
      </div>
    </main>
  );
}

function signInFailure(error: unknown): string {
  if (!(error instanceof AuthRequestError)) return 'Something went wrong. Try again.';
  if (error.status === 401 || error.code === INVALID_LOGIN_LINK) return INVALID_LINK_MESSAGE;
  return error.message;
}
