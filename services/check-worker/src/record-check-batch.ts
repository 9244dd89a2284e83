import { uncheckedSpanBefore, type DataSource, type MonitorStatus } from '@uptime/db';
import type { ProbeResult } from '@uptime/probe';
import {
  closeIncident,
  insertNoDataSpans,
  insertResults,
  loadMaintenance,
  lockMonitors,
  openIncident,
  updateMonitors,
  upsertRollups,
  type MonitorUpdate,
  type NoDataSpan,
} from './check-batch.repository';
import { insertLocationResults, recordAgentActivity } from './location-results.repository';
import type { LocationOutcome } from './location-vote';
import { stepEpisodes } from './alert-episodes';
import { maintenanceAt } from './maintenance';
import { isSlow } from './status-reason';
import { insertEvents } from './status-event.repository';
import { nextState } from './status-transition';

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
