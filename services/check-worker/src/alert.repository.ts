import { storedCheckError, type AlertKind, type EntityManager } from '@uptime/db';

// The SQL of alerts, of every kind (docs/architecture.md, "Alerts"): recordCheckBatch()
// (record-check-batch.ts) decides, under the monitor's row lock, which alert a check opens or
// closes (a downtime by nextState(), the others by stepEpisodes() in alert-episodes.ts); these
// write them, one statement each, in the batch's transaction.

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

const OPEN_SQL = `
  INSERT INTO alerts (monitor_id, kind, started_at, status_code, error, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`;

/** Every alert keeps its duration (the API reads a downtime's), whole seconds, never negative. */
const CLOSE_SQL = `
  UPDATE alerts SET resolved_at = $2, duration = GREATEST(0, round(extract(epoch FROM ($2::timestamptz - started_at))))::int
   WHERE id = $1 AND resolved_at IS NULL`;

/** Opens an alert; returns its id, which the monitor holds while it is open and the status event names. */
export async function openAlert(em: EntityManager, a: AlertOpening): Promise<number> {
  const [row]: { id: number }[] = await em.query(OPEN_SQL, [
    a.monitorId,
    a.kind,
    a.startedAt,
    a.statusCode ?? null,
    storedCheckError(a.error ?? null),
    a.responseTime ?? null,
    a.responseTimeThreshold ?? null,
    a.certificateExpiresAt ?? null,
    a.certificateExpiryDays ?? null,
  ]);
  return row!.id;
}

/** Resolves the open alert `id` at `at`; one already resolved keeps its end. */
export async function closeAlert(em: EntityManager, id: number, at: Date): Promise<void> {
  await em.query(CLOSE_SQL, [id, at]);
}
