/**
 * The instant a date filter means. A date-only bound covers its whole day (UTC):
 * `createdTo=2026-11-21` includes that day; a date-time is taken as it is.
 */
export const dateBound = (value: string, end: boolean): Date =>
  /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`)
    : new Date(value);
