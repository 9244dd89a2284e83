import type { DataSource } from '@uptime/db';

/** What a ping says (docs/heartbeats.md, "Ping routes"). */
export type PingKind = 'success' | 'start' | 'fail' | 'exit';

export interface PingInput {
  token: string;
  kind: PingKind;
  exitStatus: number | null;
  sourceIp: string | null;
  userAgent: string | null;
  /** The body kept (at most 10 KiB of it), null when none came. */
  body: string | null;
  bodySize: number;
  bodyTruncated: boolean;
}

/**
 * Records a ping for the heartbeat monitor whose token it names, in one statement that both finds
 * the monitor and writes the row: an unknown token costs the same index probe and writes nothing.
 * The table's trigger adds the ping to heartbeat_ping_inbox, which the check-worker steps from
 * (packages/db/src/migrations/1796520300000-heartbeat-ping-inbox.ts). The foreign key's check
 * takes a KEY SHARE lock on the monitor's row, which the check-worker's step (FOR NO KEY UPDATE)
 * does not hold against it: a ping never waits for a step. Returns the ping's id and monitor, or
 * null for an unknown token.
 */
export async function insertPing(ds: DataSource, p: PingInput): Promise<{ id: string; monitorId: number } | null> {
  const rows: { id: string; monitor_id: number }[] = await ds.query(
    `INSERT INTO heartbeat_pings (monitor_id, kind, exit_status, source_ip, user_agent, body, body_size, body_truncated)
     SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM monitors WHERE heartbeat_token = $1 AND type = 'heartbeat'
     RETURNING id, monitor_id`,
    [p.token, p.kind, p.exitStatus, p.sourceIp, p.userAgent, p.body, p.bodySize, p.bodyTruncated],
  );
  const row = rows[0];
  return row ? { id: String(row.id), monitorId: row.monitor_id } : null;
}

/** A recorded ping as the results list shows it (docs/heartbeats.md, "History"). */
export interface PingView {
  id: string;
  receivedAt: Date;
  kind: PingKind;
  exitStatus: number | null;
  durationMs: number | null;
  sourceIp: string | null;
  userAgent: string | null;
  bodySize: number;
  bodyTruncated: boolean;
  maintenance?: boolean;
}

const SELECT_PING = `SELECT id, received_at AS "receivedAt", kind, exit_status AS "exitStatus", duration_ms AS "durationMs", source_ip AS "sourceIp",
  user_agent AS "userAgent", body_size AS "bodySize", body_truncated AS "bodyTruncated" FROM heartbeat_pings`;

/** One page of a monitor's pings, newest first, and how many it has. */
export async function pingRows(ds: DataSource, monitorId: number, page: { limit: number; offset: number }): Promise<{ items: PingView[]; total: number }> {
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_PING} WHERE monitor_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [monitorId, page.limit, page.offset]) as Promise<PingView[]>,
    ds.query(`SELECT count(*)::int AS total FROM heartbeat_pings WHERE monitor_id = $1`, [monitorId]) as Promise<{ total: number }[]>,
  ]);
  return { items: items.map((p) => ({ ...p, id: String(p.id) })), total: counted[0]?.total ?? 0 };
}

/** One ping of the monitor with the body kept from it, or null. */
export async function pingWithBody(ds: DataSource, monitorId: number, pingId: string): Promise<(PingView & { body: string | null }) | null> {
  const [row]: (PingView & { body: string | null })[] = await ds.query(`${SELECT_PING.replace(' FROM', ', body FROM')} WHERE monitor_id = $1 AND id = $2::bigint`, [monitorId, pingId]);
  return row ? { ...row, id: String(row.id) } : null;
}
