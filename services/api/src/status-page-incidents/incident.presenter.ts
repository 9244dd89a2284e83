import type { IncidentRow } from './incidents.repository';
import { renderIncidentMarkdown } from './incident-markdown';

/**
 * An incident as its page's owner sees it; updates newest first, each message as written
 * (Markdown) and as the public page renders it (`message_html`, the same renderer), which the web
 * app's composer shows.
 */
export function toIncidentResponse(incident: IncidentRow) {
  return {
    id: incident.id,
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    monitor_ids: incident.monitor_ids,
    started_at: incident.started_at.toISOString(),
    resolved_at: incident.resolved_at?.toISOString() ?? null,
    published: incident.published,
    updates: incident.updates.map((u) => ({
      id: u.id,
      status: u.status,
      message: u.message,
      message_html: renderIncidentMarkdown(u.message),
      created_at: u.created_at.toISOString(),
    })),
    created_at: incident.created_at.toISOString(),
    updated_at: incident.updated_at.toISOString(),
  };
}

export type IncidentResponse = ReturnType<typeof toIncidentResponse>;
