import {
  MAX_START_LAG_MS,
  ROLLUP_LEVELS,
  storedCheckError,
  type DataSource,
  type EntityManager,
  type MaintenanceRepeat,
  type MonitorStatus,
  type UncheckedSpan,
} from '@uptime/db';
import type { MonitorType } from '@uptime/probe';
import type { MaintenanceByMonitor } from './maintenance';
import type { CheckOutcome } from './check-outcome';
import { rollupRows } from './rollup-rows';
import type { StatusReason } from './status-reason';
import type { EpisodeState } from './alert-episodes';
import type { MonitorState } from './status-transition';

// The SQL of a result batch: recordCheckBatch() (record-check-batch.ts) runs these in one
// transaction; the status_events outbox rows are written and read in status-event.repository.ts.

export interface LockedMonitor extends MonitorState, EpisodeState {
  id: number;
  type: MonitorType;
  url: string;
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
  openSlowEpisodeId: number | null;
  openCertificateEpisodeId: number | null;
}

export async function lockMonitors(em: EntityManager, ids: number[]): Promise<Map<number, LockedMonitor>> {
  // Sorted ids and a row lock: batches touching the same monitors serialise here, always in the
  // same order, so every transition is decided by exactly one transaction and none deadlock. FOR
  // NO KEY UPDATE (what the batch's own UPDATE takes anyway) rather than FOR UPDATE: it still
  // excludes every other step and edit, but not the KEY SHARE lock of a row inserted with a
  // foreign key to the monitor, so a heartbeat's ping is never held for a batch's length
  // (docs/heartbeats.md, "How it is built").
  const rows: {
    id: number;
    type: MonitorType;
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
    url: string;
    alert_on_slow: boolean;
    certificate_expiry_days: number;
    certificate_expires_at: Date | null;
    open_slow_episode_id: number | null;
    open_certificate_episode_id: number | null;
  }[] = await em.query(
    `SELECT id, type, status, consecutive_failures, alert_threshold, open_incident_id, config_version, last_check, check_interval, updated_at,
              consecutive_successes, recovery_threshold, response_time_threshold, in_maintenance,
              url, alert_on_slow, certificate_expiry_days, certificate_expires_at, open_slow_episode_id, open_certificate_episode_id
         FROM monitors WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`,
    [ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        type: r.type,
        status: r.status,
        consecutiveFailures: r.consecutive_failures,
        // A heartbeat's miss or failure is offline at once (docs/heartbeats.md): no threshold.
        alertThreshold: r.type === 'heartbeat' ? 1 : r.alert_threshold,
        openIncidentId: r.open_incident_id,
        configVersion: r.config_version,
        lastCheck: r.last_check,
        checkIntervalSeconds: r.check_interval,
        configChangedAt: r.updated_at,
        consecutiveSuccesses: r.consecutive_successes,
        recoveryThreshold: r.recovery_threshold,
        responseTimeThreshold: r.response_time_threshold,
        inMaintenance: r.in_maintenance,
        url: r.url,
        alertOnSlow: r.alert_on_slow,
        certificateExpiryDays: r.certificate_expiry_days,
        certificateExpiresAt: r.certificate_expires_at,
        openSlowEpisodeId: r.open_slow_episode_id,
        openCertificateEpisodeId: r.open_certificate_episode_id,
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
  // The DELETE takes back the not-checked record a peer wrote for the same planned time
  // (insertNotCheckedSlot()) while this result sat in a process that stalled past its liveness:
  // the check did run, so the slot keeps the result and loses the span (docs/reliability.md).
  const rows: { id: string; monitor_id: number; scheduled_at: Date }[] = await em.query(
    `WITH inserted AS (
     INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error, dns_ms, connect_ms, tls_ms, first_byte_ms, maintenance,
                                dns_response_code, dns_answers, dns_min_ttl, packet_loss, rtt_min_ms, rtt_avg_ms, rtt_max_ms)
     SELECT v.monitor_id, v.scheduled_at, v.start_lag_ms, v.ok, v.status_code, v.response_time, v.error, v.dns_ms, v.connect_ms, v.tls_ms, v.first_byte_ms,
            v.maintenance, v.dns_response_code, CASE WHEN v.dns_answers IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(v.dns_answers)) END,
            v.dns_min_ttl, v.packet_loss, v.rtt_min_ms, v.rtt_avg_ms, v.rtt_max_ms
       FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::bool[], $5::smallint[], $6::int[], $7::text[],
                   $8::smallint[], $9::smallint[], $10::smallint[], $11::smallint[], $12::bool[], $13::text[], $14::jsonb[], $15::int[],
                   $16::real[], $17::real[], $18::real[], $19::real[])
            AS v(monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error, dns_ms, connect_ms, tls_ms, first_byte_ms,
                 maintenance, dns_response_code, dns_answers, dns_min_ttl, packet_loss, rtt_min_ms, rtt_avg_ms, rtt_max_ms)
     ON CONFLICT (monitor_id, scheduled_at) DO NOTHING
     RETURNING id, monitor_id, scheduled_at),
     superseded AS (DELETE FROM no_data_spans s USING inserted i WHERE s.monitor_id = i.monitor_id AND s.started_at = i.scheduled_at)
     SELECT id, monitor_id, scheduled_at FROM inserted`,
    [
      outcomes.map((o) => o.monitorId),
      outcomes.map((o) => o.scheduledAt),
      outcomes.map((o) => startLagMs(o)),
      outcomes.map((o) => o.result.ok),
      outcomes.map((o) => o.result.statusCode),
      outcomes.map((o) => o.result.responseTime),
      outcomes.map((o) => storedCheckError(o.result.error)),
      outcomes.map((o) => phaseMs(o.result.timings?.dns)),
      outcomes.map((o) => phaseMs(o.result.timings?.connect)),
      outcomes.map((o) => phaseMs(o.result.timings?.tls)),
      outcomes.map((o) => phaseMs(o.result.timings?.firstByte)),
      outcomes.map((o) => inMaintenance.has(o)),
      // A dns check's answer (docs/monitors.md, "DNS records"): unnest cannot take an array of
      // arrays of different lengths, so each check's values travel as one jsonb array.
      outcomes.map((o) => o.result.dns?.responseCode ?? null),
      outcomes.map((o) => (o.result.dns ? JSON.stringify(o.result.dns.values) : null)),
      outcomes.map((o) => o.result.dns?.minTtl ?? null),
      // A ping check's figures (migration 1796518100000); null for other types.
      outcomes.map((o) => o.result.ping?.packetLoss ?? null),
      outcomes.map((o) => o.result.ping?.rttMin ?? null),
      outcomes.map((o) => o.result.ping?.rttAvg ?? null),
      outcomes.map((o) => o.result.ping?.rttMax ?? null),
    ],
  );
  return new Map(rows.map((r) => [`${r.monitor_id}:${r.scheduled_at.getTime()}`, r.id]));
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
            open_slow_episode_id = v.open_slow_episode_id, open_certificate_episode_id = v.open_certificate_episode_id,
            certificate_expires_at = v.certificate_expires_at
       FROM unnest($1::int[], $2::varchar[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::int[],
                   $9::int[], $10::varchar[], $11::timestamptz[], $12::bool[], $13::int[], $14::int[])
            AS v(id, status, failures, response_time, last_check, last_success, last_failure, open_incident_id, successes, status_reason,
                 certificate_expires_at, in_maintenance, open_slow_episode_id, open_certificate_episode_id)
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
      u.map((x) => x.openSlowEpisodeId),
      u.map((x) => x.openCertificateEpisodeId),
    ],
  );
}

/**
 * Adds the checks to the rollups of every level (ROLLUP_LEVELS: 5 min, 1 h, 1 day) in one
 * statement, a data-modifying WITH part per level: one round trip instead of one per level
 * (docs/capacity.md). Each part upserts its own table, and no row twice (rollupRows() gives one
 * per monitor and bucket), which is what ON CONFLICT DO UPDATE needs within one statement. The
 * order Postgres runs the parts in does not matter: every row belongs to a monitor the batch has
 * locked (lockMonitors()), so no other batch upserts it meanwhile.
 */
export async function upsertRollups(em: EntityManager, recorded: CheckOutcome[]): Promise<void> {
  if (recorded.length === 0) return;
  const inputs = recorded.map((o) => ({
    monitorId: o.monitorId,
    checkedAt: o.result.checkedAt,
    ok: o.result.ok,
    responseTime: o.result.responseTime,
  }));
  const parameters: unknown[] = [];
  const upserts = ROLLUP_LEVELS.map(({ table, stepMs }) => {
    const rows = rollupRows(inputs, stepMs);
    const at = parameters.length;
    parameters.push(
      rows.map((r) => r.monitorId),
      rows.map((r) => r.bucket),
      rows.map((r) => r.checks),
      rows.map((r) => r.successes),
      rows.map((r) => r.rtCount),
      rows.map((r) => r.rtSum),
      rows.map((r) => r.rtMin),
      rows.map((r) => r.rtMax),
      rows.map((r) => `{${r.hist.join(',')}}`),
    );
    const p = (n: number): string => `$${at + n}`;
    return `INSERT INTO ${table} AS t (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, hist::int[]
         FROM unnest(${p(1)}::int[], ${p(2)}::timestamptz[], ${p(3)}::int[], ${p(4)}::int[], ${p(5)}::int[], ${p(6)}::bigint[], ${p(7)}::int[], ${p(8)}::int[], ${p(9)}::text[])
              AS v(monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, hist)
       ON CONFLICT (monitor_id, bucket) DO UPDATE SET
         checks = t.checks + EXCLUDED.checks,
         successes = t.successes + EXCLUDED.successes,
         rt_count = t.rt_count + EXCLUDED.rt_count,
         rt_sum = t.rt_sum + EXCLUDED.rt_sum,
         rt_min = LEAST(t.rt_min, EXCLUDED.rt_min),
         rt_max = GREATEST(t.rt_max, EXCLUDED.rt_max),
         rt_hist = int_array_add(t.rt_hist, EXCLUDED.rt_hist)`;
  });
  const last = upserts.pop()!;
  const parts = upserts.map((sql, i) => `level_${i} AS (${sql})`);
  await em.query(parts.length > 0 ? `WITH ${parts.join(',\n')}\n${last}` : last, parameters);
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

/**
 * Records one slot of a monitor as not checked (a re-run given up: stale-rerun.ts), as the
 * no-data span of that slot: uptime leaves it out, and the monitor's state, downtime and alerts
 * are untouched (docs/statistics.md). Nothing when the slot has a result already (the dead worker
 * wrote it before it died) or its span (a second take-back of the same slot), nor for a monitor
 * deleted or paused meanwhile: a slot keeps one result or one not-checked record.
 */
export async function insertNotCheckedSlot(db: Pick<DataSource, 'transaction'>, slot: NoDataSpan): Promise<void> {
  await db.transaction(async (em) => {
    // The monitor's row lock first, the one a result batch takes, and the checks
    // in a statement of their own, which sees what committed while it waited: a result written
    // meanwhile by a process that stalled past its liveness is seen here, and a span written
    // first is taken back by that result's insert (insertResults()). Either way, one record.
    const monitor = (await lockMonitors(em, [slot.monitorId])).get(slot.monitorId);
    if (monitor === undefined || monitor.status === 'paused') return;
    await em.query(
      `INSERT INTO no_data_spans (monitor_id, started_at, ended_at)
       SELECT $1, $2::timestamptz, $3::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM check_results r WHERE r.monitor_id = $1 AND r.scheduled_at = $2::timestamptz)
          AND NOT EXISTS (SELECT 1 FROM no_data_spans s WHERE s.monitor_id = $1 AND s.started_at = $2::timestamptz)`,
      [slot.monitorId, slot.startedAt, slot.endedAt],
    );
  });
}
