import { useId, useState, type FormEvent } from 'react';
import { RANGES, rangeOf } from './analytics-ranges';
import {
  CONDITIONS,
  DIMENSIONS,
  dimensionLabel,
  type Condition,
  type Dimension,
  type Question,
} from './explore-question';

const NONE = '';

/**
 * The Explore section's question: one or two dimensions, one condition (an empty value is no
 * condition) and a range. Nothing is asked until Run (or Enter in a field): a half-typed value
 * sends no query.
 */
export function ExploreForm({
  initial,
  onRun,
}: {
  initial: Question | null;
  onRun: (question: Question) => void;
}) {
  const ids = { by: useId(), thenBy: useId() };
  const [by, setBy] = useState<Dimension>(initial?.by ?? 'page');
  const [thenBy, setThenBy] = useState<Dimension | typeof NONE>(initial?.thenBy ?? NONE);
  const [where, setWhere] = useState<Dimension>(initial?.filter?.dimension ?? 'page');
  const [op, setOp] = useState<Condition>(initial?.filter?.op ?? 'is');
  const [value, setValue] = useState(initial?.filter?.value ?? '');
  const [range, setRange] = useState(initial?.range.param ?? rangeOf(null).param);

  function changeBy(next: Dimension) {
    setBy(next);
    // A dimension is asked for once: the second gives way.
    if (next === thenBy) setThenBy(NONE);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = value.trim();
    onRun({
      by,
      thenBy: thenBy === NONE ? null : thenBy,
      filter: trimmed === '' ? null : { dimension: where, op, value: trimmed },
      range: rangeOf(range),
    });
  }

  return (
    <form className="form explore-form" aria-label="Question" onSubmit={submit}>
      <div className="filters">
        <div className="field">
          <label htmlFor={ids.by}>Break down by</label>
          <select
            id={ids.by}
            value={by}
            onChange={(event) => changeBy(event.target.value as Dimension)}
          >
            <DimensionOptions />
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.thenBy}>Then by</label>
          <select
            id={ids.thenBy}
            value={thenBy}
            onChange={(event) => setThenBy(event.target.value as Dimension | typeof NONE)}
          >
            <option value={NONE}>None</option>
            <DimensionOptions except={by} />
          </select>
        </div>
        <RangeField range={range} onChange={setRange} />
      </div>
      <FilterFields
        where={where}
        onWhereChange={setWhere}
        op={op}
        onOpChange={setOp}
        value={value}
        onValueChange={setValue}
      />
      <div className="form-actions">
        {/* Never disabled while a question runs: the button would lose the keyboard's focus. */}
        <button type="submit" className="button button-primary">
          Run
        </button>
      </div>
    </form>
  );
}

function DimensionOptions({ except }: { except?: Dimension }) {
  return DIMENSIONS.filter((d) => d.name !== except).map((d) => (
    <option key={d.name} value={d.name}>
      {dimensionLabel(d.name)}
    </option>
  ));
}

/** One condition: a dimension, how it compares and a value (empty: no condition). */
function FilterFields({
  where,
  onWhereChange,
  op,
  onOpChange,
  value,
  onValueChange,
}: {
  where: Dimension;
  onWhereChange: (dimension: Dimension) => void;
  op: Condition;
  onOpChange: (op: Condition) => void;
  value: string;
  onValueChange: (value: string) => void;
}) {
  const ids = { where: useId(), op: useId(), value: useId(), valueHint: useId() };
  return (
    <fieldset className="explore-filter">
      <legend>Filter</legend>
      <div className="field">
        <label htmlFor={ids.where}>Filter by</label>
        <select
          id={ids.where}
          value={where}
          onChange={(event) => onWhereChange(event.target.value as Dimension)}
        >
          <DimensionOptions />
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.op}>Condition</label>
        <select
          id={ids.op}
          value={op}
          onChange={(event) => onOpChange(event.target.value as Condition)}
        >
          {CONDITIONS.map((c) => (
            <option key={c.op} value={c.op}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-wide">
        <label htmlFor={ids.value}>Value</label>
        <input
          id={ids.value}
          type="text"
          maxLength={500}
          aria-describedby={ids.valueHint}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
        />
      </div>
      <p id={ids.valueHint} className="hint">
        Empty: no filter. Values are compared as the table shows them: a country as its two-letter
        code, no source as “direct”, an unknown country or browser as “unknown”, a missing UTM value
        as “(none)”. “Contains” and “does not contain” ignore case; “is” and “is not” do not.
      </p>
    </fieldset>
  );
}

function RangeField({ range, onChange }: { range: string; onChange: (range: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Date range</label>
      <select id={id} value={range} onChange={(event) => onChange(event.target.value)}>
        {RANGES.map((r) => (
          <option key={r.param} value={r.param}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}
