/**
 * What a failed send means for its delivery:
 * - `permanent`: the receiver judged the request itself (a 4xx other than 429, a bad address);
 *   sending it again cannot succeed, so the delivery fails at once;
 * - `transient`: nothing reached the receiver, or it answered 5xx/429; retried;
 * - `ambiguous`: the request was written and then no answer came in time, so the receiver may
 *   have acted on it; retried (a duplicate beats a lost alert) and marked `possible_duplicate`.
 */
export type SendFailureKind = 'permanent' | 'transient' | 'ambiguous';

/** Why a channel's send failed; every channel throws this (or a subclass). */
export class SendError extends Error {
  /** From the receiver's Retry-After / X-RateLimit-Reset on a 429 or 503: nothing goes to it before. */
  readonly notBefore: Date | null;
  readonly isPermanent: boolean;

  constructor(
    message: string,
    readonly kind: SendFailureKind,
    options: { cause?: unknown; notBefore?: Date | null } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'SendError';
    this.notBefore = options.notBefore ?? null;
    this.isPermanent = kind === 'permanent';
  }
}

/** True for errors that sending again cannot fix. Unknown errors count as transient: retrying is the safe side. */
export const isPermanentSendError = (err: unknown): boolean => err instanceof SendError && err.kind === 'permanent';

/** How `err` leaves a delivery; an unknown error is transient. */
export const failureKindOf = (err: unknown): SendFailureKind => (err instanceof SendError ? err.kind : 'transient');

/** An HTTP status after which the same request may later succeed. */
export const isRetryableStatus = (status: number): boolean => status >= 500 || status === 429;
