import { ApiError } from '@uptime/client';
import { errorMessage, fieldErrors, isUnauthorized, shouldRetry } from '../src/app/errors';
import { ApiUnreachableError, RateLimitedError, retryAfterSeconds } from '../src/app/failures';

const envelope = (code: string, message: string, details?: unknown) => ({
  error: { code, message, details },
  meta: { timestamp: '2026-11-22T10:00:00.000Z', request_id: 'r' },
});

describe('what the app tells a person about a failed request', () => {
  it('says how long to wait after a 429, from Retry-After in seconds or as a date', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(retryAfterSeconds(new Headers({ 'Retry-After': '42' }))).toBe(42);
    expect(retryAfterSeconds(new Headers({ 'Retry-After': new Date(Date.now() + 90_000).toUTCString() }))).toBeGreaterThanOrEqual(89);
    expect(retryAfterSeconds(new Headers())).toBeNull();
    const message = errorMessage(new RateLimitedError(envelope('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded'), 42), now);
    expect(message).toMatch(/^Too many requests\. Try again in 42 s \(at .+\)\.$/);
    expect(errorMessage(new RateLimitedError(undefined, null), now)).toBe('Too many requests. Try again in a moment.');
  });

  it("shows the API's own message, and a plain one when nothing answered", () => {
    expect(errorMessage(new ApiError(409, envelope('INVALID_STATE', 'The monitor is already paused')))).toBe(
      'The monitor is already paused',
    );
    expect(errorMessage(new ApiError(502, 'Bad gateway'))).toBe('The API answered 502.');
    expect(errorMessage(new ApiUnreachableError())).toMatch(/cannot be reached/);
  });

  it('takes field messages from a VALIDATION_ERROR only', () => {
    const refused = new ApiError(
      400,
      envelope('VALIDATION_ERROR', 'Invalid body: timeout', { timeout: ['timeout must not be less than 5'] }),
    );
    expect(fieldErrors(refused)).toEqual({ timeout: ['timeout must not be less than 5'] });
    expect(fieldErrors(new ApiError(400, envelope('INVALID_MONITOR_TYPE', 'Unsupported type', { field: 'type', value: 'tcp' })))).toEqual(
      {},
    );
    expect(fieldErrors(new Error('x'))).toEqual({});
    expect(isUnauthorized(new ApiError(401, envelope('UNAUTHORIZED', 'No session')))).toBe(true);
    expect(isUnauthorized(refused)).toBe(false);
  });

  it('retries only when nothing or a server error answered', () => {
    expect(shouldRetry(0, new ApiUnreachableError())).toBe(true);
    expect(shouldRetry(1, new ApiError(503, envelope('SERVICE_UNAVAILABLE', 'Down')))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, envelope('SERVICE_UNAVAILABLE', 'Down')))).toBe(false);
    expect(shouldRetry(0, new RateLimitedError(undefined, 30))).toBe(false);
    expect(shouldRetry(0, new ApiError(401, envelope('UNAUTHORIZED', 'No session')))).toBe(false);
  });
});
