import { activeOccurrence, type EntityManager, type MaintenanceRepeat, type MaintenanceSchedule, type Occurrence } from '@uptime/db';

/** Each monitor's maintenance windows (docs/alert-rules.md), for the monitors of a batch. */
export type MaintenanceByMonitor = Map<number, MaintenanceSchedule[]>;

export async function loadMaintenance(em: EntityManager, monitorIds: number[]): Promise<MaintenanceByMonitor> {
  const rows: { monitor_id: number; starts_at: Date; duration_minutes: number; repeat: MaintenanceRepeat; weekdays: number[]; timezone: string }[] = await em.query(
    `SELECT wm.monitor_id, w.starts_at, w.duration_minutes, w.repeat, w.weekdays, w.timezone
       FROM maintenance_window_monitors wm JOIN maintenance_windows w ON w.id = wm.window_id
      WHERE wm.monitor_id = ANY($1)`,
    [monitorIds],
  );
  const byMonitor: MaintenanceByMonitor = new Map();
  for (const r of rows) {
    const list = byMonitor.get(r.monitor_id) ?? [];
    list.push({ startsAt: r.starts_at, durationMinutes: r.duration_minutes, repeat: r.repeat, weekdays: r.weekdays, timezone: r.timezone });
    byMonitor.set(r.monitor_id, list);
  }
  return byMonitor;
}

/** The maintenance covering the monitor at `at`: the active occurrence ending last, or null. */
export function maintenanceAt(windows: MaintenanceByMonitor, monitorId: number, at: Date): Occurrence | null {
  let found: Occurrence | null = null;
  for (const w of windows.get(monitorId) ?? []) {
    const o = activeOccurrence(w, at);
    if (o && (!found || o.endsAt > found.endsAt)) found = o;
  }
  return found;
}
