/** A delivery is given up (`failed`, with its last error) after this many attempts... */
export const MAX_ATTEMPTS = 10;
/** ...or once it is this old, whichever comes first. */
export const MAX_DELIVERY_AGE_MS = 24 * 3600_000;

const FIRST_RETRY_MS = 2_000;
const LONGEST_RETRY_MS = 3600_000;

/** Exponential: 2 s after the first attempt, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** When the next attempt may go, never before a receiver's own `notBefore`. */
export function nextAttemptAt(attempts: number, notBefore: Date | null, now: Date = new Date()): Date {
  const scheduled = now.getTime() + retryDelayMs(attempts);
  return new Date(Math.max(scheduled, notBefore?.getTime() ?? 0));
}

/** True when a delivery that just failed transiently must not be tried again. */
export function isExhausted(attempts: number, createdAt: Date, next: Date): boolean {
  return attempts >= MAX_ATTEMPTS || next.getTime() - createdAt.getTime() > MAX_DELIVERY_AGE_MS;
}
