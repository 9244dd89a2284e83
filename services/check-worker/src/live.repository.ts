import type { DataSource, MonitorStatus } from '@uptime/db';

/** A monitor as a batch left it, with its organization: what a live update names. */
export interface MonitorNow {
  id: number;
  organization_id: number;
  status: MonitorStatus;
  in_maintenance: boolean;
}

/** The monitors' organization and state, read after their batch committed (live-publisher.ts). */
export function readMonitorsNow(ds: DataSource, ids: number[]): Promise<MonitorNow[]> {
  return ds.query(`SELECT id, organization_id, status, in_maintenance FROM monitors WHERE id = ANY($1)`, [ids]);
}
