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
 * Records pings, each for the heartbeat monitor whose token it names, in one statement that both
 * finds the monitors and writes the rows: an unknown token costs the same index probe and writes
 * nothing. Pings of one batch are written in the order given, so a monitor's pings keep their
 * order in the inbox. The table's trigger adds each ping to heartbeat_ping_inbox, which the
 * check-worker steps from (packages/db/src/migrations/1796520300000-heartbeat-ping-inbox.ts). The
 * foreign key's check takes a KEY SHARE lock on the monitor's row, which the check-worker's step
 * (FOR NO KEY UPDATE) does not hold against it: a ping never waits for a step. Returns, for each
 * ping given, whether its token named a monitor (and so it was written).
 */
export async function insertPings(ds: DataSource, pings: readonly PingInput[]): Promise<boolean[]> {
  const column = <K extends keyof PingInput>(key: K): PingInput[K][] => pings.map((p) => p[key]);
  // The matched CTE is read twice (the insert, and which inputs it had) but computed once.
  const rows: { ord: string }[] = await ds.query(
    `WITH given AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bool[])
         WITH ORDINALITY AS g(token, kind, exit_status, source_ip, user_agent, body, body_size, body_truncated, ord)
     ), matched AS (
       SELECT g.*, m.id AS monitor_id FROM given g JOIN monitors m ON m.heartbeat_token = g.token AND m.type = 'heartbeat'
     ), written AS (
       INSERT INTO heartbeat_pings (monitor_id, kind, exit_status, source_ip, user_agent, body, body_size, body_truncated)
       SELECT monitor_id, kind, exit_status, source_ip, user_agent, body, body_size, body_truncated FROM matched ORDER BY ord
     )
     SELECT ord FROM matched`,
    [
      column('token'),
      column('kind'),
      column('exitStatus'),
      column('sourceIp'),
      column('userAgent'),
      column('body'),
      column('bodySize'),
      column('bodyTruncated'),
    ],
  );
  const written = pings.map(() => false);
  for (const { ord } of rows) written[Number(ord) - 1] = true;
  return written;
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
