import { ApiError } from '@uptime/client';

/** No answer at all (network down, api stopped). */
export class ApiUnreachableError extends Error {
  constructor() {
    super('The API cannot be reached. Check your connection; the page retries by itself.');
    this.name = 'ApiUnreachableError';
  }
}

/** Seconds to wait after a 429, from Retry-After (seconds or an HTTP date). */
export function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** An API error that also knows when a rate-limited request may be retried. */
export class RateLimitedError extends ApiError {
  constructor(
    body: unknown,
    readonly retryAfter: number | null,
  ) {
    super(429, body);
  }
}
