import type { CombinedError } from 'urql';
import { errorMessage } from '../api/errors';

/** The body of a confirmation: the question, Cancel (focused first) and the action. */
export function ConfirmBody({
  message,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  message: string;
  confirmLabel: string;
  busy: boolean;
  error?: CombinedError | Error | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <p>{message}</p>
      {error && (
        <p role="alert" className="form-error">
          {errorMessage(error)}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </>
  );
}
