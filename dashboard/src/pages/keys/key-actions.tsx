import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { ConfirmBody } from '../../components/confirm-body';
import { Dialog } from '../../components/dialog';
import { SecretReveal } from '../../components/secret-reveal';
import { graphql } from '../../gql';

const RegenerateApiKeyDocument = graphql(`
  mutation RegenerateApiKey($id: ID!) {
    regenerateApiKey(id: $id) {
      key
      apiKey {
        id
        prefix
        lastUsedAt
      }
    }
  }
`);

const DeleteApiKeyDocument = graphql(`
  mutation DeleteApiKey($id: ID!) {
    deleteApiKey(id: $id)
  }
`);

/** Regenerate (then the new value, once) and Delete, each confirmed first. */
export function KeyActions({ keyId }: { keyId: string }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState<'regenerate' | 'delete' | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [regeneration, regenerate] = useMutation(RegenerateApiKeyDocument);
  const [deletion, deleteKey] = useMutation(DeleteApiKeyDocument);
  const close = () => {
    setOpen(null);
    setNewKey(null);
  };

  async function confirmRegenerate() {
    const result = await regenerate({ id: keyId }, { additionalTypenames: ['ApiKey'] });
    if (result.data) setNewKey(result.data.regenerateApiKey.key);
  }

  async function confirmDelete() {
    const result = await deleteKey({ id: keyId }, { additionalTypenames: ['ApiKey'] });
    if (result.data?.deleteApiKey) void navigate('/keys', { replace: true });
  }

  return (
    <div className="actions">
      <button type="button" className="button" onClick={() => setOpen('regenerate')}>
        Regenerate
      </button>
      <button type="button" className="button button-danger" onClick={() => setOpen('delete')}>
        Delete
      </button>

      <Dialog
        open={open === 'regenerate'}
        title={newKey ? 'Key regenerated' : 'Regenerate API key'}
        onClose={close}
      >
        {newKey ? (
          <SecretReveal
            label="Your new API key"
            noun="key"
            value={newKey}
            testId="new-key-value"
            onDone={close}
          />
        ) : (
          <ConfirmBody
            message="Regenerate this key? The current key stops working immediately."
            confirmLabel="Regenerate key"
            busy={regeneration.fetching}
            error={regeneration.error}
            onConfirm={() => void confirmRegenerate()}
            onCancel={close}
          />
        )}
      </Dialog>

      <Dialog open={open === 'delete'} title="Delete API key" onClose={close}>
        <ConfirmBody
          message="Delete this key? Programs using it are refused immediately. This cannot be undone."
          confirmLabel="Delete key"
          busy={deletion.fetching}
          error={deletion.error}
          onConfirm={() => void confirmDelete()}
          onCancel={close}
        />
      </Dialog>
    </div>
  );
}
