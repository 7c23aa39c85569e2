import { useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { errorMessage } from '../../api/errors';
import { FormFooter } from '../../components/form-footer';
import { graphql } from '../../gql';
import type { CreateGoalInput, GoalKind } from '../../gql/graphql';

const CreateGoalDocument = graphql(`
  mutation CreateGoal($input: CreateGoalInput!) {
    createGoal(input: $input) {
      id
      name
      kind
      pagePath
      eventName
      currency
      createdAt
    }
  }
`);

const KINDS: { value: GoalKind; label: string }[] = [
  { value: 'PAGE', label: 'Page visit' },
  { value: 'EVENT', label: 'Custom event' },
];

const currencyNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'currency' });
  } catch {
    return null;
  }
})();

/** The ISO 4217 codes the server accepts (it checks the same list). */
const CURRENCIES = Intl.supportedValuesOf('currency').map((code) => ({
  code,
  label: `${code} — ${currencyNames?.of(code) ?? code}`,
}));

/** Adds a page goal (a path pattern) or an event goal (a name, and the revenue's currency). */
export function AddGoalForm({ websiteId }: { websiteId: string }) {
  const [kind, setKind] = useState<GoalKind>('PAGE');
  const [pagePath, setPagePath] = useState('');
  const [eventName, setEventName] = useState('');
  const [currency, setCurrency] = useState('');
  const [name, setName] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const [creation, createGoal] = useMutation(CreateGoalDocument);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAdded(null);
    const input: CreateGoalInput = {
      websiteId,
      kind,
      name: name.trim() || null,
      ...(kind === 'PAGE'
        ? { pagePath: pagePath.trim() }
        : { eventName: eventName.trim(), currency: currency || null }),
    };
    const result = await createGoal({ input }, { additionalTypenames: ['Goal'] });
    if (!result.data) return;
    setAdded(result.data.createGoal.name);
    setPagePath('');
    setEventName('');
    setCurrency('');
    setName('');
  }

  return (
    <form className="form goal-form" onSubmit={(event) => void submit(event)}>
      <KindChoices kind={kind} onChange={setKind} />
      {kind === 'PAGE' ? (
        <PagePathField pagePath={pagePath} onChange={setPagePath} />
      ) : (
        <EventGoalFields
          eventName={eventName}
          onEventNameChange={setEventName}
          currency={currency}
          onCurrencyChange={setCurrency}
        />
      )}
      <DisplayNameField name={name} onChange={setName} />
      <FormFooter
        error={creation.error ? errorMessage(creation.error) : null}
        submitLabel="Add goal"
        busy={creation.fetching}
      >
        <p role="status" className="hint">
          {added && `Goal “${added}” added.`}
        </p>
      </FormFooter>
    </form>
  );
}

function KindChoices({ kind, onChange }: { kind: GoalKind; onChange: (kind: GoalKind) => void }) {
  return (
    <fieldset>
      <legend>Goal type</legend>
      {KINDS.map(({ value, label }) => (
        <label key={value} className="choice">
          <input
            type="radio"
            name="kind"
            value={value}
            checked={kind === value}
            onChange={() => onChange(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

function EventGoalFields({
  eventName,
  onEventNameChange,
  currency,
  onCurrencyChange,
}: {
  eventName: string;
  onEventNameChange: (name: string) => void;
  currency: string;
  onCurrencyChange: (currency: string) => void;
}) {
  const ids = { eventName: useId(), currency: useId() };
  return (
    <>
      <div className="field">
        <label htmlFor={ids.eventName}>Event name</label>
        <input
          id={ids.eventName}
          name="eventName"
          required
          maxLength={100}
          placeholder="Signup"
          value={eventName}
          onChange={(event) => onEventNameChange(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.currency}>Revenue currency</label>
        <select
          id={ids.currency}
          name="currency"
          value={currency}
          onChange={(event) => onCurrencyChange(event.target.value)}
        >
          <option value="">No revenue</option>
          {CURRENCIES.map(({ code, label }) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

function PagePathField({
  pagePath,
  onChange,
}: {
  pagePath: string;
  onChange: (pagePath: string) => void;
}) {
  const ids = { pagePath: useId(), pagePathHint: useId() };
  return (
    <div className="field">
      <label htmlFor={ids.pagePath}>Page path</label>
      <input
        id={ids.pagePath}
        name="pagePath"
        required
        maxLength={512}
        placeholder="/blog/*"
        aria-describedby={ids.pagePathHint}
        value={pagePath}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={ids.pagePathHint} className="hint">
        Starts with /. * matches any characters: /blog/* counts a visit to any page under /blog/.
      </p>
    </div>
  );
}

function DisplayNameField({ name, onChange }: { name: string; onChange: (name: string) => void }) {
  const ids = { name: useId(), nameHint: useId() };
  return (
    <div className="field">
      <label htmlFor={ids.name}>Display name</label>
      <input
        id={ids.name}
        name="name"
        maxLength={120}
        aria-describedby={ids.nameHint}
        value={name}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={ids.nameHint} className="hint">
        Optional: “Visit” and the path, or the event name, when left empty.
      </p>
    </div>
  );
}
