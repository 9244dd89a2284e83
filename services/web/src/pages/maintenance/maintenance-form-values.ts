import { BODY_BOUNDS, type Schema } from '@uptime/client';
import { addProblem, boundedIntegerProblem, choiceProblem, refusalsByField, textProblem, type FormErrors } from '../../app/field-checks';
import { instantOfLocal, localInputValue } from './zoned-time';

export type Repeat = Schema<'MaintenanceWindow'>['repeat'];

/** The maintenance window form as typed: the start as the window's own zone reads it. */
export interface MaintenanceFormValues {
  name: string;
  monitorIds: number[];
  /** A `datetime-local` value, in `timezone`. */
  startsAt: string;
  durationMinutes: string;
  repeat: Repeat;
  /** ISO weekdays, 1 = Monday … 7 = Sunday; weekly windows only. */
  weekdays: number[];
  timezone: string;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const REPEATS: { value: Repeat; label: string }[] = [
  { value: 'none', label: 'Once' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
];

/** A new window: in an hour, for an hour, once, in the user's time zone. */
export function emptyMaintenanceForm(timezone: string, now = new Date()): MaintenanceFormValues {
  const nextHour = new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  return { name: '', monitorIds: [], startsAt: localInputValue(nextHour, timezone), durationMinutes: '60', repeat: 'none', weekdays: [], timezone };
}

export const maintenanceToForm = (w: Schema<'MaintenanceWindow'>): MaintenanceFormValues => ({
  name: w.name,
  monitorIds: [...w.monitor_ids],
  startsAt: localInputValue(w.starts_at, w.timezone),
  durationMinutes: String(w.duration_minutes),
  repeat: w.repeat,
  weekdays: [...w.weekdays],
  timezone: w.timezone,
});

/**
 * The form's problems by the API's field names, all at once, before sending (docs/web.md,
 * "Forms"): the bounds of `MaintenanceWindowCreate` in the OpenAPI document, and a start the form
 * could not even send. Whether the monitors are yours is the API's to say.
 */
export function maintenanceFormErrors(values: MaintenanceFormValues): FormErrors {
  const bounds = BODY_BOUNDS.MaintenanceWindowCreate;
  const out: FormErrors = {};
  addProblem(out, 'name', textProblem(values.name, bounds.name, 'a name for the window'));
  addProblem(out, 'monitor_ids', choiceProblem(values.monitorIds.length, bounds.monitor_ids, 'monitor', 'monitors'));
  if (instantOfLocal(values.startsAt, values.timezone) === null) out.starts_at = ['Choose a date and a time'];
  addProblem(out, 'duration_minutes', boundedIntegerProblem(values.durationMinutes, bounds.duration_minutes, 'minutes'));
  return out;
}

/**
 * The body of a create or a full update: every field, `weekdays` only for a weekly window.
 * Call it on values without `maintenanceFormErrors()`.
 */
export function formToMaintenanceBody(values: MaintenanceFormValues): Schema<'MaintenanceWindowCreate'> {
  return {
    name: values.name.trim(),
    monitor_ids: [...values.monitorIds],
    starts_at: instantOfLocal(values.startsAt, values.timezone) ?? values.startsAt,
    duration_minutes: Number(values.durationMinutes.trim()),
    repeat: values.repeat,
    weekdays: values.repeat === 'weekly' ? [...values.weekdays].sort((a, b) => a - b) : [],
    timezone: values.timezone,
  };
}

/** The API's refusals by form field (`monitor_ids[2]` → monitor_ids), in the form's words. */
export const maintenanceFieldErrors = (err: unknown): FormErrors => refusalsByField(err, { unitOf: (field) => (field === 'duration_minutes' ? 'minutes' : '') });

/** "Every week on Monday, Thursday", "Every day", "Once". */
export function repeatSummary(w: Pick<Schema<'MaintenanceWindow'>, 'repeat' | 'weekdays'>): string {
  if (w.repeat === 'none') return 'Once';
  if (w.repeat === 'daily') return 'Every day';
  return w.weekdays.length === 0 ? 'Every week' : `Every week on ${w.weekdays.map((d) => WEEKDAYS[d - 1]).join(', ')}`;
}

export type Occurrence = Schema<'MaintenanceWindow'> & { next_occurrence: NonNullable<Schema<'MaintenanceWindow'>['next_occurrence']> };

/** Windows in progress (soonest end first), then those starting within `horizonMs`, soonest first. */
export function ongoingAndUpcoming(windows: Schema<'MaintenanceWindow'>[], now: number, horizonMs: number): { ongoing: Occurrence[]; upcoming: Occurrence[] } {
  const withNext = windows.filter((w): w is Occurrence => w.next_occurrence !== null);
  const startsIn = (w: Occurrence) => Date.parse(w.next_occurrence.starts_at) - now;
  return {
    ongoing: withNext.filter((w) => startsIn(w) <= 0).sort((a, b) => a.next_occurrence.ends_at.localeCompare(b.next_occurrence.ends_at)),
    upcoming: withNext.filter((w) => startsIn(w) > 0 && startsIn(w) <= horizonMs).sort((a, b) => startsIn(a) - startsIn(b)),
  };
}
