import { MAINTENANCE_REPEATS } from '@uptime/db';
import { DURATION_MAX, DURATION_MIN, MAX_WINDOW_MONITORS, NAME_MAX, REQUIRED_ON_CREATE, STARTS_AT_MAX, TIMEZONE_MAX, MaintenanceWindowFieldsDto } from '../maintenance-windows/maintenance-window.dto';
import type { MaintenanceWindowResponse } from '../maintenance-windows/maintenance-window.presenter';
import { UPCOMING_WINDOWS, type UpcomingWindow } from '../maintenance-windows/maintenance-windows.service';
import { annotate, schemaOfDto } from './dto-schema';
import { KEY_DESCRIPTION, keySchema, MANAGED_BY_DESCRIPTION, managedBySchema } from './resource-key-schemas';
import { arrayOf, enumOf, INT32_MAX, int, nullable, objectOf, str, timestamp, type JsonSchema } from './json-schema';

export const EXAMPLE_MAINTENANCE_WINDOW: MaintenanceWindowResponse = {
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

export const EXAMPLE_UPCOMING_WINDOW: UpcomingWindow = { id: 3, name: 'Database upgrade', starts_at: '2026-11-28T01:00:00.000Z', ends_at: '2026-11-28T02:30:00.000Z' };

const id = (): JsonSchema => int({ minimum: 1, maximum: INT32_MAX });
const name = (): JsonSchema => str({ minLength: 1, maxLength: NAME_MAX });
const weekdays = (): JsonSchema =>
  arrayOf(int({ minimum: 1, maximum: 7 }), { maxItems: 7, description: 'ISO weekdays, 1 = Monday … 7 = Sunday; only for weekly windows (empty: the weekday of starts_at)' });

/** The maintenance window schemas, answers and bodies, by component name (docs/alert-rules.md). */
export function maintenanceWindowSchemas(monitor: JsonSchema): Record<string, JsonSchema> {
  const generated = schemaOfDto(MaintenanceWindowFieldsDto);
  // IsISO8601 becomes an unbounded date-or-date-time oneOf; the field is a bounded date-time.
  const dto = { ...generated, properties: { ...generated.properties, starts_at: str({ format: 'date-time', maxLength: STARTS_AT_MAX }) } };
  const fields = annotate(dto, {
    monitor_ids: { description: '1 to 100 of your own monitors, without repeats' },
    starts_at: { description: 'The first occurrence; recurring ones start at its local time of day in `timezone`' },
    duration_minutes: { description: '1 minute to 1 week' },
    repeat: { description: 'none: once; daily; weekly: on `weekdays`' },
    weekdays: weekdays(),
    timezone: { maxLength: TIMEZONE_MAX, description: 'An IANA time zone; recurring windows keep their local time across daylight-saving changes' },
    key: { description: KEY_DESCRIPTION },
    managed_by: { description: MANAGED_BY_DESCRIPTION },
  });
  const monitorProps = (monitor.properties ?? {}) as Record<string, JsonSchema>;
  return {
    MaintenanceWindow: objectOf<MaintenanceWindowResponse>(
      {
        id: id(),
        name: name(),
        monitor_ids: arrayOf(id(), { maxItems: MAX_WINDOW_MONITORS, description: 'Ascending' }),
        starts_at: timestamp(),
        duration_minutes: int({ minimum: DURATION_MIN, maximum: DURATION_MAX }),
        repeat: enumOf(MAINTENANCE_REPEATS),
        weekdays: weekdays(),
        timezone: str({ maxLength: TIMEZONE_MAX }),
        key: keySchema(),
        managed_by: managedBySchema(),
        next_occurrence: nullable(
          objectOf<{ starts_at: string; ends_at: string }>(
            { starts_at: timestamp(), ends_at: timestamp() },
            { description: 'The occurrence in progress, else the next one; null once a one-off window is over' },
          ),
        ),
        created_at: timestamp(),
        updated_at: timestamp(),
      },
      { description: 'Planned maintenance: checks go on, alerts and statistics leave them out (docs/alert-rules.md)' },
    ),
    MonitorDetail: {
      ...monitor,
      properties: {
        ...monitorProps,
        maintenance: arrayOf(
          objectOf<UpcomingWindow>({ id: id(), name: name(), starts_at: timestamp(), ends_at: timestamp() }),
          { maxItems: UPCOMING_WINDOWS, description: 'The next 5 occurrences of its maintenance windows, an active one first' },
        ),
      },
      required: [...Object.keys(monitorProps), 'maintenance'],
      description: 'A monitor with its upcoming maintenance (docs/monitors.md)',
    },
    MaintenanceWindowCreate: { ...annotate(fields, {}, REQUIRED_ON_CREATE), description: 'A new maintenance window' },
    MaintenanceWindowUpdate: { ...fields, description: 'PUT and PATCH: a partial body; monitor_ids replaces the list' },
  };
}
