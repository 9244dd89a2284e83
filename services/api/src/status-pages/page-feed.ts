import { escapeMarkup as e } from './html-escape';
import type { MaintenanceOccurrence, PublicIncident } from './public-page-sections';
import { IMPACT_LABEL, INCIDENT_STATUS_LABEL } from '@uptime/probe';
import { renderAtom, renderRss, type FeedEntry } from './status-feed';

const utc = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A page's feed entries, newest first: one per update of each incident the page shows (open, or
 * started in the 90 days), and one per occurrence of maintenance it announces (in progress, or
 * starting within 7 days). An occurrence's time is its start once it has begun, else when its
 * window was last changed: a reader learns of planned work when it is planned.
 */
export function feedEntries(
  pageUrl: string,
  incidents: readonly PublicIncident[],
  maintenance: readonly MaintenanceOccurrence[],
): FeedEntry[] {
  const updates = incidents.flatMap((i) =>
    i.updates.map((u) => ({
      id: `${i.url}#update-${u.id}`,
      title: `${i.title}: ${INCIDENT_STATUS_LABEL[u.status]}`,
      link: i.url,
      updated: u.created_at,
      html: `<p>${e(`${INCIDENT_STATUS_LABEL[u.status]} · ${IMPACT_LABEL[i.impact]}${i.monitors.length > 0 ? ` · ${i.monitors.join(', ')}` : ''}`)}</p>\n${u.message_html}`,
    })),
  );
  const notices = maintenance.map((o) => ({
    id: `${pageUrl}#maintenance-${o.windowId}-${o.startsAt.getTime()}`,
    title: `Maintenance ${o.inProgress ? 'in progress' : 'scheduled'}: ${o.name}`,
    link: pageUrl,
    updated: (o.inProgress ? o.startsAt : o.windowUpdatedAt).toISOString(),
    html: `<p>${e(`${o.name}: ${utc(o.startsAt)} to ${utc(o.endsAt)}${o.monitors.length > 0 ? ` · ${o.monitors.join(', ')}` : ''}`)}</p>`,
  }));
  return [...updates, ...notices].sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
}

/** The page's Atom and RSS feeds, each naming its own address (`${pageUrl}/feed.atom`, `/feed.rss`). */
export function renderFeeds(title: string, pageUrl: string, entries: FeedEntry[], now: Date): { atom: string; rss: string } {
  const feed = { title: `${title} status`, pageUrl, updated: entries[0]?.updated ?? now.toISOString(), entries };
  return { atom: renderAtom({ ...feed, selfUrl: `${pageUrl}/feed.atom` }), rss: renderRss({ ...feed, selfUrl: `${pageUrl}/feed.rss` }) };
}
