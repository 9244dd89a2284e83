import { storedCheckError, type AlertKind, type EntityManager } from '@uptime/db';

// The SQL of alerts, of every kind (docs/architecture.md, "Alerts"): recordCheckBatch()
// (record-check-batch.ts) decides, under the monitor's row lock, which alert a check opens or
// closes (a downtime by nextState(), the others by stepEpisodes() in alert-episodes.ts); these
// write them in the batch's transaction (a batch's downtimes opened in one statement).

/** What an alert records of the check that opened it; a kind fills its own and leaves the rest out. */
export interface AlertOpening {
  kind: AlertKind;
  monitorId: number;
  startedAt: Date;
  /** downtime: the failed check. */
  statusCode?: number | null;
  error?: string | null;
  /** downtime and slow: the check's response time; slow: the threshold it exceeded. */
  responseTime?: number | null;
  responseTimeThreshold?: number | null;
  /** certificate: its notAfter, and the limit (days) it fell under. */
  certificateExpiresAt?: Date | null;
  certificateExpiryDays?: number | null;
}

/** Every alert keeps its duration (the API reads a downtime's), whole seconds, never negative. */
const durationSql = (resolvedAt: string, startedAt: string): string => `GREATEST(0, round(extract(epoch FROM (${resolvedAt} - ${startedAt}))))::int`;

const CLOSE_SQL = `
  UPDATE alerts SET resolved_at = $2, duration = ${durationSql('$2::timestamptz', 'started_at')}
   WHERE id = $1 AND resolved_at IS NULL`;

/** Opens an alert; returns its id, which the monitor holds while it is open and the status event names. */
export async function openAlert(em: EntityManager, a: AlertOpening): Promise<number> {
  const [id] = await openAlerts(em, [{ ...a, resolvedAt: null }]);
  return id!;
}

/** An alert to open with others: resolved already when the batch that opens it also closed it. */
export interface BatchedAlertOpening extends AlertOpening {
  resolvedAt: Date | null;
}

/**
 * Opens alerts in one statement, each with the id it is given from the table's sequence, in the
 * order given; returns their ids in that order. For the downtimes of a batch (record-check-batch.ts):
 * a mass outage opens hundreds at once, which were one statement each.
 */
export async function openAlerts(em: EntityManager, openings: readonly BatchedAlertOpening[]): Promise<number[]> {
  if (openings.length === 0) return [];
  const column = <K extends keyof BatchedAlertOpening>(key: K) => openings.map((a) => a[key] ?? null);
  // The ids are drawn in a CTE of their own, computed once, so the insert and the answer agree.
  const rows: { ord: string; id: number }[] = await em.query(
    `WITH given AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::int[], $7::int[], $8::timestamptz[], $9::int[], $10::timestamptz[])
         WITH ORDINALITY AS g(monitor_id, kind, started_at, status_code, error, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days, resolved_at, ord)
     ), ids AS MATERIALIZED (
       SELECT ord, nextval(pg_get_serial_sequence('alerts', 'id'))::int AS id FROM given ORDER BY ord
     ), written AS (
       INSERT INTO alerts (id, monitor_id, kind, started_at, status_code, error, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days, resolved_at, duration)
       SELECT ids.id, g.monitor_id, g.kind, g.started_at, g.status_code, g.error, g.response_time, g.response_time_threshold, g.certificate_expires_at,
              g.certificate_expiry_days, g.resolved_at,
              CASE WHEN g.resolved_at IS NULL THEN NULL ELSE ${durationSql('g.resolved_at', 'g.started_at')} END
         FROM given g JOIN ids USING (ord) ORDER BY ord
     )
     SELECT ord, id FROM ids ORDER BY ord`,
    [
      column('monitorId'),
      column('kind'),
      column('startedAt'),
      column('statusCode'),
      openings.map((a) => storedCheckError(a.error ?? null)),
      column('responseTime'),
      column('responseTimeThreshold'),
      column('certificateExpiresAt'),
      column('certificateExpiryDays'),
      column('resolvedAt'),
    ],
  );
  return rows.map((r) => r.id);
}

/** Resolves the open alert `id` at `at`; one already resolved keeps its end. */
export async function closeAlert(em: EntityManager, id: number, at: Date): Promise<void> {
  await em.query(CLOSE_SQL, [id, at]);
}
