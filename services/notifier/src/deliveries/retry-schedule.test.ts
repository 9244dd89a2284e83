import { isExhausted, MAX_ATTEMPTS, nextAttemptAt, retryDelayMs } from './retry-schedule';

describe('retry schedule', () => {
  it('doubles from 2 s and stops growing at an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([2000, 4000, 8000, 16000]);
    expect(retryDelayMs(40)).toBe(3600_000);
  });

  it('never schedules before the receiver asked', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(nextAttemptAt(1, null, now)).toEqual(new Date('2026-11-25T10:00:02Z'));
    expect(nextAttemptAt(1, new Date('2026-11-25T10:05:00Z'), now)).toEqual(new Date('2026-11-25T10:05:00Z'));
  });

  it('gives up after 10 attempts or past 24 hours', () => {
    const created = new Date('2026-11-25T10:00:00Z');
    expect(isExhausted(MAX_ATTEMPTS - 1, created, new Date('2026-11-25T11:00:00Z'))).toBe(false);
    expect(isExhausted(MAX_ATTEMPTS, created, new Date('2026-11-25T11:00:00Z'))).toBe(true);
    expect(isExhausted(3, created, new Date('2026-11-26T10:00:01Z'))).toBe(true);
  });
});
