// The Deliveries page's created filter when a chart bar or the Dashboard set exact times (an hour,
// a UTC day, the last 24 hours): shown as those times, with a way back to any date.
import { DateTime } from '../../format';

export function CreatedTimes({
  from,
  to,
  onClear,
  testId,
}: {
  from: string;
  to: string;
  onClear: () => void;
  testId: string;
}) {
  return (
    <fieldset className="date-range" data-testid={testId}>
      <legend>Created</legend>
      {from ? <DateTime value={from} testId={`${testId}-from`} /> : <span className="muted">any time</span>}
      <span className="muted">to</span>
      {to ? <DateTime value={to} testId={`${testId}-to`} /> : <span className="muted">now</span>}
      <button type="button" className="link-button" onClick={onClear} data-testid={`${testId}-clear`}>
        Any date
      </button>
    </fieldset>
  );
}
