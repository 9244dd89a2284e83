/**
 * The words a status page shows for its states, shared by the public page (services/api's
 * status-page.html.ts and status-page-sections.html.ts, and the feeds) and the web app's preview
 * of a page (services/web), so the preview reads exactly as the page will (docs/status-pages.md).
 */

/** An operator incident's impact. */
export type PageIncidentImpact = 'none' | 'minor' | 'major' | 'critical';
/** An operator incident's status, moved by its updates. */
export type PageIncidentStatus = 'investigating' | 'identified' | 'monitoring' | 'resolved';
/** What the page shows for a monitor: its status, or maintenance in place of it. */
export type PageMonitorState = 'online' | 'warning' | 'offline' | 'paused' | 'pending' | 'maintenance';
/** The page's overall status from its monitors. */
export type PageOverallStatus = 'operational' | 'degraded' | 'outage';
/** What the banner says: the page's status, or a critical outage. */
export type BannerLevel = PageOverallStatus | 'critical';

export const BANNER_LABEL: Record<BannerLevel, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  outage: 'Outage',
  critical: 'Critical outage',
};

const RANK: Record<BannerLevel, number> = { operational: 0, degraded: 1, outage: 2, critical: 3 };
/** What an open incident's impact says at least: a minor one a degradation, a major one an outage. */
const IMPACT_LEVEL: Record<PageIncidentImpact, BannerLevel> = {
  none: 'operational',
  minor: 'degraded',
  major: 'outage',
  critical: 'critical',
};

/** The banner: the worse of what the monitors show and the worst impact of the open incidents. */
export function bannerLevel(status: PageOverallStatus, impact: PageIncidentImpact | null): BannerLevel {
  const fromImpact = impact === null ? 'operational' : IMPACT_LEVEL[impact];
  return RANK[fromImpact] > RANK[status] ? fromImpact : status;
}

export const MONITOR_STATE_LABEL: Record<PageMonitorState, string> = {
  online: 'Operational',
  warning: 'Degraded',
  offline: 'Down',
  paused: 'Paused',
  pending: 'Not checked yet',
  maintenance: 'Maintenance',
};

export const INCIDENT_STATUS_LABEL: Record<PageIncidentStatus, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

export const IMPACT_LABEL: Record<PageIncidentImpact, string> = {
  none: 'No impact',
  minor: 'Minor impact',
  major: 'Major impact',
  critical: 'Critical impact',
};

export const MAINTENANCE_NOTICE_LABEL: Record<'in_progress' | 'scheduled', string> = { in_progress: 'In progress', scheduled: 'Scheduled' };
