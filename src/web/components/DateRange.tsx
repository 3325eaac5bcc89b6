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
      <label>
        <span className="visually-hidden">{label} from</span>
        <input
          type="date"
          value={from}
          max={to || undefined}
          onChange={(event) => onFrom(event.target.value)}
          data-testid={`${testId}-from`}
        />
      </label>
      <span className="muted">to</span>
      <label>
        <span className="visually-hidden">{label} to</span>
        <input
          type="date"
          value={to}
          min={from || undefined}
          onChange={(event) => onTo(event.target.value)}
          data-testid={`${testId}-to`}
        />
      </label>
    </fieldset>
  );
}
