import { activeOccurrence, upcomingOccurrences, type MaintenanceSchedule } from './maintenance-schedule';

const iso = (o: { startsAt: Date; endsAt: Date }) => [o.startsAt.toISOString(), o.endsAt.toISOString()];

describe('maintenance schedule', () => {
  it('keeps a weekly Berlin window at 22:00 local across the end of summer time', () => {
    // Saturday 2026-10-17 22:00 CEST (UTC+2); Berlin falls back to CET (UTC+1) on 2026-10-25.
    const w: MaintenanceSchedule = { startsAt: new Date('2026-10-17T20:00:00Z'), durationMinutes: 120, repeat: 'weekly', weekdays: [], timezone: 'Europe/Berlin' };
    expect(upcomingOccurrences(w, new Date('2026-10-01T00:00:00Z'), 3).map(iso)).toEqual([
      ['2026-10-17T20:00:00.000Z', '2026-10-17T22:00:00.000Z'],
      ['2026-10-24T20:00:00.000Z', '2026-10-24T22:00:00.000Z'],
      ['2026-10-31T21:00:00.000Z', '2026-10-31T23:00:00.000Z'],
    ]);
    expect(activeOccurrence(w, new Date('2026-10-31T20:30:00Z'))).toBeNull();
    expect(activeOccurrence(w, new Date('2026-10-31T21:30:00Z'))?.startsAt.toISOString()).toBe('2026-10-31T21:00:00.000Z');
  });

  it('follows the given weekdays and a New York spring-forward gap', () => {
    // Sundays and Wednesdays at 02:30 New York time; 2027-03-14 02:30 does not exist (EST→EDT at 02:00).
    const w: MaintenanceSchedule = { startsAt: new Date('2027-03-03T07:30:00Z'), durationMinutes: 30, repeat: 'weekly', weekdays: [3, 7], timezone: 'America/New_York' };
    expect(upcomingOccurrences(w, new Date('2027-03-01T00:00:00Z'), 5).map((o) => o.startsAt.toISOString())).toEqual([
      '2027-03-03T07:30:00.000Z', // Wed 02:30 EST
      '2027-03-07T07:30:00.000Z', // Sun 02:30 EST
      '2027-03-10T07:30:00.000Z', // Wed 02:30 EST
      '2027-03-14T07:30:00.000Z', // Sun: 02:30 is skipped, so 03:30 EDT, just after the gap
      '2027-03-17T06:30:00.000Z', // Wed 02:30 EDT
    ]);
  });

  it('runs a daily window spanning midnight and a one-off window once', () => {
    const daily: MaintenanceSchedule = { startsAt: new Date('2026-11-20T23:00:00Z'), durationMinutes: 90, repeat: 'daily', weekdays: [], timezone: 'UTC' };
    expect(activeOccurrence(daily, new Date('2026-11-23T00:15:00Z'))?.startsAt.toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(activeOccurrence(daily, new Date('2026-11-23T00:30:00Z'))).toBeNull();
    expect(activeOccurrence(daily, new Date('2026-11-20T22:59:59Z'))).toBeNull();
    const once: MaintenanceSchedule = { ...daily, repeat: 'none' };
    expect(upcomingOccurrences(once, new Date('2026-11-20T00:00:00Z'), 5).map(iso)).toEqual([['2026-11-20T23:00:00.000Z', '2026-11-21T00:30:00.000Z']]);
    expect(upcomingOccurrences(once, new Date('2026-11-21T00:30:00Z'), 5)).toEqual([]);
    expect(activeOccurrence(once, new Date('2026-11-21T23:30:00Z'))).toBeNull();
  });

  it('lists the active occurrence first', () => {
    const w: MaintenanceSchedule = { startsAt: new Date('2026-11-20T10:00:00Z'), durationMinutes: 60, repeat: 'daily', weekdays: [], timezone: 'Asia/Tokyo' };
    expect(upcomingOccurrences(w, new Date('2026-11-22T10:30:00Z'), 2).map((o) => o.startsAt.toISOString())).toEqual(['2026-11-22T10:00:00.000Z', '2026-11-23T10:00:00.000Z']);
  });
});
