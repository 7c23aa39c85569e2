import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { errorMessage } from '../../api/errors';
import { useOrganization } from '../../auth/session';
import { QueryState } from '../../components/data-state';
import { FormFooter } from '../../components/form-footer';
import { graphql } from '../../gql';
import type { WebhookAlertFieldsFragment } from '../../gql/graphql';

const AlertWebsitesDocument = graphql(`
  query AlertWebsites($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      websites {
        id
        name
      }
    }
  }
`);

/** What the form shows: read by the webhook details query and answered by the mutation below. */
graphql(`
  fragment WebhookAlertFields on WebhookAlerts {
    websiteIds
    spikeRatio
    dropRatio
    reportHour
    goalEvery
  }
`);

const SetWebhookAlertsDocument = graphql(`
  mutation SetWebhookAlertsSettings($id: ID!, $input: WebhookAlertsInput!) {
    setWebhookAlerts(id: $id, input: $input) {
      id
      alerts {
        ...WebhookAlertFields
      }
    }
  }
`);

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00 UTC`;

/**
 * "Analytics alerts": which websites' traffic spikes, drops and daily reports the webhook gets,
 * from which change on, and at which hour the report goes out (docs/webhooks.md).
 */
export function WebhookAlertsForm({
  webhookId,
  alerts,
}: {
  webhookId: string;
  alerts: WebhookAlertFieldsFragment;
}) {
  const hint = useId();
  const [spike, setSpike] = useState(String(alerts.spikeRatio));
  const [drop, setDrop] = useState(String(alerts.dropRatio));
  const [hour, setHour] = useState(alerts.reportHour);
  const [goalEvery, setGoalEvery] = useState(alerts.goalEvery ? String(alerts.goalEvery) : '');
  const [websites, setWebsites] = useState<Set<string> | null>(
    alerts.websiteIds ? new Set(alerts.websiteIds) : null,
  );
  const [saving, save] = useMutation(SetWebhookAlertsDocument);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const result = await save({
      id: webhookId,
      input: {
        spikeRatio: Number(spike),
        dropRatio: Number(drop),
        reportHour: hour,
        goalEvery: goalEvery === '' ? null : Number(goalEvery),
        websiteIds: websites ? [...websites] : null,
      },
    });
    if (result.data) setSaved(true);
  }

  return (
    <section aria-labelledby="webhook-alerts-heading">
      <h2 id="webhook-alerts-heading">Analytics alerts</h2>
      <p id={hint} className="hint">
        For the event types traffic.spike, traffic.drop, report.daily and goal.reached: visitors of
        the last hour against the same hour of the previous weeks, yesterday's report, and goal
        conversions.
      </p>
      <form className="form" aria-describedby={hint} onSubmit={(e) => void submit(e)}>
        <ThresholdFields values={{ spike, drop, hour }} on={{ setSpike, setDrop, setHour }} />
        <NumberField
          label="Goal alert also every (conversions; empty: the day's first only)"
          bounds={{ min: 1, max: 1_000_000, step: 1 }}
          required={false}
          value={goalEvery}
          onChange={setGoalEvery}
        />
        <AlertWebsites selected={websites} onChange={setWebsites} />
        <FormFooter
          error={saving.error ? errorMessage(saving.error) : null}
          submitLabel="Save alerts"
          busy={saving.fetching}
        >
          <p aria-live="polite" className="hint">
            {saved && !saving.fetching ? 'Alerts saved.' : ''}
          </p>
        </FormFooter>
      </form>
    </section>
  );
}

/** The spike and drop thresholds and the report hour. */
function ThresholdFields({
  values: { spike, drop, hour },
  on: { setSpike, setDrop, setHour },
}: {
  values: { spike: string; drop: string; hour: number };
  on: {
    setSpike: (value: string) => void;
    setDrop: (value: string) => void;
    setHour: (value: number) => void;
  };
}) {
  const hourId = useId();
  return (
    <>
      <NumberField
        label="Spike from (times the usual visitors)"
        bounds={{ min: 1.5, max: 100, step: 0.1 }}
        value={spike}
        onChange={setSpike}
      />
      <NumberField
        label="Drop to (times the usual visitors)"
        bounds={{ min: 0, max: 0.67, step: 0.01 }}
        value={drop}
        onChange={setDrop}
      />
      <div className="field">
        <label htmlFor={hourId}>Daily report at</label>
        <select id={hourId} value={hour} onChange={(event) => setHour(Number(event.target.value))}>
          {HOURS.map((h) => (
            <option key={h} value={h}>
              {hourLabel(h)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** A number within its bounds. */
function NumberField({
  label,
  bounds,
  required = true,
  value,
  onChange,
}: {
  label: string;
  bounds: { min: number; max: number; step: number };
  required?: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        {...bounds}
        required={required}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** Every website the owner may read, or some of the current organization's. */
function AlertWebsites({
  selected,
  onChange,
}: {
  selected: Set<string> | null;
  onChange: (selected: Set<string> | null) => void;
}) {
  const organization = useOrganization();
  const [result, reexecute] = useQuery({
    query: AlertWebsitesDocument,
    variables: { organizationId: organization.id },
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected ?? []);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Websites</legend>
      <label className="choice">
        <input
          type="checkbox"
          checked={selected === null}
          onChange={(event) => onChange(event.target.checked ? null : new Set())}
        />
        All websites I can read
      </label>
      {selected !== null && (
        <QueryState result={result} what="the websites" reexecute={reexecute}>
          {(data) =>
            (data.organization?.websites ?? []).map((site) => (
              <label key={site.id} className="choice">
                <input
                  type="checkbox"
                  checked={selected.has(site.id)}
                  onChange={(event) => toggle(site.id, event.target.checked)}
                />
                {site.name}
              </label>
            ))
          }
        </QueryState>
      )}
    </fieldset>
  );
}
