import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { errorMessage } from '../api/errors';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-busy="true">
      <p>{label}</p>
    </div>
  );
}

export function ErrorState({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: CombinedError | Error;
  onRetry: () => void;
}) {
  return (
    <div className="state state-error" role="alert">
      <p>
        Could not load {what}. {errorMessage(error)}
      </p>
      <button type="button" className="button" onClick={onRetry}>
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
  onRetry,
  children,
}: {
  result: QueryResultLike<T>;
  /** What is loaded, for the error message: "Could not load <what>." */
  what: string;
  onRetry: () => void;
  children: (data: T) => ReactNode;
}) {
  if (result.data !== undefined && !result.error) return <>{children(result.data)}</>;
  if (result.error && !result.fetching) {
    return <ErrorState what={what} error={result.error} onRetry={onRetry} />;
  }
  return <LoadingState />;
}
