import { escapeMarkup as e } from './html-escape';
import type { PublicIncident } from './public-page-sections';
import { BANNER_LABEL, bannerLevel, dayUptimeLabel, MONITOR_STATE_LABEL, uptimeGrade } from '@uptime/probe';
import type { PublicStatusPage } from './public-status';
import { incidentArticle, maintenanceSection, pastIncidentsSection, timeOf } from './status-page-sections.html';

/** Where the page's stylesheet is served (public-status.routes.ts); the CSP allows no inline style. */
export const STATUS_PAGE_CSS_PATH = '/status/assets/status-page.css';
/** The page's one script (times in the visitor's zone, a refresh every 60 s); the page works without it. */
export const STATUS_PAGE_JS_PATH = '/status/assets/status-page.js';

const percent = (uptime: number | null): string => (uptime === null ? 'no data' : `${uptime.toFixed(2)}%`);

function monitorSection(m: PublicStatusPage['monitors'][number], index: number, level: 2 | 3): string {
  const heading = `m${index}`;
  const state = m.display_status;
  const cells = m.days
    .map((d) => {
      const label = dayUptimeLabel(d.date, d.uptime);
      return `<span class="day day-${uptimeGrade(d.uptime)}" role="img" tabindex="0" aria-label="${e(label)}"></span>`;
    })
    .join('');
  return `<section class="monitor" aria-labelledby="${heading}">
<div class="monitor-head"><h${level} id="${heading}">${e(m.name)}</h${level}><p class="state state-${state}">${MONITOR_STATE_LABEL[state]}</p></div>
<div class="days" role="group" aria-label="${e(`${m.name}, uptime of the last 90 days`)}">${cells}</div>
<p class="scale"><span>90 days ago</span><span>${e(percent(m.uptime_90d))} over 90 days · ${e(percent(m.uptime_24h))} over 24 hours</span><span>Today</span></p>
</section>`;
}

/**
 * The monitors by section (page-sections.ts): those in none first, each a section of its own as
 * before sections existed; then each named section under its heading, its monitors one level below.
 */
function monitorGroups(page: PublicStatusPage): string {
  const out: string[] = [];
  let start = 0;
  page.sections.forEach((group, g) => {
    const members = page.monitors.slice(start, start + group.monitor_count);
    const lines = members.map((m, i) => monitorSection(m, start + i, group.name === null ? 2 : 3)).join('\n');
    start += group.monitor_count;
    out.push(group.name === null ? lines : `<section class="group" aria-labelledby="g${g}"><h2 id="g${g}">${e(group.name)}</h2>\n${lines}\n</section>`);
  });
  return out.join('\n');
}

/** The operators' open incidents with their timelines, then the monitors down now; nothing when there is neither. */
function incidentsSection(page: PublicStatusPage): string {
  if (page.active_incidents.length === 0 && page.incidents.length === 0) return '';
  const articles = page.incidents.map((i) => incidentArticle(page.slug, i, 3)).join('\n');
  const items = page.active_incidents.map((i) => `<li><strong>${e(i.monitor_name)}</strong> is down since ${timeOf(i.started_at)}</li>`);
  return `<section class="incidents" aria-labelledby="incidents"><h2 id="incidents">Active incidents</h2>
${articles}${items.length > 0 ? `<ul>${items.join('')}</ul>` : ''}</section>`;
}

/** A complete document around `body`: the one stylesheet and the one script (not needed to read it), the system's colour scheme. */
export function htmlDocument(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${e(title)}</title>
<link rel="stylesheet" href="${STATUS_PAGE_CSS_PATH}">
<script src="${STATUS_PAGE_JS_PATH}" defer></script>${head}
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
${banner(page)}
</header>
${incidentsSection(page)}
${maintenanceSection(page.maintenance)}
${monitorGroups(page)}
${pastIncidentsSection(page.slug, page.past_incidents)}
<footer>${subscribeForm(page.slug)}
<p>Updated ${timeOf(page.updated_at)} · Follow: <a href="${feedPath(page.slug, 'atom')}">Atom feed</a> · <a href="${feedPath(page.slug, 'rss')}">RSS feed</a></p></footer>`,
    // Feed readers and browsers find the page's feeds from its head.
    `
<link rel="alternate" type="application/atom+xml" title="${e(`${page.title} status (Atom)`)}" href="${feedPath(page.slug, 'atom')}">
<link rel="alternate" type="application/rss+xml" title="${e(`${page.title} status (RSS)`)}" href="${feedPath(page.slug, 'rss')}">`,
  );
}

/** Subscribing by email: a plain form, so it works without JavaScript (docs/status-pages.md, "Subscribers"). */
const subscribeForm = (slug: string): string =>
  `<form class="subscribe" method="post" action="/status/${e(encodeURIComponent(slug))}/subscribe" aria-label="Get updates by email">
<label for="subscribe-email">Email address</label> <input id="subscribe-email" type="email" name="email" required maxlength="320" autocomplete="email"> <button type="submit">Subscribe</button>
</form>`;

/** Where a page's feed is, relative to the host it was read on. */
const feedPath = (slug: string, kind: 'atom' | 'rss'): string => e(`/status/${encodeURIComponent(slug)}/feed.${kind}`);

function banner(page: PublicStatusPage): string {
  const level = bannerLevel(page.status, page.impact);
  return `<p class="banner banner-${level}" role="status">${BANNER_LABEL[level]}</p>`;
}

/** An incident's own page: the page's title, the incident and its whole timeline, a link back. */
export function renderIncidentPage(page: { slug: string; title: string }, incident: PublicIncident): string {
  return htmlDocument(
    `${incident.title} · ${statusPageDocumentTitle(page.title)}`,
    `<header>
<p class="back"><a href="/status/${e(encodeURIComponent(page.slug))}">${e(page.title)}</a></p>
<h1>${e(incident.title)}</h1>
</header>
${incidentArticle(page.slug, incident, 2)}`,
  );
}

/** The answer to an unknown or unpublished slug. */
export function renderPageNotFound(): string {
  return htmlDocument(
    'Status page not found',
    '<header><h1>Status page not found</h1><p class="description">There is no published status page at this address.</p></header>',
  );
}
