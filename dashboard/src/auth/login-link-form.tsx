import { useId, useState, type FormEvent } from 'react';
import { AuthRequestError, requestLoginLink } from './auth-api';

type State =
  { kind: 'editing'; error?: string } | { kind: 'sending' } | { kind: 'sent'; email: string };

/** Asks the gateway to send a sign-in link to an email address. */
export function LoginLinkForm() {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ kind: 'editing' });
  const emailId = useId();
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    setState({ kind: 'sending' });
    try {
      await requestLoginLink(address);
      setState({ kind: 'sent', email: address });
    } catch (error) {
      setState({ kind: 'editing', error: messageOf(error) });
    }
  }

  if (state.kind === 'sent') {
    return (
      <div role="status" className="notice notice-success">
        <p>
          <strong>Check your email.</strong> If <strong>{state.email}</strong> has an account, a
          sign-in link is on its way. It works once and expires soon.
        </p>
        <p>In development, the link is written to the gateway&apos;s server log instead.</p>
        <button type="button" className="button" onClick={() => setState({ kind: 'editing' })}>
          Use another email
        </button>
      </div>
    );
  }

  const error = state.kind === 'editing' ? state.error : undefined;
  return (
    <form className="form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={emailId}>Email</label>
        <input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
      </div>
      {error && (
        <p id={errorId} role="alert" className="form-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={state.kind === 'sending'}>
          Send sign-in link
        </button>
      </div>
    </form>
  );
}

function messageOf(error: unknown): string {
  if (error instanceof AuthRequestError) return error.message;
  return 'Something went wrong. Try again.';
}
