import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { ConfirmBody } from '../../components/confirm-body';
import { Dialog } from '../../components/dialog';
import { SecretReveal } from '../../components/secret-reveal';
import { graphql } from '../../gql';
import { WebhookTest } from './webhook-test';

const RotateWebhookSecretDocument = graphql(`
  mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookSecret(id: $id) {
      secret
      webhook {
        id
        secretRotatedAt
      }
    }
  }
`);

const DeleteWebhookDocument = graphql(`
  mutation DeleteWebhook($id: ID!) {
    deleteWebhook(id: $id) {
      id
      status
    }
  }
`);

/** Send test, Rotate secret (then the new secret, once) and Delete, the last two confirmed. */
export function WebhookActions({ webhookId, active }: { webhookId: string; active: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState<'rotate' | 'delete' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [rotation, rotate] = useMutation(RotateWebhookSecretDocument);
  const [deletion, deleteWebhook] = useMutation(DeleteWebhookDocument);
  const close = () => {
    setOpen(null);
    setSecret(null);
  };

  async function confirmRotate() {
    const result = await rotate({ id: webhookId });
    if (result.data) setSecret(result.data.rotateWebhookSecret.secret);
  }

  async function confirmDelete() {
    const result = await deleteWebhook({ id: webhookId });
    if (result.data) void navigate('/webhooks', { replace: true });
  }

  if (!active) {
    return <p className="notice">This webhook is revoked: nothing more is delivered to it.</p>;
  }

  return (
    <>
      <div className="actions">
        <button type="button" className="button" onClick={() => setOpen('rotate')}>
          Rotate secret
        </button>
        <button type="button" className="button button-danger" onClick={() => setOpen('delete')}>
          Delete
        </button>
      </div>
      <WebhookTest webhookId={webhookId} />

      <Dialog
        open={open === 'rotate'}
        title={secret ? 'Secret rotated' : 'Rotate signing secret'}
        onClose={close}
      >
        {secret ? (
          <SecretReveal
            label="New signing secret"
            noun="secret"
            value={secret}
            testId="new-webhook-secret"
            onDone={close}
          />
        ) : (
          <ConfirmBody
            message="Rotate the signing secret? Signatures made with the current secret stop validating immediately."
            confirmLabel="Rotate signing secret"
            busy={rotation.fetching}
            error={rotation.error}
            onConfirm={() => void confirmRotate()}
            onCancel={close}
          />
        )}
      </Dialog>

      <Dialog open={open === 'delete'} title="Delete webhook" onClose={close}>
        <ConfirmBody
          message="Delete this webhook? Nothing more is delivered to it, queued retries included. This cannot be undone."
          confirmLabel="Delete webhook"
          busy={deletion.fetching}
          error={deletion.error}
          onConfirm={() => void confirmDelete()}
          onCancel={close}
        />
      </Dialog>
    </>
  );
}
