import { dayLabel, IMPACT_LABEL, INCIDENT_STATUS_LABEL, MAINTENANCE_NOTICE_LABEL } from '@uptime/probe';
import { escapeMarkup as e } from './html-escape';
import type { IncidentDay, MaintenanceNotice, PublicIncident } from './public-page-sections';

/** An instant as `25 Nov 2026 10:05 UTC` in a `<time>` element. */
export const timeOf = (iso: string): string => `<time datetime="${e(iso)}">${dayLabel(iso.slice(0, 10))} ${iso.slice(11, 16)} UTC</time>`;

/** The link of an incident's own page, relative to the host the page was read on. */
export const incidentPath = (slug: string, id: number): string => `/status/${encodeURIComponent(slug)}/incidents/${id}`;

/**
 * An incident with its timeline, newest update first. Each update's message is the HTML of the
 * Markdown subset (incident-markdown.ts), which escapes everything else; all other text is escaped here.
 */
export function incidentArticle(slug: string, incident: PublicIncident, headingLevel: 2 | 3): string {
  const heading = `incident-${incident.id}`;
  const h = `h${headingLevel}`;
  const affects = incident.monitors.length > 0 ? ` · Affects ${e(incident.monitors.join(', '))}` : '';
  const updates = incident.updates
    .map(
      (
        u,
      ) => `<li class="update"><p class="update-head"><strong class="status-${u.status}">${INCIDENT_STATUS_LABEL[u.status]}</strong> ${timeOf(u.created_at)}</p>
<div class="update-body">${u.message_html}</div></li>`,
    )
    .join('\n');
  return `<article class="incident impact-${incident.impact}" aria-labelledby="${heading}">
<${h} id="${heading}"><a href="${e(incidentPath(slug, incident.id))}">${e(incident.title)}</a></${h}>
<p class="incident-meta">${IMPACT_LABEL[incident.impact]}${affects} · Started ${timeOf(incident.started_at)}${incident.resolved_at ? ` · Resolved ${timeOf(incident.resolved_at)}` : ''}</p>
<ol class="timeline" aria-label="${e(`Updates of ${incident.title}`)}">
${updates}
</ol>
</article>`;
}

/** Maintenance in progress and scheduled within 7 days; nothing when there is none. */
export function maintenanceSection(notices: readonly MaintenanceNotice[]): string {
  if (notices.length === 0) return '';
  const items = notices.map(
    (n) => `<li class="notice notice-${n.status}"><p><strong>${MAINTENANCE_NOTICE_LABEL[n.status]}</strong>: ${e(n.name)}</p>
<p class="notice-meta">${timeOf(n.starts_at)} to ${timeOf(n.ends_at)}${n.monitors.length > 0 ? ` · ${e(n.monitors.join(', '))}` : ''}</p></li>`,
  );
  return `<section class="maintenance" aria-labelledby="maintenance"><h2 id="maintenance">Maintenance</h2><ul>${items.join('\n')}</ul></section>`;
}

/** The 90 days of incidents: each day that has some, with its incidents linking to their pages. */
export function pastIncidentsSection(slug: string, days: readonly IncidentDay[]): string {
  const withIncidents = days.filter((d) => d.incidents.length > 0);
  const body =
    withIncidents.length === 0
      ? '<p class="none">No incidents in the last 90 days.</p>'
      : withIncidents
          .map(
            (d) => `<h3>${dayLabel(d.date)}</h3>
<ul>${d.incidents
              .map(
                (i) =>
                  `<li><a href="${e(incidentPath(slug, i.id))}">${e(i.title)}</a> <span class="incident-meta">${IMPACT_LABEL[i.impact]} · ${INCIDENT_STATUS_LABEL[i.status]}</span></li>`,
              )
              .join('')}</ul>`,
          )
          .join('\n');
  return `<section class="past-incidents" aria-labelledby="past-incidents"><h2 id="past-incidents">Past incidents</h2>\n${body}\n</section>`;
}
