import type { DataSource, EntityManager, MonitorStatus } from '@uptime/db';

/** Stores the monitor's badge token hash, replacing its old one; returns the old hash (null when it had none). */
export async function replaceBadgeToken(ds: EntityManager, monitorId: number, tokenHash: string): Promise<string | null> {
  const [row]: { old_hash: string | null }[] = await ds.query(
    `WITH old AS (SELECT token_hash FROM monitor_badges WHERE monitor_id = $1)
     INSERT INTO monitor_badges (monitor_id, token_hash) VALUES ($1, $2)
     ON CONFLICT (monitor_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
     RETURNING (SELECT token_hash FROM old) AS old_hash`,
    [monitorId, tokenHash],
  );
  return row?.old_hash ?? null;
}

/** Deletes the monitor's badge and returns the token hashes it had (none or one). */
export async function deleteBadge(ds: EntityManager, monitorId: number): Promise<string[]> {
  const [rows]: [{ token_hash: string }[], number] = await ds.query(`DELETE FROM monitor_badges WHERE monitor_id = $1 RETURNING token_hash`, [monitorId]);
  return rows.map((r) => r.token_hash);
}

/** The monitor behind a badge token hash, with its status; undefined when the hash is unknown. */
export async function badgeMonitor(ds: DataSource, tokenHash: string): Promise<{ id: number; status: MonitorStatus; in_maintenance: boolean } | undefined> {
  const [monitor]: { id: number; status: MonitorStatus; in_maintenance: boolean }[] = await ds.query(
    `SELECT m.id, m.status, m.in_maintenance FROM monitor_badges b JOIN monitors m ON m.id = b.monitor_id WHERE b.token_hash = $1`,
    [tokenHash],
  );
  return monitor;
}

/** When the monitor's badge was made; undefined when it has none. */
export async function badgeCreatedAt(ds: DataSource, monitorId: number): Promise<Date | undefined> {
  const [row]: { created_at: Date }[] = await ds.query(`SELECT created_at FROM monitor_badges WHERE monitor_id = $1`, [monitorId]);
  return row?.created_at;
}
