// Times as people read them, with the exact ISO time kept in <time dateTime> (and its tooltip).
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

const dateTimeWithSeconds = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

const timeWithSeconds = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * A time, with its time zone; `seconds` where they matter (delivery attempts and their retries);
 * `soon` for a time that is about to come (a next attempt): only its time of day when that is today.
 */
export function DateTime({
  value,
  testId,
  seconds,
  soon,
}: {
  value: string;
  testId?: string;
  seconds?: boolean;
  soon?: boolean;
}) {
  const at = new Date(value);
  const format =
    soon && sameDay(at, new Date()) ? timeWithSeconds : seconds || soon ? dateTimeWithSeconds : dateTime;
  return (
    <time dateTime={value} title={value} data-testid={testId}>
      {format.format(at)}
    </time>
  );
}
