import type { ReactNode } from 'react';
import type { CombinedError, UseQueryExecute } from 'urql';
import { errorMessage } from '../api/errors';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-busy="true">
      <p>{label}</p>
    </div>
  );
}

/** A query that failed, with "Try again": the query runs again from the network, not the cache. */
export function ErrorState({
  what,
  error,
  reexecute,
}: {
  what: string;
  error: CombinedError | Error;
  /** The query's own, from useQuery. */
  reexecute: UseQueryExecute;
}) {
  return (
    <div className="state state-error" role="alert">
      <p>
        Could not load {what}. {errorMessage(error)}
      </p>
      <button
        type="button"
        className="button"
        onClick={() => reexecute({ requestPolicy: 'network-only' })}
      >
        Try again
      </button>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="state state-empty">{children}</div>;
}

interface QueryResultLike<T> {
  data?: T;
  fetching: boolean;
  error?: CombinedError;
}

/**
 * The three states of a query's view: loading, error with "Try again", and the data, which
 * `children` renders (including its own empty state).
 */
export function QueryState<T>({
  result,
  what,
  reexecute,
  children,
}: {
  result: QueryResultLike<T>;
  /** What is loaded, for the error message: "Could not load <what>." */
  what: string;
  /** The query's own, from useQuery: "Try again" calls it. */
  reexecute: UseQueryExecute;
  children: (data: T) => ReactNode;
}) {
  if (result.data !== undefined && !result.error) return <>{children(result.data)}</>;
  if (result.error && !result.fetching) {
    return <ErrorState what={what} error={result.error} reexecute={reexecute} />;
  }
  return <LoadingState />;
}
