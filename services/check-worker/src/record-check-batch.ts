import { MAX_START_LAG_MS, uncheckedSpanBefore, type EntityManager, type DataSource, type MonitorStatus } from '@uptime/db';
import type { ProbeResult } from '@uptime/probe';
import type { LocationOutcome } from './location-vote';
import { insertNoDataSpans, type NoDataSpan } from './no-data-spans';
import { insertLocationResults, recordAgentActivity } from './record-location-results';
import { stepEpisodes, type EpisodeState } from './alert-episodes';
import { isSlow, type StatusReason } from './status-reason';
import { loadMaintenance, maintenanceAt } from './maintenance';
import { nextState, type MonitorState } from './status-transition';
import { ROLLUP_TABLES, rollupRows, type RollupTable } from './rollup-rows';

/** A finished check waiting to be recorded. */
export interface CheckOutcome {
  monitorId: number;
  configVersion: number;
  /** The time the schedule planned this check for; identifies it (a redelivery is a no-op). */
  scheduledAt: Date;
  /** The check's result; with several locations, the majority's (docs/agent-protocol.md). */
  result: ProbeResult;
  /** Each location's result, when the check also ran through agents; absent for a plain check. */
  locations?: readonly LocationOutcome[];
}

/** A row of the status_events outbox, to publish after commit. */
export interface StatusEvent {
  id: string;
  monitorId: number;
  from: MonitorStatus;
  to: MonitorStatus;
  incidentId: number | null;
  checkResultId: string | null;
  /** The alert episodes the step opened or closed (alert-episodes.ts). */
  episodeIds: number[];
}

interface LockedMonitor extends MonitorState, EpisodeState {
  id: number;
  url: string;
  configVersion: number;
  lastCheck: Date | null;
  checkIntervalSeconds: number;
  configChangedAt: Date;
  responseTimeThreshold: number | null;
  inMaintenance: boolean;
}

interface MonitorUpdate {
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

const truncate = (s: string | null, max: number): string | null => (s === null || s.length <= max ? s : `${s.slice(0, max - 1)}…`);

async function lockMonitors(em: EntityManager, ids: number[]): Promise<Map<number, LockedMonitor>> {
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
    url: string;
    alert_on_slow: boolean;
    certificate_expiry_days: number;
    certificate_expires_at: Date | null;
    open_slow_episode_id: number | null;
    open_certificate_episode_id: number | null;
  }[] =
    await em.query(
      `SELECT id, status, consecutive_failures, alert_threshold, open_incident_id, config_version, last_check, check_interval, updated_at,
              consecutive_successes, recovery_threshold, response_time_threshold, in_maintenance,
              url, alert_on_slow, certificate_expiry_days, certificate_expires_at, open_slow_episode_id, open_certificate_episode_id
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

async function insertResults(em: EntityManager, outcomes: CheckOutcome[], inMaintenance: Set<CheckOutcome>): Promise<Map<string, string>> {
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

async function openIncident(em: EntityManager, o: CheckOutcome, startedAt: Date): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [o.monitorId, startedAt, o.result.statusCode, o.result.responseTime, truncate(o.result.error, 500)],
  );
  return row!.id;
}

async function closeIncident(em: EntityManager, incidentId: number, at: Date): Promise<void> {
  await em.query(
    `UPDATE incidents SET resolved_at = $2, duration = GREATEST(0, round(extract(epoch FROM ($2::timestamptz - started_at))))::int
      WHERE id = $1 AND resolved_at IS NULL`,
    [incidentId, at],
  );
}

async function updateMonitors(em: EntityManager, updates: Map<number, MonitorUpdate>): Promise<void> {
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

async function upsertRollups(em: EntityManager, recorded: CheckOutcome[]): Promise<void> {
  const inputs = recorded.map((o) => ({ monitorId: o.monitorId, checkedAt: o.result.checkedAt, ok: o.result.ok, responseTime: o.result.responseTime }));
  for (const [table, bucketMs] of Object.entries(ROLLUP_TABLES) as [RollupTable, number][]) {
    const rows = rollupRows(inputs, bucketMs);
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

async function insertEvents(em: EntityManager, events: Omit<StatusEvent, 'id'>[]): Promise<StatusEvent[]> {
  if (events.length === 0) return [];
  const rows: { id: string }[] = await em.query(
    // Episode ids travel as array literals: unnest() would flatten an array of arrays.
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, check_result_id, episode_ids)
     SELECT m, f, t, i, c, e::int[] FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::int[], $5::bigint[], $6::text[]) AS v(m, f, t, i, c, e)
     RETURNING id`,
    [
      events.map((e) => e.monitorId),
      events.map((e) => e.from),
      events.map((e) => e.to),
      events.map((e) => e.incidentId),
      events.map((e) => e.checkResultId),
      events.map((e) => `{${e.episodeIds.join(',')}}`),
    ],
  );
  return events.map((e, i) => ({ ...e, id: String(rows[i]!.id) }));
}

/**
 * Records a batch of finished checks in one transaction: the results (a check already recorded is
 * skipped), each monitor's state machine step (docs/monitors.md), incidents, rollups, and an outbox
 * row per status change; for checks that also ran through agents, each location's result and
 * what the calls say about the agents. Checks of deleted or paused monitors, or of an outdated
 * configuration, are dropped. Returns the status events to publish once committed.
 */
export async function recordCheckBatch(ds: DataSource, outcomes: readonly CheckOutcome[]): Promise<StatusEvent[]> {
  if (outcomes.length === 0) return [];
  // Every agent call of the batch, recorded or not: whether an agent answered is news either way.
  const agentCalls = outcomes.flatMap((o) => o.locations ?? []).filter((l) => l.agentId !== null);
  return ds.transaction(async (em) => {
    const monitors = await lockMonitors(em, [...new Set(outcomes.map((o) => o.monitorId))].sort((a, b) => a - b));
    const current = outcomes
      .filter((o) => {
        const m = monitors.get(o.monitorId);
        return m !== undefined && m.status !== 'paused' && o.configVersion >= m.configVersion;
      })
      .sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime());
    if (current.length === 0) {
      if (agentCalls.length > 0) await recordAgentActivity(em, [], agentCalls);
      return [];
    }
    // Checks made during a maintenance window are recorded as such and kept out of the rollups,
    // hence out of uptime and statistics (docs/alert-rules.md).
    const windows = await loadMaintenance(em, [...monitors.keys()]);
    const inMaintenance = new Set(current.filter((o) => maintenanceAt(windows, o.monitorId, o.result.checkedAt) !== null));
    const inserted = await insertResults(em, current, inMaintenance);
    const recorded = current.filter((o) => inserted.has(`${o.monitorId}:${o.scheduledAt.getTime()}`));
    if (recorded.length === 0) {
      if (agentCalls.length > 0) await recordAgentActivity(em, [], agentCalls);
      return [];
    }

    const updates = new Map<number, MonitorUpdate>();
    const events: Omit<StatusEvent, 'id'>[] = [];
    const noData: NoDataSpan[] = [];
    for (const o of recorded) {
      // Only a monitor's newest check moves its state. Results written back after an outage by
      // several workers (result-backlog.ts), or a stalled check's late retry, may arrive after
      // a newer one: they are history (the row and rollups above), not news.
      const newest = updates.get(o.monitorId)?.lastCheck ?? monitors.get(o.monitorId)!.lastCheck;
      if (newest !== null && o.result.checkedAt < newest) continue;
      const before = updates.get(o.monitorId)?.state ?? monitors.get(o.monitorId)!;
      const monitor = monitors.get(o.monitorId)!;
      const unchecked = uncheckedSpanBefore({ ...monitor, status: before.status, lastCheck: newest }, o.result.checkedAt);
      if (unchecked) noData.push({ monitorId: o.monitorId, ...unchecked });
      const maintenance = inMaintenance.has(o);
      const wasInMaintenance = updates.get(o.monitorId)?.inMaintenance ?? monitor.inMaintenance;
      const step = nextState(before, { ok: o.result.ok, slow: isSlow(o.result.responseTime, monitor.responseTimeThreshold) }, maintenance);
      let openIncidentId = before.openIncidentId;
      let incidentId: number | null = null;
      if (step.opensIncident) {
        // Offline when a window ended: the downtime starts when the window did.
        const windowEnd = wasInMaintenance && newest !== null ? maintenanceAt(windows, o.monitorId, newest)?.endsAt : undefined;
        const startedAt = windowEnd !== undefined && windowEnd < o.result.checkedAt ? windowEnd : o.result.checkedAt;
        openIncidentId = incidentId = await openIncident(em, o, startedAt);
      }
      if (step.closesIncident && before.openIncidentId !== null) {
        await closeIncident(em, before.openIncidentId, o.result.checkedAt);
        incidentId = before.openIncidentId;
        openIncidentId = null;
      }
      const previous = updates.get(o.monitorId);
      const recordedBefore = previous ?? monitor;
      // A check that received no certificate (a failure, an agent's result) keeps the last one seen.
      const certificateExpiresAt = /^https:/i.test(monitor.url) ? (o.result.certificateExpiresAt ?? recordedBefore.certificateExpiresAt) : null;
      const episodes = await stepEpisodes(
        em,
        o.monitorId,
        {
          alertOnSlow: monitor.alertOnSlow,
          certificateExpiryDays: monitor.certificateExpiryDays,
          responseTimeThreshold: monitor.responseTimeThreshold,
          openSlowEpisodeId: recordedBefore.openSlowEpisodeId,
          openCertificateEpisodeId: recordedBefore.openCertificateEpisodeId,
          certificateExpiresAt: recordedBefore.certificateExpiresAt,
        },
        { slow: step.statusReason === 'slow', certificateExpiresAt, checkedAt: o.result.checkedAt, maintenance, responseTime: o.result.responseTime },
      );
      updates.set(o.monitorId, {
        state: {
          status: step.status,
          statusReason: step.statusReason,
          consecutiveFailures: step.consecutiveFailures,
          consecutiveSuccesses: step.consecutiveSuccesses,
          alertThreshold: before.alertThreshold,
          recoveryThreshold: before.recoveryThreshold,
          openIncidentId,
        },
        inMaintenance: maintenance,
        lastCheck: o.result.checkedAt,
        responseTime: o.result.responseTime,
        lastSuccess: o.result.ok ? o.result.checkedAt : (previous?.lastSuccess ?? null),
        lastFailure: o.result.ok ? (previous?.lastFailure ?? null) : o.result.checkedAt,
        certificateExpiresAt,
        openSlowEpisodeId: episodes.openSlowEpisodeId,
        openCertificateEpisodeId: episodes.openCertificateEpisodeId,
      });
      // A downtime opened after a maintenance window, or an alert episode opened or closed, is news
      // though the status may stay the same.
      if (step.status !== before.status || step.opensIncident || episodes.episodeIds.length > 0) {
        const checkResultId = inserted.get(`${o.monitorId}:${o.scheduledAt.getTime()}`) ?? null;
        events.push({ monitorId: o.monitorId, from: before.status, to: step.status, incidentId, checkResultId, episodeIds: episodes.episodeIds });
      }
    }
    await updateMonitors(em, updates);
    await insertNoDataSpans(em, noData);
    await upsertRollups(em, recorded.filter((o) => !inMaintenance.has(o)));
    const withLocations = recorded.filter((o) => o.locations !== undefined);
    if (withLocations.length > 0) {
      const resultIdOf = (o: CheckOutcome): string => inserted.get(`${o.monitorId}:${o.scheduledAt.getTime()}`)!;
      await insertLocationResults(em, withLocations.map((o) => ({ checkResultId: resultIdOf(o), locations: o.locations! })));
    }
    const saved = await insertEvents(em, events);
    // Last before commit: agent rows are shared by many monitors, so their locks are held briefly.
    if (agentCalls.length > 0) await recordAgentActivity(em, withLocations.flatMap((o) => o.locations!), agentCalls);
    return saved;
  });
}
