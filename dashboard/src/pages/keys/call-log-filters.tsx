import { useId, useState } from 'react';
import { ENDPOINT_PATTERNS } from './endpoints';

export interface CallFilters {
  /** Local calendar days, `YYYY-MM-DD`, both included; '' for no bound. */
  from: string;
  to: string;
  endpoint: string;
}

const NO_FILTERS: CallFilters = { from: '', to: '', endpoint: '' };

/** From, To and Endpoint; each change applies at once (`onChange`). */
export function CallLogFilters({
  initial,
  onChange,
}: {
  initial: CallFilters;
  onChange: (filters: CallFilters) => void;
}) {
  const ids = { from: useId(), to: useId(), endpoint: useId(), endpoints: useId() };
  // The fields keep their own state: the URL follows them, not the other way round, so typing
  // is never slowed by navigation.
  const [filters, setFilters] = useState(initial);
  const update = (next: CallFilters) => {
    setFilters(next);
    onChange({ ...next, endpoint: next.endpoint.trim() });
  };
  const set = (field: keyof CallFilters) => (event: { target: { value: string } }) =>
    update({ ...filters, [field]: event.target.value });

  return (
    <form className="filters" aria-label="Filter calls" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={ids.from}>From</label>
        <input
          id={ids.from}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={set('from')}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>To</label>
        <input
          id={ids.to}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={set('to')}
        />
      </div>
      <div className="field field-wide">
        <label htmlFor={ids.endpoint}>Endpoint</label>
        <input
          id={ids.endpoint}
          type="text"
          list={ids.endpoints}
          placeholder="/api/external/v1/websites/:websiteId"
          value={filters.endpoint}
          onChange={set('endpoint')}
        />
        <datalist id={ids.endpoints}>
          {ENDPOINT_PATTERNS.map((pattern) => (
            <option key={pattern} value={pattern} />
          ))}
        </datalist>
      </div>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => update(NO_FILTERS)}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
