import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useResetSession } from '../api/api-provider';
import { signOut } from '../auth/auth-api';

export function SignOutButton() {
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function signOutNow() {
    setBusy(true);
    setFailed(false);
    try {
      await signOut();
      resetSession();
      void navigate('/sign-in', { replace: true });
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="button" disabled={busy} onClick={() => void signOutNow()}>
        Sign out
      </button>
      {failed && (
        <span role="alert" className="form-error">
          Could not sign out. Try again.
        </span>
      )}
    </>
  );
}
