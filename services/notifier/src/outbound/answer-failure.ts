import { isRetryableStatus, SendError } from '../channels/send-error';
import { backoffUntil } from './backoff-headers';
import type { PostAnswer } from './post-json';

/**
 * The error of a non-2xx answer: retryable for 5xx/429, permanent for any other 4xx (and for a
 * 3xx, since redirects are never followed), carrying the receiver's back-off when it sent one.
 * `make` builds the channel's own error class.
 */
export function answerFailure<E extends SendError>(
  answer: PostAnswer,
  message: string,
  make: (message: string, kind: 'permanent' | 'transient', options: { notBefore: Date | null }) => E,
): E {
  return make(message, isRetryableStatus(answer.status) ? 'transient' : 'permanent', {
    notBefore: backoffUntil(answer.status, answer.headers),
  });
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;
