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

/** A time; `seconds` where they matter (delivery attempts and their retries). */
export function DateTime({ value, testId, seconds }: { value: string; testId?: string; seconds?: boolean }) {
  return (
    <time dateTime={value} title={value} data-testid={testId}>
      {(seconds ? dateTimeWithSeconds : dateTime).format(new Date(value))}
    </time>
  );
}
