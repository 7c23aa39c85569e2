import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useQuery } from 'urql';
import { isUnauthorized } from '../api/errors';
import { ErrorState, LoadingState } from '../components/data-state';
import { MeDocument, SessionProvider } from './session';

/** Renders its children for a signed-in user; anyone else goes to the sign-in page. */
export function RequireSession({ children }: { children: ReactNode }) {
  const [result, reexecute] = useQuery({ query: MeDocument });

  if (result.error && isUnauthorized(result.error)) return <Navigate to="/sign-in" replace />;
  if (result.data && !result.data.me) return <Navigate to="/sign-in" replace />;
  if (result.data?.me) return <SessionProvider user={result.data.me}>{children}</SessionProvider>;
  return (
    <main className="standalone">
      <h1 className="visually-hidden">Analytics dashboard</h1>
      {result.error && !result.fetching ? (
        <ErrorState what="your account" error={result.error} reexecute={reexecute} />
      ) : (
        <LoadingState />
      )}
    </main>
  );
}
