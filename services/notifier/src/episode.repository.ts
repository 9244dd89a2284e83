import { queryRows, type AlertEpisodeKind, type EntityManager } from '@uptime/db';
import { AUDIENCE_COLUMNS, AUDIENCE_JOINS, audienceOf, type AlertAudience, type AudienceRow } from './alert-audience.repository';
import type { IncidentContext } from './incident.repository';

export type { AlertAudience } from './alert-audience.repository';

/** An alert episode (a slow period, a certificate under its limit) with its monitor's alert settings. */
export interface EpisodeContext extends AlertAudience {
  episodeId: number;
  kind: AlertEpisodeKind;
  alertOnSlow: boolean;
  startedAt: Date;
  /** Null while the episode lasts. */
  resolvedAt: Date | null;
  /** Seconds; null while unresolved. */
  duration: number | null;
  /** slow: the response time of the check that opened it, and the threshold it exceeded. */
  responseTime: number | null;
  responseTimeThreshold: number | null;
  /** certificate: the certificate's notAfter and the limit (days) it fell under. */
  certificateExpiresAt: Date | null;
  certificateExpiryDays: number | null;
}

/** What a delivery is sent about: a downtime incident, or an alert episode. */
export type AlertContext = IncidentContext | EpisodeContext;

export const isEpisodeContext = (ctx: AlertContext): ctx is EpisodeContext => 'episodeId' in ctx;

/** "incident 12" or "episode 7", for logs and errors. */
export const describeSubject = (ctx: AlertContext): string =>
  isEpisodeContext(ctx) ? `episode ${ctx.episodeId}` : `incident ${ctx.incidentId}`;

/** SQL for an episode's duration in seconds (`e` = alert_episodes). */
export const EPISODE_DURATION_SQL = `GREATEST(0, round(extract(epoch FROM e.resolved_at - e.started_at)))::int`;

interface Row extends AudienceRow {
  episode_id: number;
  kind: AlertEpisodeKind;
  alert_on_slow: boolean;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  response_time: number | null;
  response_time_threshold: number | null;
  certificate_expires_at: Date | null;
  certificate_expiry_days: number | null;
}

/** The episode `episodeId` with its monitor and owner, or null when it is gone (monitor deleted). */
export async function loadEpisodeContext(db: EntityManager, episodeId: number): Promise<EpisodeContext | null> {
  const [row] = await queryRows<Row>(
    db,
    `SELECT e.id AS episode_id, e.kind, ${AUDIENCE_COLUMNS}, m.alert_on_slow,
            e.started_at, e.resolved_at, CASE WHEN e.resolved_at IS NULL THEN NULL ELSE ${EPISODE_DURATION_SQL} END AS duration,
            e.response_time, e.response_time_threshold, e.certificate_expires_at, e.certificate_expiry_days
       FROM alert_episodes e
       JOIN monitors m ON m.id = e.monitor_id
       ${AUDIENCE_JOINS}
      WHERE e.id = $1`,
    [episodeId],
  );
  if (!row) return null;
  return {
    ...audienceOf(row),
    episodeId: row.episode_id,
    kind: row.kind,
    alertOnSlow: row.alert_on_slow,
    startedAt: row.started_at,
    resolvedAt: row.resolved_at,
    duration: row.duration,
    responseTime: row.response_time,
    responseTimeThreshold: row.response_time_threshold,
    certificateExpiresAt: row.certificate_expires_at,
    certificateExpiryDays: row.certificate_expiry_days,
  };
}
