import { formatDuration } from './duration';
import type { IncidentContext } from './incident.repository';

/** What failed, in a few words: the probe's error, else the HTTP status. */
export function describeFailure(ctx: IncidentContext): string {
  if (ctx.error) return ctx.error;
  return ctx.statusCode === null ? 'check failed' : `unexpected HTTP status ${ctx.statusCode}`;
}

/** The downtime duration in seconds: the incident's, or so far when it is still open. */
export function downtimeSeconds(ctx: IncidentContext): number {
  if (ctx.duration !== null) return ctx.duration;
  return Math.round(((ctx.resolvedAt ?? new Date()).getTime() - ctx.startedAt.getTime()) / 1000);
}

/** notifications.message of the downtime notification. */
export const downtimeMessage = (ctx: IncidentContext): string =>
  `Monitor "${ctx.monitorName}" (${ctx.monitorUrl}) is down: ${describeFailure(ctx)}`;

/** notifications.message of the recovery notification. */
export const recoveryMessage = (ctx: IncidentContext): string =>
  `Monitor "${ctx.monitorName}" (${ctx.monitorUrl}) is back up after ${formatDuration(downtimeSeconds(ctx))} of downtime`;
