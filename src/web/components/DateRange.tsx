// A filter on a date range: two local calendar days (`YYYY-MM-DD`), either may be empty.

/** "Created from … to …": two local calendar days, either may be empty. */
export function DateRange({
  label,
  from,
  to,
  onFrom,
  onTo,
  testId,
}: {
  label: string;
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  testId: string;
}) {
  return (
    <fieldset className="date-range" data-testid={testId}>
      <legend>{label}</legend>
      <DayField label={`${label} from`} value={from} max={to} onChange={onFrom} testId={`${testId}-from`} />
      <span className="muted">to</span>
      <DayField label={`${label} to`} value={to} min={from} onChange={onTo} testId={`${testId}-to`} />
    </fieldset>
  );
}

/** One end of the range; the other end (when set) bounds it. */
function DayField({
  label,
  value,
  min,
  max,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label>
      <span className="visually-hidden">{label}</span>
      <input
        type="date"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
    </label>
  );
}
