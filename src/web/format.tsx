// Times as people read them, with the exact ISO time kept in <time dateTime> (and its tooltip).
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

export function DateTime({ value, testId }: { value: string; testId?: string }) {
  return (
    <time dateTime={value} title={value} data-testid={testId}>
      {dateTime.format(new Date(value))}
    </time>
  );
}
