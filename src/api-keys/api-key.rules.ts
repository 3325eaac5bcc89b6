import { ValidationError } from '../errors/app-error';

/** spec.md, Limits: "API key name: 1 to 255 characters". */
export const API_KEY_NAME_MAX = 255;
/** spec.md, Limits: standard key expiry "1 to 365 days ahead; default none". */
export const API_KEY_EXPIRY_MIN_DAYS = 1;
export const API_KEY_EXPIRY_MAX_DAYS = 365;
/** spec.md, Limits: "Quick-connection key lifetime: exactly 365 days". */
export const QUICK_KEY_LIFETIME_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The expiry of a standard key from what the person picked, or null for "never".
 * A calendar date `YYYY-MM-DD` (the dialog's date field) must be 1 to 365 days after today (UTC)
 * and the key expires at the start of that day, UTC. An exact ISO time must lie 1 to 365 days ahead.
 */
export function standardKeyExpiry(input: string | null | undefined, now: Date): Date | null {
  if (input === undefined || input === null || input === '') return null;
  const dateOnly = DATE_ONLY.test(input);
  const expiresAt = new Date(dateOnly ? `${input}T00:00:00.000Z` : input);
  if (Number.isNaN(expiresAt.getTime())) {
    throw ValidationError.of('Expires in must be a date.', 'apiKeyExpiryInvalid', ['expiresAt']);
  }
  const daysAhead = dateOnly
    ? Math.round((expiresAt.getTime() - startOfUtcDay(now).getTime()) / DAY_MS)
    : (expiresAt.getTime() - now.getTime()) / DAY_MS;
  if (daysAhead < API_KEY_EXPIRY_MIN_DAYS) {
    throw ValidationError.of('Expires in must lie at least 1 day ahead.', 'apiKeyExpiryTooSoon', [
      'expiresAt',
    ]);
  }
  if (daysAhead > API_KEY_EXPIRY_MAX_DAYS) {
    throw ValidationError.of('Expires in must lie at most 365 days ahead.', 'apiKeyExpiryTooLate', [
      'expiresAt',
    ]);
  }
  return expiresAt;
}

function startOfUtcDay(time: Date): Date {
  return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
}

/** A quick-connection key expires exactly 365 days after creation. */
export function quickKeyExpiry(now: Date): Date {
  return new Date(now.getTime() + QUICK_KEY_LIFETIME_DAYS * DAY_MS);
}

export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
