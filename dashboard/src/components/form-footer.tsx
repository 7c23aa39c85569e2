import type { ReactNode } from 'react';

/** The end of a form: its error (announced), anything said after it, Cancel and the submit button. */
export function FormFooter({
  error,
  submitLabel,
  busy,
  onCancel,
  children,
}: {
  error: string | null;
  submitLabel: string;
  busy: boolean;
  /** Omitted: no Cancel button. */
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {children}
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}
