/**
 * How a day of a monitor's uptime is shown wherever a visitor or an operator sees it: the public
 * status pages' 90-day bars and the badges (services/api), and the web app's preview of a page
 * (services/web), so the preview grades and names each day as the page will.
 */

/** How an uptime percentage is coloured. */
export type UptimeGrade = 'up' | 'partial' | 'down' | 'none';

/** A day's or a period's grade: up from 99.9 %, partial from 95 %, down below, none without checks. */
export function uptimeGrade(uptime: number | null): UptimeGrade {
  if (uptime === null) return 'none';
  if (uptime >= 99.9) return 'up';
  return uptime >= 95 ? 'partial' : 'down';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-25` → `25 Nov 2026`: the same in every locale (Intl names September "Sep" or "Sept" by version), as the page is the same for everyone. */
export function dayLabel(date: string): string {
  const [y, m, d] = date.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
}

/** A UTC day of the bars in words: `25 Nov 2026: 99.95% uptime`, or `: no checks`. */
export const dayUptimeLabel = (date: string, uptime: number | null): string => `${dayLabel(date)}: ${uptime === null ? 'no checks' : `${uptime.toFixed(2)}% uptime`}`;
