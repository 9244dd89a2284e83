/** Raised when a write of results made no progress within its deadline (a hung connection). */
export class WriteDeadlineError extends Error {
  constructor(ms: number) {
    super(`writing results made no progress for ${ms} ms`);
    this.name = 'WriteDeadlineError';
  }
}

/**
 * Socket errors, and SQLSTATE classes 08 (connection exception), 57P0x (shutdown), 53300 (too
 * many connections) and 57014 (a statement cancelled: a batch's own statement_timeout, set to the
 * write deadline, so the same as a write past its deadline).
 */
const UNAVAILABLE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|08\w{3}|57P0[1-3]|53300|57014)$/;
/** node-postgres reports a lost or unobtainable connection in these words, without a code. */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|connection is insecure|not queryable/i;

/**
 * True when `error` says Postgres could not be reached or stopped answering, as opposed to a
 * write it refused (a bug of ours, a constraint): only the first is worth keeping results for.
 * Looks through TypeORM's wrapper (`driverError`) and one level of `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof WriteDeadlineError) return true;
  if (error === null || typeof error !== 'object') return false;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  return (driverError !== undefined && isDatabaseUnavailable(driverError)) || (cause !== undefined && cause !== error && isDatabaseUnavailable(cause));
}
