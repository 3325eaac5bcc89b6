import { rateLimitError, type AppError } from '../shared/app-error';

/** docs/api.md#errors: overload answers 429 rate_limit with exactly this message. */
export const BUSY_MESSAGE = 'The service is busy. Retry the request shortly.';
export const BUSY_RETRY_AFTER_SECONDS = 2;

// PostgreSQL SQLSTATEs for "waited too long behind someone else".
const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';

/**
 * Recognises the database's overload signals (pool acquire timeout, lock or statement timeout)
 * so they answer the spec's busy refusal instead of a bare 500.
 */
export function busyErrorFrom(error: unknown): AppError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code =
    (error as { code?: unknown }).code ?? (error as { driverError?: { code?: unknown } }).driverError?.code;
  const poolTimeout =
    /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(
      error.message,
    );
  if (poolTimeout || code === LOCK_NOT_AVAILABLE || code === QUERY_CANCELED) {
    return rateLimitError(BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, undefined, 'databaseBusy');
  }
  return undefined;
}
