import type { MaintenanceWindowRow } from './maintenance-windows.repository';

/** A maintenance window as its owner sees it. */
export function toMaintenanceWindowResponse(w: MaintenanceWindowRow) {
  return {
    id: w.id,
    name: w.name,
    monitor_ids: w.monitor_ids,
    starts_at: w.starts_at.toISOString(),
    duration_minutes: w.duration_minutes,
    repeat: w.repeat,
    weekdays: w.weekdays,
    timezone: w.timezone,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

export type MaintenanceWindowResponse = ReturnType<typeof toMaintenanceWindowResponse>;
