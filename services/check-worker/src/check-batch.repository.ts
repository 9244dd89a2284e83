import {
  MAX_START_LAG_MS,
  ROLLUP_LEVELS,
  truncate,
  type EntityManager,
  type MaintenanceRepeat,
  type MonitorStatus,
  type UncheckedSpan,
} from '@uptime/db';
import type { MaintenanceByMonitor } from './maintenance';
import type { CheckOutcome, StatusEvent } from './record-check-batch';
import { rollupRows } from './rollup-rows';
import type { StatusReason } from './status-reason';
import type { MonitorState } from './status-transition';

// The SQL of a result batch: recordCheckBatch() (record-check-batch.ts) runs these in one
// transaction; the status event publisher marks the outbox rows published once it has queued them.

export interface LockedMonitor extends MonitorState {
  id: number;
  configVersion: number;
  lastCheck: Date | null;
  checkIntervalSeconds: number;
  configChangedAt: Date;
  responseTimeThreshold: number | null;
  inMaintenance: boolean;
}

export interface MonitorUpdate {
  state: MonitorState & { statusReason: StatusReason | null };
  inMaintenance: boolean;
  lastCheck: Date;
  responseTime: number | null;
  lastSuccess: Date | null;
  lastFailure: Date | null;
  certificateExpiresAt: Date | null;
}

export async function lockMonitors(em: EntityManager, ids: number[]): Promise<Map<number, LockedMonitor>> {
  // Sorted ids and FOR UPDATE: batches touching the same monitors serialise here, always in the
  // same order, so every transition is decided by exactly one transaction and none deadlock.
  const rows: {
    id: number;
    status: MonitorStatus;
    consecutive_failures: number;
    alert_threshold: number;
    open_incident_id: number | null;
    config_version: number;
    last_check: Date | null;
    check_interval: number;
    updated_at: Date;
    consecutive_successes: number;
    recovery_threshold: number;
    response_time_threshold: number | null;
    in_maintenance: boolean;
  }[] = await em.query(
    `SELECT id, status, consecutive_failures, alert_threshold, open_incident_id, config_version, last_check, check_interval, updated_at,
              consecutive_successes, recovery_threshold, response_time_threshold, in_maintenance
         FROM monitors WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        status: r.status,
        consecutiveFailures: r.consecutive_failures,
        alertThreshold: r.alert_threshold,
        openIncidentId: r.open_incident_id,
        configVersion: r.config_version,
        lastCheck: r.last_check,
        checkIntervalSeconds: r.check_interval,
        configChangedAt: r.updated_at,
        consecutiveSuccesses: r.consecutive_successes,
        recoveryThreshold: r.recovery_threshold,
        responseTimeThreshold: r.response_time_threshold,
        inMaintenance: r.in_maintenance,
      },
    ]),
  );
}

/** When the check started, as milliseconds after its planned time (stored instead of a timestamp). */
function startLagMs(o: CheckOutcome): number {
  const lag = Math.round(o.result.checkedAt.getTime() - o.scheduledAt.getTime());
  return Math.max(-MAX_START_LAG_MS, Math.min(MAX_START_LAG_MS, lag));
}

/** A timing phase as stored: smallint milliseconds, saturating (migration 1732270020000). */
const phaseMs = (ms: number | null | undefined): number | null => (ms === null || ms === undefined ? null : Math.min(SMALLINT_MAX, ms));
const SMALLINT_MAX = 32_767;

export async function insertResults(
  em: EntityManager,
  outcomes: CheckOutcome[],
  inMaintenance: Set<CheckOutcome>,
): Promise<Map<string, string>> {
  const rows: { id: string; monitor_id: number; scheduled_at: Date }[] = await em.query(
    `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error, dns_ms, connect_ms, tls_ms, first_byte_ms, maintenance)
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::bool[], $5::smallint[], $6::int[], $7::text[],
                          $8::smallint[], $9::smallint[], $10::smallint[], $11::smallint[], $12::bool[])
     ON CONFLICT (monitor_id, scheduled_at) DO NOTHING
     RETURNING id, monitor_id, scheduled_at`,
    [
      outcomes.map((o) => o.monitorId),
      outcomes.map((o) => o.scheduledAt),
      outcomes.map((o) => startLagMs(o)),
      outcomes.map((o) => o.result.ok),
      outcomes.map((o) => o.result.statusCode),
      outcomes.map((o) => o.result.responseTime),
      outcomes.map((o) => truncate(o.result.error, 500)),
      outcomes.map((o) => phaseMs(o.result.timings?.dns)),
      outcomes.map((o) => phaseMs(o.result.timings?.connect)),
      outcomes.map((o) => phaseMs(o.result.timings?.tls)),
      outcomes.map((o) => phaseMs(o.result.timings?.firstByte)),
      outcomes.map((o) => inMaintenance.has(o)),
    ],
  );
  return new Map(rows.map((r) => [`${r.monitor_id}:${r.scheduled_at.getTime()}`, r.id]));
}

export async function openIncident(em: EntityManager, o: CheckOutcome, startedAt: Date): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [o.monitorId, startedAt, o.result.statusCode, o.result.responseTime, truncate(o.result.error, 500)],
  );
  return row!.id;
}

export async function closeIncident(em: EntityManager, incidentId: number, at: Date): Promise<void> {
  await em.query(
    `UPDATE incidents SET resolved_at = $2, duration = GREATEST(0, round(extract(epoch FROM ($2::timestamptz - started_at))))::int
      WHERE id = $1 AND resolved_at IS NULL`,
    [incidentId, at],
  );
}

export async function updateMonitors(em: EntityManager, updates: Map<number, MonitorUpdate>): Promise<void> {
  const ids = [...updates.keys()];
  const u = ids.map((id) => updates.get(id)!);
  // updated_at is left alone: it tracks configuration changes (the updated_since filter).
  await em.query(
    `UPDATE monitors m SET status = v.status, consecutive_failures = v.failures, response_time = v.response_time,
            last_check = v.last_check, last_success = COALESCE(v.last_success, m.last_success),
            last_failure = COALESCE(v.last_failure, m.last_failure), open_incident_id = v.open_incident_id,
            consecutive_successes = v.successes, status_reason = v.status_reason, in_maintenance = v.in_maintenance,
            -- A check that received no certificate (a failure, an agent's result) keeps the last one seen.
            certificate_expires_at = CASE WHEN m.url ILIKE 'https:%' THEN COALESCE(v.certificate_expires_at, m.certificate_expires_at) END
       FROM unnest($1::int[], $2::varchar[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::int[],
                   $9::int[], $10::varchar[], $11::timestamptz[], $12::bool[])
            AS v(id, status, failures, response_time, last_check, last_success, last_failure, open_incident_id, successes, status_reason,
                 certificate_expires_at, in_maintenance)
      WHERE m.id = v.id`,
    [
      ids,
      u.map((x) => x.state.status),
      u.map((x) => x.state.consecutiveFailures),
      u.map((x) => x.responseTime),
      u.map((x) => x.lastCheck),
      u.map((x) => x.lastSuccess),
      u.map((x) => x.lastFailure),
      u.map((x) => x.state.openIncidentId),
      u.map((x) => x.state.consecutiveSuccesses ?? 0),
      u.map((x) => x.state.statusReason),
      u.map((x) => x.certificateExpiresAt),
      u.map((x) => x.inMaintenance),
    ],
  );
}

export async function upsertRollups(em: EntityManager, recorded: CheckOutcome[]): Promise<void> {
  const inputs = recorded.map((o) => ({
    monitorId: o.monitorId,
    checkedAt: o.result.checkedAt,
    ok: o.result.ok,
    responseTime: o.result.responseTime,
  }));
  for (const { table, stepMs } of ROLLUP_LEVELS) {
    const rows = rollupRows(inputs, stepMs);
    await em.query(
      `INSERT INTO ${table} AS t (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, hist::int[]
         FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::bigint[], $7::int[], $8::int[], $9::text[])
              AS v(monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, hist)
       ON CONFLICT (monitor_id, bucket) DO UPDATE SET
         checks = t.checks + EXCLUDED.checks,
         successes = t.successes + EXCLUDED.successes,
         rt_count = t.rt_count + EXCLUDED.rt_count,
         rt_sum = t.rt_sum + EXCLUDED.rt_sum,
         rt_min = LEAST(t.rt_min, EXCLUDED.rt_min),
         rt_max = GREATEST(t.rt_max, EXCLUDED.rt_max),
         rt_hist = int_array_add(t.rt_hist, EXCLUDED.rt_hist)`,
      [
        rows.map((r) => r.monitorId),
        rows.map((r) => r.bucket),
        rows.map((r) => r.checks),
        rows.map((r) => r.successes),
        rows.map((r) => r.rtCount),
        rows.map((r) => r.rtSum),
        rows.map((r) => r.rtMin),
        rows.map((r) => r.rtMax),
        rows.map((r) => `{${r.hist.join(',')}}`),
      ],
    );
  }
}

export async function insertEvents(em: EntityManager, events: Omit<StatusEvent, 'id'>[]): Promise<StatusEvent[]> {
  if (events.length === 0) return [];
  const rows: { id: string }[] = await em.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, check_result_id)
     SELECT * FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::int[], $5::bigint[]) RETURNING id`,
    [
      events.map((e) => e.monitorId),
      events.map((e) => e.from),
      events.map((e) => e.to),
      events.map((e) => e.incidentId),
      events.map((e) => e.checkResultId),
    ],
  );
  return events.map((e, i) => ({ ...e, id: String(rows[i]!.id) }));
}

/** Marks outbox rows published, through `db`: the sweep passes the transaction that holds their locks. */
export async function markEventsPublished(db: Pick<EntityManager, 'query'>, ids: readonly string[]): Promise<void> {
  await db.query('UPDATE status_events SET published_at = now() WHERE id = ANY($1::bigint[]) AND published_at IS NULL', [ids]);
}

/** Outbox rows older than `olderThanMs` never marked published, locked (at most 500; rows another sweep holds are skipped). */
export async function lockUnpublishedEvents(em: EntityManager, olderThanMs: number): Promise<StatusEvent[]> {
  const rows: {
    id: string;
    monitor_id: number;
    from_status: MonitorStatus;
    to_status: MonitorStatus;
    incident_id: number | null;
    check_result_id: string | null;
  }[] = await em.query(
    `SELECT id, monitor_id, from_status, to_status, incident_id, check_result_id FROM status_events
        WHERE published_at IS NULL AND occurred_at < now() - make_interval(secs => $1::float / 1000)
        ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED`,
    [olderThanMs],
  );
  return rows.map((r) => ({
    id: String(r.id),
    monitorId: r.monitor_id,
    from: r.from_status,
    to: r.to_status,
    incidentId: r.incident_id,
    checkResultId: r.check_result_id ? String(r.check_result_id) : null,
  }));
}

/** Each monitor's maintenance windows (docs/alert-rules.md), for the monitors of a batch. */
export async function loadMaintenance(em: EntityManager, monitorIds: number[]): Promise<MaintenanceByMonitor> {
  const rows: {
    monitor_id: number;
    starts_at: Date;
    duration_minutes: number;
    repeat: MaintenanceRepeat;
    weekdays: number[];
    timezone: string;
  }[] = await em.query(
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

/** A span of unchecked time of one monitor, as the check-worker records it when checks resume. */
export interface NoDataSpan extends UncheckedSpan {
  monitorId: number;
}

export async function insertNoDataSpans(em: EntityManager, spans: readonly NoDataSpan[]): Promise<void> {
  if (spans.length === 0) return;
  await em.query(
    `INSERT INTO no_data_spans (monitor_id, started_at, ended_at) SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[])`,
    [spans.map((s) => s.monitorId), spans.map((s) => s.startedAt), spans.map((s) => s.endedAt)],
  );
}
