import { inBatchTransaction, uncheckedSpanBefore, type DataSource, type EntityManager, type WriteWatch } from '@uptime/db';
import {
  insertNoDataSpans,
  insertResults,
  loadMaintenance,
  lockMonitors,
  updateMonitors,
  upsertRollups,
  type LockedMonitor,
  type MonitorUpdate,
  type NoDataSpan,
} from './check-batch.repository';
import { closeAlert, openAlerts, type BatchedAlertOpening } from './alert.repository';
import type { CheckOutcome } from './check-outcome';
import { insertLocationResults, recordAgentActivity } from './location-results.repository';
import { stepEpisodes } from './alert-episodes';
import { maintenanceAt, type MaintenanceByMonitor } from './maintenance';
import { isSlow } from './status-reason';
import type { StatusEvent } from './status-event';
import { insertEvents } from './status-event.repository';
import { nextState, type MonitorState, type Transition } from './status-transition';

/** The checks a batch recorded, and what stepping their monitors reads. */
interface RecordedBatch {
  /** The batch's monitors, locked. */
  monitors: Map<number, LockedMonitor>;
  windows: MaintenanceByMonitor;
  inMaintenance: Set<CheckOutcome>;
  /** The new check_results ids, by resultKey(). */
  inserted: Map<string, string>;
  /** The checks recorded now (not recorded before), oldest first. */
  recorded: CheckOutcome[];
}

/** What stepping the monitors of a batch writes. */
interface BatchSteps {
  updates: Map<number, MonitorUpdate>;
  events: Omit<StatusEvent, 'id'>[];
  noData: NoDataSpan[];
  /**
   * The downtimes the batch opens, written together after the steps (openDowntimes()); until
   * then the monitor and its event hold a stand-in id, -1 for the first, -2 for the next...
   */
  downtimes: BatchedAlertOpening[];
}

/** A check's key in insertResults()'s answer: the (monitor, planned time) a check result is unique by. */
const resultKey = (o: CheckOutcome): string => `${o.monitorId}:${o.scheduledAt.getTime()}`;

/**
 * Records a batch of finished checks in one transaction: the results (a check already recorded is
 * skipped), each monitor's state machine step (docs/monitors.md), incidents, rollups, and an outbox
 * row per status change; for checks that also ran through agents, each location's result and
 * what the calls say about the agents. Checks of deleted or paused monitors, or of an outdated
 * configuration, are dropped. Returns the status events to publish once committed.
 */
export async function recordCheckBatch(
  ds: DataSource,
  outcomes: readonly CheckOutcome[],
  options: { statementTimeoutMs?: number; watch?: WriteWatch } = {},
): Promise<StatusEvent[]> {
  if (outcomes.length === 0) return [];
  // A write its caller has given up on (result-backlog.ts) must not go on holding its monitors'
  // row locks and its pooled connection: every retry would queue behind it. So every statement
  // checks `watch` first, and reports its progress after (packages/db/src/batch-transaction.ts).
  return inBatchTransaction(ds, options, (em) => recordCheckBatchIn(em, outcomes));
}

/**
 * recordCheckBatch() inside a transaction the caller holds: the heartbeat engine records its
 * verdicts in the transaction that steps their pings, so a ping is consumed exactly when its
 * result is written (services/check-worker/src/heartbeat/heartbeat-engine.ts).
 */
export async function recordCheckBatchIn(em: EntityManager, outcomes: readonly CheckOutcome[]): Promise<StatusEvent[]> {
  if (outcomes.length === 0) return [];
  // Every agent call of the batch, recorded or not: whether an agent answered is news either way.
  const agentCalls = outcomes.flatMap((o) => o.locations ?? []).filter((l) => l.agentId !== null);
  const batch = await insertCurrentResults(em, outcomes);
  if (batch === null) {
    if (agentCalls.length > 0) await recordAgentActivity(em, [], agentCalls);
    return [];
  }
  const steps: BatchSteps = { updates: new Map(), events: [], noData: [], downtimes: [] };
  for (const o of batch.recorded) await stepMonitor(em, batch, o, steps);
  await openDowntimes(em, steps);
  await updateMonitors(em, steps.updates);
  await insertNoDataSpans(em, steps.noData);
  await upsertRollups(em, batch.recorded.filter((o) => !batch.inMaintenance.has(o)));
  const withLocations = batch.recorded.filter((o) => o.locations !== undefined);
  if (withLocations.length > 0) {
    await insertLocationResults(em, withLocations.map((o) => ({ checkResultId: batch.inserted.get(resultKey(o))!, locations: o.locations! })));
  }
  const saved = await insertEvents(em, steps.events);
  // Last before commit: agent rows are shared by many monitors, so their locks are held briefly.
  if (agentCalls.length > 0) await recordAgentActivity(em, withLocations.flatMap((o) => o.locations!), agentCalls);
  return saved;
}

/**
 * Locks the batch's monitors in id order, then inserts the results of the checks still current
 * (monitor there and not paused, configuration not outdated), oldest first. Null when it recorded
 * none: every check dropped, or recorded already.
 */
async function insertCurrentResults(em: EntityManager, outcomes: readonly CheckOutcome[]): Promise<RecordedBatch | null> {
  const monitors = await lockMonitors(em, [...new Set(outcomes.map((o) => o.monitorId))].sort((a, b) => a - b));
  const current = outcomes
    .filter((o) => {
      const m = monitors.get(o.monitorId);
      return m !== undefined && m.status !== 'paused' && o.configVersion >= m.configVersion;
    })
    .sort((a, b) => a.scheduledAt.getTime() - b.scheduledAt.getTime());
  if (current.length === 0) return null;
  // Checks made during a maintenance window are recorded as such and kept out of the rollups,
  // hence out of uptime and statistics (docs/alert-rules.md).
  const windows = await loadMaintenance(em, [...monitors.keys()]);
  const inMaintenance = new Set(current.filter((o) => maintenanceAt(windows, o.monitorId, o.result.checkedAt) !== null));
  const inserted = await insertResults(em, current, inMaintenance);
  const recorded = current.filter((o) => inserted.has(resultKey(o)));
  return recorded.length === 0 ? null : { monitors, windows, inMaintenance, inserted, recorded };
}

/**
 * Steps the monitor of a recorded check: its state, its downtime, its alert episodes, the no-data
 * span the check ends, and the status event when any of them is news. Adds to `steps`.
 */
async function stepMonitor(em: EntityManager, batch: RecordedBatch, o: CheckOutcome, steps: BatchSteps): Promise<void> {
  const monitor = batch.monitors.get(o.monitorId)!;
  const previous = steps.updates.get(o.monitorId);
  // Only a monitor's newest check moves its state. Results written back after an outage by
  // several workers (result-backlog.ts), or a stalled check's late retry, may arrive after
  // a newer one: they are history (the row and rollups above), not news.
  const newest = previous?.lastCheck ?? monitor.lastCheck;
  if (newest !== null && o.result.checkedAt < newest) return;
  const before = previous?.state ?? monitor;
  // A heartbeat's silence is its deadline's business (docs/heartbeats.md), not a gap in checks.
  const unchecked = monitor.type === 'heartbeat' ? null : uncheckedSpanBefore({ ...monitor, status: before.status, lastCheck: newest }, o.result.checkedAt);
  if (unchecked) steps.noData.push({ monitorId: o.monitorId, ...unchecked });
  const maintenance = batch.inMaintenance.has(o);
  const step = nextState(before, { ok: o.result.ok, slow: isSlow(o.result.responseTime, monitor.responseTimeThreshold) }, maintenance);
  const wasInMaintenance = previous?.inMaintenance ?? monitor.inMaintenance;
  const { openIncidentId, incidentId } = await stepIncident(em, steps, batch.windows, o, { before, step, wasInMaintenance, newest });
  const recordedBefore = previous ?? monitor;
  // A check that received no certificate (a failure, an agent's result) keeps the last one seen.
  const certificateExpiresAt = /^(https|tls):/i.test(monitor.url) ? (o.result.certificateExpiresAt ?? recordedBefore.certificateExpiresAt) : null;
  const episodes = await stepEpisodes(
    em,
    o.monitorId,
    { ...monitorEpisodeSettings(monitor), ...openEpisodesOf(recordedBefore) },
    { slow: step.statusReason === 'slow', certificateExpiresAt, checkedAt: o.result.checkedAt, maintenance, responseTime: o.result.responseTime },
  );
  steps.updates.set(o.monitorId, {
    state: { ...stateAfter(before, step), openIncidentId },
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
    const checkResultId = batch.inserted.get(resultKey(o)) ?? null;
    steps.events.push({ monitorId: o.monitorId, from: before.status, to: step.status, incidentId, checkResultId, episodeIds: episodes.episodeIds });
  }
}

/** The monitor's alert settings its episodes are decided by. */
const monitorEpisodeSettings = (m: LockedMonitor) => ({
  alertOnSlow: m.alertOnSlow,
  certificateExpiryDays: m.certificateExpiryDays,
  responseTimeThreshold: m.responseTimeThreshold,
});

/** The episodes open, and the certificate seen, before this check: the batch's last step, else the row. */
const openEpisodesOf = (before: Pick<MonitorUpdate, 'openSlowEpisodeId' | 'openCertificateEpisodeId' | 'certificateExpiresAt'>) => ({
  openSlowEpisodeId: before.openSlowEpisodeId,
  openCertificateEpisodeId: before.openCertificateEpisodeId,
  certificateExpiresAt: before.certificateExpiresAt,
});

/** The state machine's counters after `step`; the open incident is the caller's. */
const stateAfter = (before: MonitorState, step: Transition): Omit<MonitorUpdate['state'], 'openIncidentId'> => ({
  status: step.status,
  statusReason: step.statusReason,
  consecutiveFailures: step.consecutiveFailures,
  consecutiveSuccesses: step.consecutiveSuccesses,
  alertThreshold: before.alertThreshold,
  recoveryThreshold: before.recoveryThreshold,
});

/**
 * Opens or closes the monitor's downtime as `step` says. Returns the incident left open, and the
 * one the status event names (the one opened or closed; null when neither): a downtime opened
 * here is written later with the batch's others (openDowntimes()), so its id is a stand-in until
 * then, and closing it again in the same batch resolves it before it is written.
 */
async function stepIncident(
  em: EntityManager,
  steps: BatchSteps,
  windows: MaintenanceByMonitor,
  o: CheckOutcome,
  { before, step, wasInMaintenance, newest }: { before: MonitorState; step: Transition; wasInMaintenance: boolean; newest: Date | null },
): Promise<{ openIncidentId: number | null; incidentId: number | null }> {
  let openIncidentId = before.openIncidentId;
  let incidentId: number | null = null;
  if (step.opensIncident) {
    // Offline when a window ended: the downtime starts when the window did.
    const windowEnd = wasInMaintenance && newest !== null ? maintenanceAt(windows, o.monitorId, newest)?.endsAt : undefined;
    const startedAt = windowEnd !== undefined && windowEnd < o.result.checkedAt ? windowEnd : o.result.checkedAt;
    const { statusCode, responseTime, error } = o.result;
    steps.downtimes.push({ kind: 'downtime', monitorId: o.monitorId, startedAt, statusCode, responseTime, error, resolvedAt: null });
    openIncidentId = incidentId = -steps.downtimes.length;
  }
  if (step.closesIncident && before.openIncidentId !== null) {
    if (before.openIncidentId < 0) steps.downtimes[-before.openIncidentId - 1]!.resolvedAt = o.result.checkedAt;
    else await closeAlert(em, before.openIncidentId, o.result.checkedAt);
    incidentId = before.openIncidentId;
    openIncidentId = null;
  }
  return { openIncidentId, incidentId };
}

/**
 * Writes the downtimes the batch's steps opened in one statement (a mass outage opens hundreds in
 * one batch: docs/heartbeats.md, "How it is built"), and puts their ids where the steps left
 * stand-ins: the monitors' open incident and the status events.
 */
async function openDowntimes(em: EntityManager, steps: BatchSteps): Promise<void> {
  if (steps.downtimes.length === 0) return;
  const ids = await openAlerts(em, steps.downtimes);
  const real = (id: number | null): number | null => (id !== null && id < 0 ? ids[-id - 1]! : id);
  for (const update of steps.updates.values()) update.state.openIncidentId = real(update.state.openIncidentId);
  for (const event of steps.events) event.incidentId = real(event.incidentId);
}
