import { upcomingOccurrences } from '@uptime/db';
import type { MaintenanceWindowRow } from './maintenance-windows.repository';

/**
 * A maintenance window as its owner sees it, with the occurrence in progress at `now` or else
 * the next one (null once a one-off window is over): the web app lists ongoing and upcoming
 * maintenance from it without computing occurrences itself.
 */
export function toMaintenanceWindowResponse(w: MaintenanceWindowRow, now = new Date()) {
  const [next] = upcomingOccurrences(
    { startsAt: w.starts_at, durationMinutes: w.duration_minutes, repeat: w.repeat, weekdays: w.weekdays, timezone: w.timezone },
    now,
    1,
  );
  return {
    id: w.id,
    name: w.name,
    monitor_ids: w.monitor_ids,
    starts_at: w.starts_at.toISOString(),
    duration_minutes: w.duration_minutes,
    repeat: w.repeat,
    weekdays: w.weekdays,
    timezone: w.timezone,
    key: w.key,
    managed_by: w.managed_by,
    next_occurrence: next ? { starts_at: next.startsAt.toISOString(), ends_at: next.endsAt.toISOString() } : null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export type MaintenanceWindowResponse = ReturnType<typeof toMaintenanceWindowResponse>;
