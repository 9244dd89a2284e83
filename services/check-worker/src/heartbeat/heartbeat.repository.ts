import type { EntityManager, MonitorStatus } from '@uptime/db';

/** A heartbeat monitor as stepping its pings and its deadline needs it, read under its row lock. */
export interface HeartbeatRow {
  id: number;
  status: MonitorStatus;
  configVersion: number;
  period: number | null;
  cron: string | null;
  timezone: string | null;
  grace: number;
  dueAt: Date | null;
  startedAt: Date | null;
  /** heartbeat_pings.id of the last ping stepped. */
  cursor: string;
  /** The time of the last verdict; the next is at least 1 ms later (see laterThan). */
  lastVerdictAt: Date | null;
}

export interface PingRow {
  id: string;
  kind: 'success' | 'start' | 'fail' | 'exit';
  exitStatus: number | null;
  receivedAt: Date;
}

/**
 * Locks a heartbeat monitor's row: pings and deadlines of one monitor are stepped one at a time,
 * by whichever worker gets here first; the result batch that follows waits for this commit.
 */
export async function lockHeartbeat(em: EntityManager, monitorId: number): Promise<HeartbeatRow | null> {
  const [r]: {
    id: number;
    status: MonitorStatus;
    config_version: number;
    heartbeat_period: number | null;
    heartbeat_cron: string | null;
    heartbeat_timezone: string | null;
    heartbeat_grace: number | null;
    heartbeat_due_at: Date | null;
    heartbeat_started_at: Date | null;
    heartbeat_ping_cursor: string;
    heartbeat_last_verdict_at: Date | null;
  }[] = await em.query(
    `SELECT id, status, config_version, heartbeat_period, heartbeat_cron, heartbeat_timezone, heartbeat_grace, heartbeat_due_at, heartbeat_started_at, heartbeat_ping_cursor,
            heartbeat_last_verdict_at
       FROM monitors WHERE id = $1 AND type = 'heartbeat' FOR UPDATE`,
    [monitorId],
  );
  if (!r) return null;
  return {
    id: r.id,
    status: r.status,
    configVersion: r.config_version,
    period: r.heartbeat_period,
    cron: r.heartbeat_cron,
    timezone: r.heartbeat_timezone,
    grace: r.heartbeat_grace ?? 300,
    dueAt: r.heartbeat_due_at,
    startedAt: r.heartbeat_started_at,
    cursor: String(r.heartbeat_ping_cursor),
    lastVerdictAt: r.heartbeat_last_verdict_at,
  };
}

/** The monitor's pings after `cursor`, oldest first, at most `limit`. */
export async function pingsAfter(em: EntityManager, monitorId: number, cursor: string, limit: number): Promise<PingRow[]> {
  const rows: { id: string; kind: PingRow['kind']; exit_status: number | null; received_at: Date }[] = await em.query(
    `SELECT id, kind, exit_status, received_at FROM heartbeat_pings WHERE monitor_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [monitorId, cursor, limit],
  );
  return rows.map((r) => ({ id: String(r.id), kind: r.kind, exitStatus: r.exit_status, receivedAt: r.received_at }));
}

/** Saves what stepping decided: the cursor, the due time, an open start, and each finish's duration since its start. */
export async function saveHeartbeat(
  em: EntityManager,
  h: Pick<HeartbeatRow, 'id' | 'dueAt' | 'startedAt' | 'cursor' | 'lastVerdictAt'>,
  durations: readonly { pingId: string; ms: number }[],
): Promise<void> {
  await em.query(
    `UPDATE monitors SET heartbeat_due_at = $2, heartbeat_started_at = $3, heartbeat_ping_cursor = $4, heartbeat_last_verdict_at = $5 WHERE id = $1`,
    [h.id, h.dueAt, h.startedAt, h.cursor, h.lastVerdictAt],
  );
  if (durations.length > 0) {
    await em.query(`UPDATE heartbeat_pings p SET duration_ms = d.ms FROM unnest($1::bigint[], $2::int[]) AS d(id, ms) WHERE p.id = d.id`, [
      durations.map((d) => d.pingId),
      durations.map((d) => d.ms),
    ]);
  }
}
