/** PostgreSQL's unique_violation (23505), as TypeORM's QueryFailedError or the raw driver error carries it. */
const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  const failed = error as { code?: unknown; driverError?: { code?: unknown } };
  return failed.driverError?.code === UNIQUE_VIOLATION || failed.code === UNIQUE_VIOLATION;
}
