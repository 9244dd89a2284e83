import { cronProblem, heartbeatDeadline, isTimeZone, nextDueAfter, nextExpectedTimes } from '../src';

const iso = (dates: Date[]): string[] => dates.map((d) => d.toISOString());

describe('heartbeat schedule', () => {
  it('a period: due one period after each success', () => {
    expect(iso(nextExpectedTimes({ period: 90 }, new Date('2026-11-22T10:00:00.000Z'), 3))).toEqual([
      '2026-11-22T10:01:30.000Z',
      '2026-11-22T10:03:00.000Z',
      '2026-11-22T10:04:30.000Z',
    ]);
  });

  describe.each([
    // Europe/Berlin: clocks go forward 2026-03-29 02:00 → 03:00 and back 2026-10-25 03:00 → 02:00.
    ['Europe/Berlin', '2026-03-28T12:00:00Z', '2026-10-24T12:00:00Z', ['2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z'], ['2026-10-25T01:30:00.000Z', '2026-10-26T01:30:00.000Z']],
    // America/New_York: forward 2026-03-08 02:00 → 03:00, back 2026-11-01 02:00 → 01:00.
    ['America/New_York', '2026-03-07T12:00:00Z', '2026-10-31T12:00:00Z', ['2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z'], ['2026-11-01T07:30:00.000Z', '2026-11-02T07:30:00.000Z']],
  ])('a daily 02:30 cron in %s', (timezone, beforeSpring, beforeFall, spring, fall) => {
    it('is expected once on the night the clocks skip 02:30 (at 03:30 local), never twice', () => {
      expect(iso(nextExpectedTimes({ cron: '30 2 * * *', timezone }, new Date(beforeSpring), 2))).toEqual(spring);
    });
    it('is expected once on the night the clocks go back', () => {
      expect(iso(nextExpectedTimes({ cron: '30 2 * * *', timezone }, new Date(beforeFall), 2))).toEqual(fall);
    });
  });

  it('a 01:30 cron in New York is expected once on the night 01:30 comes twice', () => {
    expect(iso(nextExpectedTimes({ cron: '30 1 * * *', timezone: 'America/New_York' }, new Date('2026-10-31T12:00:00Z'), 2))).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('reads a cron in UTC without a zone', () => {
    expect(nextDueAfter({ cron: '0 3 * * 1-5' }, new Date('2026-11-21T12:00:00Z'))?.toISOString()).toBe('2026-11-23T03:00:00.000Z');
  });

  it('refuses what is not a 5-field cron, and names IANA zones', () => {
    expect(cronProblem('*/5 * * * *')).toBeNull();
    expect(cronProblem('* * * *')).toMatch(/5 fields/);
    expect(cronProblem('0 0 * * * *')).toMatch(/5 fields/);
    expect(cronProblem('61 * * * *')).toMatch(/not a cron expression/);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('a deadline: due + grace, or an unfinished start + grace when sooner, or none', () => {
    const due = new Date('2026-11-22T10:01:00.000Z');
    expect(heartbeatDeadline({ heartbeatDueAt: due, heartbeatStartedAt: null, heartbeatGrace: 30 })?.toISOString()).toBe('2026-11-22T10:01:30.000Z');
    expect(heartbeatDeadline({ heartbeatDueAt: due, heartbeatStartedAt: new Date('2026-11-22T10:00:10.000Z'), heartbeatGrace: 30 })?.toISOString()).toBe('2026-11-22T10:00:40.000Z');
    expect(heartbeatDeadline({ heartbeatDueAt: null, heartbeatStartedAt: null, heartbeatGrace: 30 })).toBeNull();
  });
});
