import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { errorMessage } from '../../api/errors';
import { QueryState } from '../../components/data-state';
import { FormFooter } from '../../components/form-footer';
import { Dialog } from '../../components/dialog';
import { SecretReveal } from '../../components/secret-reveal';
import { graphql } from '../../gql';

const WebhookEventTypesDocument = graphql(`
  query WebhookEventTypes {
    webhookEventTypes
  }
`);

const CreateWebhookDocument = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) {
    createWebhook(input: $input) {
      secret
      webhook {
        id
        url
        description
        eventTypes
        status
        createdAt
      }
    }
  }
`);

/** The creation form, then the signing secret shown once. */
export function CreateWebhookDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Dialog open={open} title={secret ? 'Webhook created' : 'Create webhook'} onClose={close}>
      {secret ? (
        <SecretReveal
          label="Signing secret"
          noun="secret"
          value={secret}
          testId="new-webhook-secret"
          onDone={close}
        />
      ) : (
        <CreateWebhookForm onCreated={setSecret} onCancel={close} />
      )}
    </Dialog>
  );
}

function CreateWebhookForm({
  onCreated,
  onCancel,
}: {
  onCreated: (secret: string) => void;
  onCancel: () => void;
}) {
  const ids = { url: useId(), description: useId() };
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [eventTypes, setEventTypes] = useState<Set<string>>(() => new Set());
  const [creation, create] = useMutation(CreateWebhookDocument);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create(
      {
        input: {
          url: url.trim(),
          description: description.trim() || null,
          eventTypes: [...eventTypes],
        },
      },
      { additionalTypenames: ['Webhook'] },
    );
    if (result.data) onCreated(result.data.createWebhook.secret);
  }

  return (
    <form className="form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={ids.url}>URL</label>
        <input
          id={ids.url}
          type="url"
          name="url"
          required
          placeholder="https://example.com/webhooks/analytics"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <input
          id={ids.description}
          name="description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <EventTypeChoices selected={eventTypes} onChange={setEventTypes} />
      <FormFooter
        error={creation.error ? errorMessage(creation.error) : null}
        submitLabel="Create webhook"
        busy={creation.fetching}
        onCancel={onCancel}
      />
    </form>
  );
}

function EventTypeChoices({
  selected,
  onChange,
}: {
  selected: Set<string>;
  onChange: (selected: Set<string>) => void;
}) {
  const eventsHint = useId();
  const [eventTypesResult, reexecute] = useQuery({ query: WebhookEventTypesDocument });
  const toggle = (type: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(type);
    else next.delete(type);
    onChange(next);
  };
  return (
    <fieldset aria-describedby={eventsHint}>
      <legend>Event types</legend>
      <p id={eventsHint} className="hint">
        Leave all unchecked to receive every event.
      </p>
      <QueryState result={eventTypesResult} what="the event types" reexecute={reexecute}>
        {(data) =>
          data.webhookEventTypes.map((type) => (
            <label key={type} className="choice">
              <input
                type="checkbox"
                name="eventTypes"
                value={type}
                checked={selected.has(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              <code>{type}</code>
            </label>
          ))
        }
      </QueryState>
    </fieldset>
  );
}
