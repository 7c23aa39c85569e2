import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { SecretReveal } from '../../components/secret-reveal';
import { CreateKeyForm } from './create-key-form';

/** The creation form, then the new key shown once. */
export function CreateKeyDialog({
  open,
  organizationId,
  onClose,
}: {
  open: boolean;
  organizationId: string;
  onClose: () => void;
}) {
  const [createdKey, setCreatedKey] = useState<string | null>(null);
  const close = () => {
    setCreatedKey(null);
    onClose();
  };
  return (
    <Dialog open={open} title={createdKey ? 'API key created' : 'Create API key'} onClose={close}>
      {createdKey ? (
        <SecretReveal
          label="Your new API key"
          noun="key"
          value={createdKey}
          testId="new-key-value"
          onDone={close}
        />
      ) : (
        <CreateKeyForm organizationId={organizationId} onCreated={setCreatedKey} onCancel={close} />
      )}
    </Dialog>
  );
}
