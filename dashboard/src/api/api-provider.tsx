import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router';
import { Provider } from 'urql';
import { ApiSession } from './api-session';

const ResetSessionContext = createContext<() => void>(() => undefined);

/** Provides the session's GraphQL client; an ended session leads to the sign-in page. */
export function ApiProvider({ children }: { children: ReactNode }) {
  const [session] = useState(() => new ApiSession());
  const client = useSyncExternalStore(session.subscribe, session.client);
  const navigate = useNavigate();

  useEffect(
    () => session.onSignedOut(() => void navigate('/sign-in', { replace: true })),
    [session, navigate],
  );

  return (
    <ResetSessionContext.Provider value={session.reset}>
      <Provider value={client}>{children}</Provider>
    </ResetSessionContext.Provider>
  );
}

/** Drops the cached data of the current session (after signing in or out). */
export function useResetSession(): () => void {
  return useContext(ResetSessionContext);
}
