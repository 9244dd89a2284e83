import type { DataSource } from '@uptime/db';

/** The organization of a monitor, whose live channel hears of its notifications; null once deleted. */
export async function organizationOfMonitor(ds: DataSource, monitorId: number): Promise<number | null> {
  const [row] = (await ds.query(`SELECT organization_id FROM monitors WHERE id = $1`, [monitorId])) as { organization_id: number }[];
  return row?.organization_id ?? null;
}
