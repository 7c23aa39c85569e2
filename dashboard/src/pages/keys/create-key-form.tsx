import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { errorMessage } from '../../api/errors';
import { QueryState } from '../../components/data-state';
import { FormFooter } from '../../components/form-footer';
import { startOfLocalDay, toDateInputValue } from '../../format/format';
import { graphql } from '../../gql';
import type {
  CreateApiKeyInput,
  KeyExpiration,
  Permission,
  WebsiteAccess,
} from '../../gql/graphql';
import {
  DEFAULT_EXPIRATION,
  DEFAULT_PERMISSIONS,
  EXPIRATIONS,
  PERMISSIONS,
  WEBSITE_ACCESS_LABELS,
} from './key-options';

const CreateKeyWebsitesDocument = graphql(`
  query CreateKeyWebsites($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      websites {
        id
        name
        domain
      }
    }
  }
`);

const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey {
        id
        name
        prefix
        createdAt
        lastUsedAt
      }
    }
  }
`);

const WEBSITE_ACCESS: WebsiteAccess[] = ['ALL', 'SELECTED'];

export function CreateKeyForm({
  organizationId,
  onCreated,
  onCancel,
}: {
  organizationId: string;
  onCreated: (key: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<Set<Permission>>(
    () => new Set(DEFAULT_PERMISSIONS),
  );
  const [access, setAccess] = useState<WebsiteAccess>('ALL');
  const [websiteIds, setWebsiteIds] = useState<Set<string>>(() => new Set());
  const [expiration, setExpiration] = useState<KeyExpiration>(DEFAULT_EXPIRATION);
  const [customDate, setCustomDate] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [creation, createKey] = useMutation(CreateApiKeyDocument);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (access === 'SELECTED' && websiteIds.size === 0) {
      setFormError('Choose at least one website, or give the key access to all websites.');
      return;
    }
    setFormError(null);
    const input: CreateApiKeyInput = {
      organizationId,
      name: name.trim(),
      description: description.trim() || null,
      permissions: PERMISSIONS.map((p) => p.value).filter((p) => permissions.has(p)),
      websiteIds: access === 'SELECTED' ? [...websiteIds] : null,
      expiration,
      expiresAt: expiration === 'CUSTOM' ? startOfLocalDay(customDate) : null,
    };
    const result = await createKey({ input }, { additionalTypenames: ['ApiKey'] });
    if (result.data) onCreated(result.data.createApiKey.key);
  }

  const error = formError ?? (creation.error ? errorMessage(creation.error) : null);

  return (
    <form className="form" onSubmit={(event) => void submit(event)}>
      <NameFields
        name={name}
        onNameChange={setName}
        description={description}
        onDescriptionChange={setDescription}
      />

      <PermissionChoices selected={permissions} onChange={setPermissions} />

      <WebsiteAccessChoices
        organizationId={organizationId}
        access={access}
        onAccessChange={setAccess}
        websiteIds={websiteIds}
        onWebsitesChange={setWebsiteIds}
      />

      <ExpirationFields
        expiration={expiration}
        onExpirationChange={setExpiration}
        customDate={customDate}
        onCustomDateChange={setCustomDate}
      />

      <FormFooter
        error={error}
        submitLabel="Create key"
        busy={creation.fetching}
        onCancel={onCancel}
      />
    </form>
  );
}

function NameFields({
  name,
  onNameChange,
  description,
  onDescriptionChange,
}: {
  name: string;
  onNameChange: (name: string) => void;
  description: string;
  onDescriptionChange: (description: string) => void;
}) {
  const ids = { name: useId(), description: useId() };
  return (
    <>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          name="name"
          required
          maxLength={100}
          value={name}
          onChange={(event) => onNameChange(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <textarea
          id={ids.description}
          name="description"
          rows={2}
          value={description}
          onChange={(event) => onDescriptionChange(event.target.value)}
        />
      </div>
    </>
  );
}

function PermissionChoices({
  selected,
  onChange,
}: {
  selected: Set<Permission>;
  onChange: (selected: Set<Permission>) => void;
}) {
  return (
    <fieldset>
      <legend>Permissions</legend>
      {PERMISSIONS.map(({ value, label }) => (
        <label key={value} className="choice">
          <input
            type="checkbox"
            name="permissions"
            value={value}
            checked={selected.has(value)}
            onChange={(event) => onChange(toggled(selected, value, event.target.checked))}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function WebsiteAccessChoices({
  organizationId,
  access,
  onAccessChange,
  websiteIds,
  onWebsitesChange,
}: {
  organizationId: string;
  access: WebsiteAccess;
  onAccessChange: (access: WebsiteAccess) => void;
  websiteIds: Set<string>;
  onWebsitesChange: (selected: Set<string>) => void;
}) {
  return (
    <fieldset>
      <legend>Website access</legend>
      {WEBSITE_ACCESS.map((value) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name="websiteAccess"
            value={value}
            checked={access === value}
            onChange={() => onAccessChange(value)}
          />
          {WEBSITE_ACCESS_LABELS[value]}
        </label>
      ))}
      {access === 'SELECTED' && (
        <WebsiteChoices
          organizationId={organizationId}
          selected={websiteIds}
          onChange={onWebsitesChange}
        />
      )}
    </fieldset>
  );
}

function ExpirationFields({
  expiration,
  onExpirationChange,
  customDate,
  onCustomDateChange,
}: {
  expiration: KeyExpiration;
  onExpirationChange: (expiration: KeyExpiration) => void;
  customDate: string;
  onCustomDateChange: (date: string) => void;
}) {
  const ids = { expiration: useId(), date: useId() };
  const tomorrow = new Date();
  tomorrow.setDate(tomorrow.getDate() + 1);
  return (
    <>
      <div className="field">
        <label htmlFor={ids.expiration}>Expiration</label>
        <select
          id={ids.expiration}
          name="expiration"
          value={expiration}
          onChange={(event) => onExpirationChange(event.target.value as KeyExpiration)}
        >
          {EXPIRATIONS.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {expiration === 'CUSTOM' && (
        <div className="field">
          <label htmlFor={ids.date}>Expiration date</label>
          <input
            id={ids.date}
            type="date"
            name="expiresAt"
            required
            min={toDateInputValue(tomorrow)}
            value={customDate}
            aria-describedby={`${ids.date}-hint`}
            onChange={(event) => onCustomDateChange(event.target.value)}
          />
          <p id={`${ids.date}-hint`} className="hint">
            The key stops working when this day starts, in your time zone.
          </p>
        </div>
      )}
    </>
  );
}

function WebsiteChoices({
  organizationId,
  selected,
  onChange,
}: {
  organizationId: string;
  selected: Set<string>;
  onChange: (selected: Set<string>) => void;
}) {
  const [result, reexecute] = useQuery({
    query: CreateKeyWebsitesDocument,
    variables: { organizationId },
  });
  return (
    <fieldset className="nested">
      <legend>Websites</legend>
      <QueryState result={result} what="the websites" reexecute={reexecute}>
        {(data) => {
          const websites = data.organization?.websites ?? [];
          if (websites.length === 0) return <p>This organization has no websites yet.</p>;
          return websites.map((website) => (
            <label key={website.id} className="choice">
              <input
                type="checkbox"
                name="websiteIds"
                value={website.id}
                checked={selected.has(website.id)}
                onChange={(event) => onChange(toggled(selected, website.id, event.target.checked))}
              />
              {website.name}
            </label>
          ));
        }}
      </QueryState>
    </fieldset>
  );
}

function toggled<T>(set: Set<T>, value: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
}
