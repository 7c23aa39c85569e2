import { useId } from 'react';
import { CopyButton } from './copy-button';

/**
 * A credential shown once (a new API key or signing secret), with Copy, the warning that it
 * will not be shown again, and Done.
 */
export function SecretReveal({
  label,
  noun,
  value,
  testId,
  onDone,
}: {
  /** What the value is: "Your new API key". */
  label: string;
  /** "key" or "secret", for the warning. */
  noun: string;
  value: string;
  testId: string;
  onDone: () => void;
}) {
  const labelId = useId();
  return (
    <div className="secret-reveal">
      <p className="notice notice-warning">
        This {noun} will not be shown again. Copy it now and store it safely.
      </p>
      <p id={labelId} className="secret-label">
        {label}
      </p>
      <div className="secret-value" role="group" aria-labelledby={labelId}>
        <code data-testid={testId}>{value}</code>
        {/* The form that produced the value is gone: focus moves here rather than to the page. */}
        <CopyButton text={value} autoFocus />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
