import type { Schema } from '@uptime/client';
import {
  emptyMaintenanceForm,
  formToMaintenanceBody,
  maintenanceFormErrors,
  maintenanceToForm,
  ongoingAndUpcoming,
  repeatSummary,
} from '../src/pages/maintenance/maintenance-form-values';

import { instantOfLocal, localInputValue } from '../src/pages/maintenance/zoned-time';

const WINDOW: Schema<'MaintenanceWindow'> = {
  id: 3,
  name: 'Database upgrade',
  monitor_ids: [42, 43],
  starts_at: '2026-11-28T01:00:00.000Z',
  duration_minutes: 90,
  repeat: 'weekly',
  weekdays: [6],
  timezone: 'Europe/Paris',
  key: 'db-upgrade',
  managed_by: 'config',
  next_occurrence: { starts_at: '2026-11-28T01:00:00.000Z', ends_at: '2026-11-28T02:30:00.000Z' },
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

describe('times in a window\'s own zone', () => {
  it('reads an instant as the zone\'s wall clock, in winter and in summer', () => {
    expect(localInputValue('2026-11-28T01:00:00.000Z', 'Europe/Paris')).toBe('2026-11-28T02:00');
    expect(localInputValue('2026-07-04T00:00:00.000Z', 'Europe/Paris')).toBe('2026-07-04T02:00');
    expect(localInputValue('2026-11-28T01:00:00.000Z', 'America/New_York')).toBe('2026-11-27T20:00');
  });

  it('turns a wall-clock time in the zone back into the instant, whatever the browser\'s zone', () => {
    expect(instantOfLocal('2026-11-28T02:00', 'Europe/Paris')).toBe('2026-11-28T01:00:00.000Z');
    expect(instantOfLocal('2026-07-04T02:00', 'Europe/Paris')).toBe('2026-07-04T00:00:00.000Z');
    expect(instantOfLocal('2026-11-27T20:00', 'America/New_York')).toBe('2026-11-28T01:00:00.000Z');
    expect(instantOfLocal('2026-11-28T02:00', 'UTC')).toBe('2026-11-28T02:00:00.000Z');
    expect(instantOfLocal('', 'UTC')).toBeNull();
    expect(instantOfLocal('tomorrow', 'UTC')).toBeNull();
  });
});

describe('the maintenance form', () => {
  it('round-trips a window into the same body', () => {
    // The form leaves a file's key and managed_by as they are (docs/config-as-code.md).
    const { next_occurrence: _n, id: _i, created_at: _c, updated_at: _u, key: _k, managed_by: _m, ...fields } = WINDOW;
    expect(formToMaintenanceBody(maintenanceToForm(WINDOW))).toEqual(fields);
  });

  it('sends weekdays only for a weekly window, sorted', () => {
    const form = { ...maintenanceToForm(WINDOW), weekdays: [7, 1] };
    expect(formToMaintenanceBody(form).weekdays).toEqual([1, 7]);
    expect(formToMaintenanceBody({ ...form, repeat: 'daily' }).weekdays).toEqual([]);
  });

  it('starts a new window at the next full hour of the user\'s zone, once, for an hour', () => {
    const form = emptyMaintenanceForm('Asia/Kolkata', new Date('2026-11-28T10:20:00Z'));
    expect(form).toMatchObject({ startsAt: '2026-11-28T16:30', durationMinutes: '60', repeat: 'none', timezone: 'Asia/Kolkata' });
    expect(formToMaintenanceBody(form).starts_at).toBe('2026-11-28T11:00:00.000Z');
  });

  it('names a missing start and a duration that is not a number before sending, together', () => {
    const form = { ...maintenanceToForm(WINDOW), startsAt: '', durationMinutes: 'an hour' };
    expect(maintenanceFormErrors(form)).toEqual({ starts_at: ['Choose a date and a time'], duration_minutes: ['A whole number of minutes, 1 to 10080'] });
    expect(maintenanceFormErrors(maintenanceToForm(WINDOW))).toEqual({});
  });

  it('names an empty form\'s every problem at once, in words, by the bounds of the OpenAPI document', () => {
    const empty = { ...emptyMaintenanceForm('UTC'), durationMinutes: '' };
    expect(maintenanceFormErrors(empty)).toEqual({
      name: ['Required: a name for the window'],
      monitor_ids: ['Choose at least one monitor'],
      duration_minutes: ['Required: a number of minutes, 1 to 10080'],
    });
    const long = { ...maintenanceToForm(WINDOW), name: 'x'.repeat(201), durationMinutes: '10081' };
    expect(maintenanceFormErrors(long)).toEqual({ name: ['At most 200 characters (now 201)'], duration_minutes: ['At most 10080 minutes'] });
    expect(maintenanceFormErrors({ ...maintenanceToForm(WINDOW), durationMinutes: '0' })).toEqual({ duration_minutes: ['At least 1 minute'] });
  });

  it('says how a window repeats', () => {
    expect(repeatSummary(WINDOW)).toBe('Every week on Saturday');
    expect(repeatSummary({ repeat: 'weekly', weekdays: [1, 4] })).toBe('Every week on Monday, Thursday');
    expect(repeatSummary({ repeat: 'daily', weekdays: [] })).toBe('Every day');
    expect(repeatSummary({ repeat: 'none', weekdays: [] })).toBe('Once');
  });
});

describe('ongoing and upcoming maintenance', () => {
  const at = (id: number, starts: string, ends: string | null) => ({
    ...WINDOW,
    id,
    next_occurrence: ends === null ? null : { starts_at: starts, ends_at: ends },
  });
  it('splits windows in progress from those starting within the horizon, and leaves the rest out', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const { ongoing, upcoming } = ongoingAndUpcoming(
      [
        at(1, '2026-11-28T11:00:00Z', '2026-11-28T14:00:00Z'),
        at(2, '2026-11-28T11:30:00Z', '2026-11-28T12:30:00Z'),
        at(3, '2026-11-29T09:00:00Z', '2026-11-29T10:00:00Z'),
        at(4, '2026-11-28T13:00:00Z', '2026-11-28T14:00:00Z'),
        at(5, '2026-12-20T09:00:00Z', '2026-12-20T10:00:00Z'),
        at(6, '', null),
      ],
      now,
      7 * 86_400_000,
    );
    expect(ongoing.map((w) => w.id)).toEqual([2, 1]);
    expect(upcoming.map((w) => w.id)).toEqual([4, 3]);
  });
});
