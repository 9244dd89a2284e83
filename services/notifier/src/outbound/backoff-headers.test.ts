import { backoffUntil, MAX_BACKOFF_MS } from './backoff-headers';

const now = new Date('2026-11-25T10:00:00.000Z');

describe('backoffUntil', () => {
  it('reads Retry-After in seconds on a 429', () => {
    expect(backoffUntil(429, { 'retry-after': '7' }, now)).toEqual(new Date('2026-11-25T10:00:07.000Z'));
  });

  it('reads Retry-After as an HTTP date on a 503', () => {
    expect(backoffUntil(503, { 'retry-after': 'Wed, 25 Nov 2026 10:01:00 GMT' }, now)).toEqual(new Date('2026-11-25T10:01:00.000Z'));
  });

  it('reads X-RateLimit-Reset as a Unix time in seconds', () => {
    const reset = String(now.getTime() / 1000 + 30);
    expect(backoffUntil(429, { 'x-ratelimit-reset': reset }, now)).toEqual(new Date('2026-11-25T10:00:30.000Z'));
  });

  it('reads X-RateLimit-Reset as seconds to wait', () => {
    expect(backoffUntil(429, { 'x-ratelimit-reset': '12' }, now)).toEqual(new Date('2026-11-25T10:00:12.000Z'));
  });

  it('takes the later of the two headers', () => {
    expect(backoffUntil(429, { 'retry-after': '5', 'x-ratelimit-reset': '20' }, now)).toEqual(new Date('2026-11-25T10:00:20.000Z'));
  });

  it('ignores the headers on other statuses, garbage, and times already past', () => {
    expect(backoffUntil(500, { 'retry-after': '5' }, now)).toBeNull();
    expect(backoffUntil(429, { 'retry-after': 'soon' }, now)).toBeNull();
    expect(backoffUntil(429, { 'retry-after': 'Wed, 25 Nov 2026 09:00:00 GMT' }, now)).toBeNull();
    expect(backoffUntil(429, {}, now)).toBeNull();
  });

  it('caps a pause that is absurdly long', () => {
    expect(backoffUntil(429, { 'retry-after': '999999' }, now)).toEqual(new Date(now.getTime() + MAX_BACKOFF_MS));
  });
});
