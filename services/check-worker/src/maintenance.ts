import { activeOccurrence, type MaintenanceSchedule, type Occurrence } from '@uptime/db';

/** Each monitor's maintenance windows (docs/alert-rules.md), for the monitors of a batch. */
export type MaintenanceByMonitor = Map<number, MaintenanceSchedule[]>;

/** The maintenance covering the monitor at `at`: the active occurrence ending last, or null. */
export function maintenanceAt(windows: MaintenanceByMonitor, monitorId: number, at: Date): Occurrence | null {
  let found: Occurrence | null = null;
  for (const w of windows.get(monitorId) ?? []) {
    const o = activeOccurrence(w, at);
    if (o && (!found || o.endsAt > found.endsAt)) found = o;
  }
  return found;
}
