/** Postgres' unique_violation (SQLSTATE 23505). */
const UNIQUE_VIOLATION = '23505';

/**
 * Whether `err` is a unique constraint violation: from `pg` directly (`code`) or wrapped by
 * TypeORM in a QueryFailedError (`driverError.code`).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, driverError } = err as { code?: unknown; driverError?: { code?: unknown } };
  return code === UNIQUE_VIOLATION || driverError?.code === UNIQUE_VIOLATION;
}
