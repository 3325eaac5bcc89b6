import { ValidationError } from '../app-error';

/** docs/api.md#limits: "API key name: 1 to 255 characters". */
export const API_KEY_NAME_MAX = 255;
/** docs/api.md#limits: standard key expiry "1 to 365 days ahead; default none". */
export const API_KEY_EXPIRY_MIN_DAYS = 1;
export const API_KEY_EXPIRY_MAX_DAYS = 365;
/** docs/api.md#limits: "Quick-connection key lifetime: exactly 365 days". */
export const QUICK_KEY_LIFETIME_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const expiryError = (message: string, customCode: string, path = 'expiresAt') =>
  ValidationError.of(message, customCode, [path]);

/**
 * The expiry of a standard key from what the person picked, or null for "never" (issue 10, hole 8:
 * "1 to 365 days ahead" holds for what is picked).
 * - A calendar date `YYYY-MM-DD` means the END of that day (23:59:59.999) in `timeZone` (an IANA
 *   name, the browser's; UTC when absent). It must lie 1 to 365 calendar days after today there,
 *   and its end at least 24 hours ahead (so "tomorrow", picked late in the day, still gives a day).
 * - An exact ISO time must lie at least 24 hours and at most 365 days ahead.
 */
export function standardKeyExpiry(
  input: string | null | undefined,
  now: Date,
  timeZone: string = 'UTC',
): Date | null {
  if (input === undefined || input === null || input === '') return null;
  if (DATE_ONLY.test(input)) {
    if (addDays(input, 0) !== input) throw expiryError('Expires in must be a date.', 'apiKeyExpiryInvalid');
    checkTimeZone(timeZone);
    const { min, max } = expiryDateRange(now, timeZone);
    if (input < min) {
      throw expiryError(
        `Expires in must be ${min} or later: the key works to the end of that day, at least 24 hours.`,
        'apiKeyExpiryTooSoon',
      );
    }
    if (input > max) {
      throw expiryError(`Expires in must be ${max} or earlier (365 days ahead).`, 'apiKeyExpiryTooLate');
    }
    return endOfZonedDay(input, timeZone);
  }
  const expiresAt = new Date(input);
  if (Number.isNaN(expiresAt.getTime())) {
    throw expiryError('Expires in must be a date.', 'apiKeyExpiryInvalid');
  }
  const ahead = expiresAt.getTime() - now.getTime();
  if (ahead < API_KEY_EXPIRY_MIN_DAYS * DAY_MS) {
    throw expiryError('Expires in must lie at least 24 hours ahead.', 'apiKeyExpiryTooSoon');
  }
  if (ahead > API_KEY_EXPIRY_MAX_DAYS * DAY_MS) {
    throw expiryError('Expires in must lie at most 365 days ahead.', 'apiKeyExpiryTooLate');
  }
  return expiresAt;
}

/**
 * The dates a person in `timeZone` may pick (the date field's `min` and `max`): from the first day
 * after today whose end is at least 24 hours away, to today + 365 days.
 */
export function expiryDateRange(now: Date, timeZone: string): { min: string; max: string } {
  const today = zonedDate(now, timeZone);
  let min = addDays(today, API_KEY_EXPIRY_MIN_DAYS);
  // Only a short day (a DST change) right before midnight needs a second step.
  while (endOfZonedDay(min, timeZone).getTime() - now.getTime() < API_KEY_EXPIRY_MIN_DAYS * DAY_MS) {
    min = addDays(min, 1);
  }
  return { min, max: addDays(today, API_KEY_EXPIRY_MAX_DAYS) };
}

function checkTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw expiryError(
      `${timeZone} is not a time zone (IANA name, e.g. Europe/Berlin).`,
      'apiKeyTimeZoneInvalid',
      'timeZone',
    );
  }
}

/** `YYYY-MM-DD` plus `days` calendar days (an impossible date such as 02-30 rolls over). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return moved.toISOString().slice(0, 10);
}

/** The wall-clock fields of `instant` in `timeZone`, as if they were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
}

/** Today's date `YYYY-MM-DD` in `timeZone`. */
export function zonedDate(now: Date, timeZone: string): string {
  return new Date(wallClock(now.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** The first instant of `date` in `timeZone`. */
function startOfZonedDay(date: string, timeZone: string): Date {
  const midnight = Date.parse(`${date}T00:00:00.000Z`);
  const offsetAt = (instant: number) =>
    wallClock(instant - (instant % 1000), timeZone) - (instant - (instant % 1000));
  const guess = midnight - offsetAt(midnight);
  return new Date(midnight - offsetAt(guess)); // again at the guess: the offset may differ there (DST)
}

/** The last millisecond of `date` in `timeZone`: the key works through the whole day. */
export function endOfZonedDay(date: string, timeZone: string): Date {
  return new Date(startOfZonedDay(addDays(date, 1), timeZone).getTime() - 1);
}

/** A quick-connection key expires exactly 365 days after creation. */
export function quickKeyExpiry(now: Date): Date {
  return new Date(now.getTime() + QUICK_KEY_LIFETIME_DAYS * DAY_MS);
}

export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
