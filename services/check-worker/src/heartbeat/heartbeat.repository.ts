import { queryRows, type EntityManager, type MonitorStatus } from '@uptime/db';

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
  /** The time of the last verdict; the next is at least 1 ms later (see laterThan). */
  lastVerdictAt: Date | null;
}

export interface PingRow {
  /** heartbeat_pings.id (a bigint, as text). */
  id: string;
  kind: 'success' | 'start' | 'fail' | 'exit';
  exitStatus: number | null;
  receivedAt: Date;
}

/**
 * The monitors with pings waiting in the inbox, those waiting longest first, at most `limit`
 * (read from the oldest `limit` × 2 pings: a monitor pinged twice in a pass counts once).
 */
export async function monitorsWithPings(em: Pick<EntityManager, 'query'>, limit: number): Promise<number[]> {
  const rows: { monitor_id: number }[] = await em.query(
    `SELECT monitor_id FROM (SELECT monitor_id, ping_id FROM heartbeat_ping_inbox ORDER BY ping_id LIMIT $1) s GROUP BY monitor_id ORDER BY min(ping_id) LIMIT $2`,
    [limit * 2, limit],
  );
  return rows.map((r) => r.monitor_id);
}

/**
 * Locks the heartbeat monitors among `ids`, in id order (as the result batch does:
 * check-batch.repository.ts, lockMonitors), so passes and batches never deadlock. FOR NO KEY
 * UPDATE: a ping's insert, which checks its foreign key with a KEY SHARE lock on the row, is
 * never held behind a pass.
 */
export async function lockHeartbeats(em: EntityManager, ids: readonly number[]): Promise<Map<number, HeartbeatRow>> {
  const rows: {
    id: number;
    status: MonitorStatus;
    config_version: number;
    heartbeat_period: number | null;
    heartbeat_cron: string | null;
    heartbeat_timezone: string | null;
    heartbeat_grace: number | null;
    heartbeat_due_at: Date | null;
    heartbeat_started_at: Date | null;
    heartbeat_last_verdict_at: Date | null;
  }[] = await em.query(
    `SELECT id, status, config_version, heartbeat_period, heartbeat_cron, heartbeat_timezone, heartbeat_grace, heartbeat_due_at, heartbeat_started_at,
            heartbeat_last_verdict_at
       FROM monitors WHERE id = ANY($1) AND type = 'heartbeat' ORDER BY id FOR NO KEY UPDATE`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        status: r.status,
        configVersion: r.config_version,
        period: r.heartbeat_period,
        cron: r.heartbeat_cron,
        timezone: r.heartbeat_timezone,
        grace: r.heartbeat_grace ?? 300,
        dueAt: r.heartbeat_due_at,
        startedAt: r.heartbeat_started_at,
        lastVerdictAt: r.heartbeat_last_verdict_at,
      },
    ]),
  );
}

const byPingId = (a: PingRow, b: PingRow): number => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);

/**
 * Takes the waiting pings of `ids` out of the inbox, by monitor, oldest first. The rows are gone
 * only if the transaction commits: a pass that fails leaves them for the next.
 */
export async function takePings(em: EntityManager, ids: readonly number[]): Promise<Map<number, PingRow[]>> {
  const rows = await queryRows<{ ping_id: string; monitor_id: number; kind: PingRow['kind']; exit_status: number | null; received_at: Date }>(
    em,
    `DELETE FROM heartbeat_ping_inbox WHERE monitor_id = ANY($1) RETURNING ping_id, monitor_id, kind, exit_status, received_at`,
    [ids],
  );
  const byMonitor = new Map<number, PingRow[]>();
  for (const r of rows) {
    const list = byMonitor.get(r.monitor_id) ?? [];
    list.push({ id: String(r.ping_id), kind: r.kind, exitStatus: r.exit_status, receivedAt: r.received_at });
    byMonitor.set(r.monitor_id, list);
  }
  for (const list of byMonitor.values()) list.sort(byPingId);
  return byMonitor;
}

/** Saves what stepping decided for many monitors in one statement: the due time, an open start and the last verdict's time. */
export async function saveHeartbeats(em: EntityManager, rows: readonly Pick<HeartbeatRow, 'id' | 'dueAt' | 'startedAt' | 'lastVerdictAt'>[]): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
    `UPDATE monitors m SET heartbeat_due_at = v.due_at, heartbeat_started_at = v.started_at, heartbeat_last_verdict_at = v.last_verdict_at
       FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[]) AS v(id, due_at, started_at, last_verdict_at)
      WHERE m.id = v.id`,
    [rows.map((r) => r.id), rows.map((r) => r.dueAt), rows.map((r) => r.startedAt), rows.map((r) => r.lastVerdictAt)],
  );
}

/** Each finish's duration since the start it ends, in one statement. */
export async function saveDurations(em: EntityManager, durations: readonly { pingId: string; ms: number }[]): Promise<void> {
  if (durations.length === 0) return;
  await em.query(`UPDATE heartbeat_pings p SET duration_ms = d.ms FROM unnest($1::bigint[], $2::int[]) AS d(id, ms) WHERE p.id = d.id`, [
    durations.map((d) => d.pingId),
    durations.map((d) => d.ms),
  ]);
}
