import { upcomingOccurrences } from '@uptime/db';
import { DAY_MS, floorTo } from '../monitor-stats/time-buckets';
import { renderIncidentMarkdown } from '../status-page-incidents/incident-markdown';
import { INCIDENT_IMPACTS, type IncidentImpact, type IncidentStatus } from '../status-page-incidents/incident.dto';
import type { PageWindowRow, PublicIncidentRow } from './public-incidents.repository';
import { PUBLIC_DAYS } from './public-status.repository';

/** An operator's incident as anyone reads it; each update's Markdown also as safe HTML (incident-markdown.ts). */
export interface PublicIncident {
  id: number;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  started_at: string;
  resolved_at: string | null;
  /** The names of the page's monitors it affects, in order; empty: the page as a whole. */
  monitors: string[];
  /** Its own page: `${PUBLIC_URL}/status/{slug}/incidents/{id}`. */
  url: string;
  /** Newest first. */
  updates: { id: number; status: IncidentStatus; message: string; message_html: string; created_at: string }[];
}

/** An incident's own page as anyone reads it: the page's slug and title, and the incident with its whole timeline. */
export interface PublicIncidentPage {
  page: { slug: string; title: string };
  incident: PublicIncident;
}

/** An occurrence of a maintenance window over some of the page's monitors. */
export interface MaintenanceNotice {
  name: string;
  status: 'scheduled' | 'in_progress';
  starts_at: string;
  ends_at: string;
  monitors: string[];
}

/** What a day of the past incidents shows of each incident. */
export type IncidentSummary = Pick<PublicIncident, 'id' | 'title' | 'impact' | 'status' | 'started_at' | 'resolved_at' | 'url'>;

/** A UTC day of the last PUBLIC_DAYS, newest first, with the incidents that started on it. */
export interface IncidentDay {
  date: string;
  incidents: IncidentSummary[];
}

/** How far ahead the page announces maintenance. */
export const MAINTENANCE_NOTICE_DAYS = 7;
/** Occurrences of one window the page shows at most (a daily window shows its next 7). */
const OCCURRENCES_PER_WINDOW = MAINTENANCE_NOTICE_DAYS;

export const incidentUrl = (pageBase: string, id: number): string => `${pageBase}/incidents/${id}`;

export function toPublicIncident(row: PublicIncidentRow, url: string): PublicIncident {
  return {
    id: row.id,
    title: row.title,
    impact: row.impact,
    status: row.status,
    started_at: row.started_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
    monitors: row.monitors,
    url,
    updates: row.updates.map((u) => ({
      id: u.id,
      status: u.status,
      message: u.message,
      message_html: renderIncidentMarkdown(u.message),
      created_at: u.created_at.toISOString(),
    })),
  };
}

/** The worst impact among the open incidents; null when none is open. */
export function worstImpact(incidents: readonly { impact: IncidentImpact; resolved_at: string | null }[]): IncidentImpact | null {
  const open = incidents.filter((i) => i.resolved_at === null).map((i) => INCIDENT_IMPACTS.indexOf(i.impact));
  return open.length === 0 ? null : INCIDENT_IMPACTS[Math.max(...open)]!;
}

/** An occurrence of a window over the page's monitors, with what its feed entry needs. */
export interface MaintenanceOccurrence {
  windowId: number;
  name: string;
  inProgress: boolean;
  startsAt: Date;
  endsAt: Date;
  /** When the window was last changed. */
  windowUpdatedAt: Date;
  monitors: string[];
}

/** The occurrences in progress at `now` and those starting within MAINTENANCE_NOTICE_DAYS, in progress first, then by start. */
export function maintenanceOccurrences(windows: readonly PageWindowRow[], now: Date): MaintenanceOccurrence[] {
  const horizon = now.getTime() + MAINTENANCE_NOTICE_DAYS * DAY_MS;
  return windows
    .flatMap((w) =>
      upcomingOccurrences(
        { startsAt: w.starts_at, durationMinutes: w.duration_minutes, repeat: w.repeat, weekdays: w.weekdays, timezone: w.timezone },
        now,
        OCCURRENCES_PER_WINDOW,
      )
        .filter((o) => o.startsAt.getTime() <= horizon)
        .map((o) => ({
          windowId: w.id,
          name: w.name,
          inProgress: o.startsAt <= now,
          startsAt: o.startsAt,
          endsAt: o.endsAt,
          windowUpdatedAt: w.updated_at,
          monitors: w.monitors,
        })),
    )
    .sort((a, b) => Number(b.inProgress) - Number(a.inProgress) || a.startsAt.getTime() - b.startsAt.getTime());
}

/** The occurrences as the public page lists them. */
export function maintenanceNotices(occurrences: readonly MaintenanceOccurrence[]): MaintenanceNotice[] {
  return occurrences.map((o) => ({
    name: o.name,
    status: o.inProgress ? 'in_progress' : 'scheduled',
    starts_at: o.startsAt.toISOString(),
    ends_at: o.endsAt.toISOString(),
    monitors: o.monitors,
  }));
}

/** The last PUBLIC_DAYS UTC days, today first, each listing the incidents that started on it (newest first). */
export function incidentsByDay(incidents: readonly PublicIncident[], now: Date): IncidentDay[] {
  const today = floorTo(now, DAY_MS).getTime();
  const days: IncidentDay[] = [];
  for (let i = 0; i < PUBLIC_DAYS; i += 1) {
    const date = new Date(today - i * DAY_MS).toISOString().slice(0, 10);
    const onDay = incidents.filter((inc) => inc.started_at.slice(0, 10) === date);
    days.push({
      date,
      incidents: onDay.map(({ id, title, impact, status, started_at, resolved_at, url }) => ({
        id,
        title,
        impact,
        status,
        started_at,
        resolved_at,
        url,
      })),
    });
  }
  return days;
}
