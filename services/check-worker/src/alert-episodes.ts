import type { EntityManager } from '@uptime/db';
import { closeAlert, openAlert } from './alert.repository';

const DAY_MS = 86_400_000;

/** What deciding a monitor's alert episodes needs, as read with its row lock (docs/alert-rules.md). */
export interface EpisodeState {
  alertOnSlow: boolean;
  /** 0: certificate alerts off. */
  certificateExpiryDays: number;
  openSlowEpisodeId: number | null;
  openCertificateEpisodeId: number | null;
  /** The notAfter recorded before this check. */
  certificateExpiresAt: Date | null;
}

/** A recorded check as the episodes see it. */
export interface EpisodeCheck {
  /** The step left the monitor in warning with status_reason "slow". */
  slow: boolean;
  /** The notAfter recorded after this check (a check that received none keeps the last one). */
  certificateExpiresAt: Date | null;
  checkedAt: Date;
  maintenance: boolean;
}

export interface EpisodeDecision {
  opensSlow: boolean;
  closesSlow: boolean;
  opensCertificate: boolean;
  closesCertificate: boolean;
}

/** Fewer than `days` days remain before `notAfter` at `at` (an expired certificate included); 0 days: never. */
export function isUnderExpiryLimit(notAfter: Date | null, days: number, at: Date): boolean {
  return notAfter !== null && days > 0 && notAfter.getTime() - at.getTime() < days * DAY_MS;
}

const sameInstant = (a: Date | null, b: Date | null): boolean => (a === null || b === null ? a === b : a.getTime() === b.getTime());

/**
 * Which episodes one check opens or closes. A slow episode lasts while the monitor reads
 * `status_reason: "slow"`; it opens only with `alert_on_slow` on. A certificate episode opens
 * when the recorded certificate is under `certificate_expiry_days` and none is open, and closes
 * when the recorded certificate changes (a different notAfter, or none), so the next one under the
 * limit opens a new episode. Nothing opens during a maintenance window; an episode opened before
 * it still closes in it. Pure: decided under the monitor's row lock by the caller.
 */
export function decideEpisodes(state: EpisodeState, check: EpisodeCheck): EpisodeDecision {
  const closesSlow = state.openSlowEpisodeId !== null && !check.slow;
  const opensSlow = state.openSlowEpisodeId === null && check.slow && state.alertOnSlow && !check.maintenance;
  const closesCertificate = state.openCertificateEpisodeId !== null && !sameInstant(state.certificateExpiresAt, check.certificateExpiresAt);
  const certificateOpen = state.openCertificateEpisodeId !== null && !closesCertificate;
  const opensCertificate =
    !certificateOpen && !check.maintenance && isUnderExpiryLimit(check.certificateExpiresAt, state.certificateExpiryDays, check.checkedAt);
  return { opensSlow, closesSlow, opensCertificate, closesCertificate };
}

/** The open episodes after a check, and the episodes it opened or closed (for the status event). */
export interface EpisodeStep {
  openSlowEpisodeId: number | null;
  openCertificateEpisodeId: number | null;
  episodeIds: number[];
}

/**
 * Applies `decideEpisodes()` in the caller's transaction: closes, then opens, the alerts
 * (alert.repository.ts). `responseTime` and `threshold` describe the check that made the monitor slow.
 */
export async function stepEpisodes(
  em: EntityManager,
  monitorId: number,
  state: EpisodeState & { responseTimeThreshold: number | null },
  check: EpisodeCheck & { responseTime: number | null },
): Promise<EpisodeStep> {
  const d = decideEpisodes(state, check);
  const step: EpisodeStep = {
    openSlowEpisodeId: state.openSlowEpisodeId,
    openCertificateEpisodeId: state.openCertificateEpisodeId,
    episodeIds: [],
  };
  if (d.closesSlow && state.openSlowEpisodeId !== null) {
    await closeAlert(em, state.openSlowEpisodeId, check.checkedAt);
    step.episodeIds.push(state.openSlowEpisodeId);
    step.openSlowEpisodeId = null;
  }
  if (d.opensSlow) {
    step.openSlowEpisodeId = await openAlert(em, {
      kind: 'slow',
      monitorId,
      startedAt: check.checkedAt,
      responseTime: check.responseTime,
      responseTimeThreshold: state.responseTimeThreshold,
    });
    step.episodeIds.push(step.openSlowEpisodeId);
  }
  if (d.closesCertificate && state.openCertificateEpisodeId !== null) {
    await closeAlert(em, state.openCertificateEpisodeId, check.checkedAt);
    step.episodeIds.push(state.openCertificateEpisodeId);
    step.openCertificateEpisodeId = null;
  }
  if (d.opensCertificate) {
    step.openCertificateEpisodeId = await openAlert(em, {
      kind: 'certificate',
      monitorId,
      startedAt: check.checkedAt,
      certificateExpiresAt: check.certificateExpiresAt,
      certificateExpiryDays: state.certificateExpiryDays,
    });
    step.episodeIds.push(step.openCertificateEpisodeId);
  }
  return step;
}
