import type { MonitorStatus } from '@uptime/db';
import { escapeMarkup as e } from './html-escape';
import { uptimeGrade, type PageStatus, type PublicStatusPage } from './public-status';

/** What a monitor's line says: its status, or maintenance, which is shown in place of it. */
type ShownState = MonitorStatus | 'maintenance';

/** Where the page's stylesheet is served (public-status.routes.ts); the CSP allows no inline style. */
export const STATUS_PAGE_CSS_PATH = '/status/assets/status-page.css';

const BANNER: Record<PageStatus, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  outage: 'Outage',
};

const MONITOR_LABEL: Record<ShownState, string> = {
  online: 'Operational',
  warning: 'Degraded',
  offline: 'Down',
  paused: 'Paused',
  pending: 'Not checked yet',
  maintenance: 'Maintenance',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-25` → `25 Nov 2026`: the same in every locale, as the page is the same for everyone. */
function dayLabel(date: string): string {
  const [y, m, d] = date.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
}

const percent = (uptime: number | null): string => (uptime === null ? 'no data' : `${uptime.toFixed(2)}%`);

const timeLabel = (iso: string): string => `${dayLabel(iso.slice(0, 10))} ${iso.slice(11, 16)} UTC`;

function monitorSection(m: PublicStatusPage['monitors'][number], index: number): string {
  const heading = `m${index}`;
  const state: ShownState = m.in_maintenance ? 'maintenance' : m.status;
  const cells = m.days
    .map((d) => {
      const label = `${dayLabel(d.date)}: ${d.uptime === null ? 'no checks' : `${d.uptime.toFixed(2)}% uptime`}`;
      return `<span class="day day-${uptimeGrade(d.uptime)}" role="img" tabindex="0" aria-label="${e(label)}"></span>`;
    })
    .join('');
  return `<section class="monitor" aria-labelledby="${heading}">
<div class="monitor-head"><h2 id="${heading}">${e(m.name)}</h2><p class="state state-${state}">${MONITOR_LABEL[state]}</p></div>
<div class="days" role="group" aria-label="${e(`${m.name}, uptime of the last 90 days`)}">${cells}</div>
<p class="scale"><span>90 days ago</span><span>${e(percent(m.uptime_90d))} over 90 days · ${e(percent(m.uptime_24h))} over 24 hours</span><span>Today</span></p>
</section>`;
}

function incidentsSection(page: PublicStatusPage): string {
  if (page.active_incidents.length === 0) return '';
  const items = page.active_incidents.map((i) => `<li><strong>${e(i.monitor_name)}</strong> is down since <time datetime="${e(i.started_at)}">${timeLabel(i.started_at)}</time></li>`);
  return `<section class="incidents" aria-labelledby="incidents"><h2 id="incidents">Active incidents</h2><ul>${items.join('')}</ul></section>`;
}

/** A complete document around `body`: no script, the one stylesheet, the system's colour scheme. */
function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${e(title)}</title>
<link rel="stylesheet" href="${STATUS_PAGE_CSS_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * The browser tab's name: the owner's title, followed by "status" unless it already says so
 * ("Acme" is "Acme status"; "Acme status" and "Acme Statuspage" stay as they are).
 */
export const statusPageDocumentTitle = (title: string): string => (/\bstatus/i.test(title) ? title : `${title} status`);

/**
 * The status page as a complete HTML document: no script, one stylesheet, every text the owner
 * typed escaped. Each day is a focusable image with its date and uptime as its accessible name;
 * the stylesheet shows that name on hover and focus.
 */
export function renderStatusPage(page: PublicStatusPage): string {
  return htmlDocument(
    statusPageDocumentTitle(page.title),
    `<header>
<h1>${e(page.title)}</h1>
${page.description ? `<p class="description">${e(page.description)}</p>` : ''}
<p class="banner banner-${page.status}" role="status">${BANNER[page.status]}</p>
</header>
${incidentsSection(page)}
${page.monitors.map(monitorSection).join('\n')}
<footer><p>Updated <time datetime="${e(page.updated_at)}">${timeLabel(page.updated_at)}</time></p></footer>`,
  );
}

/** The answer to an unknown or unpublished slug. */
export function renderPageNotFound(): string {
  return htmlDocument(
    'Status page not found',
    '<header><h1>Status page not found</h1><p class="description">There is no published status page at this address.</p></header>',
  );
}
