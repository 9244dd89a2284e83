import type { DataSource } from '@uptime/db';
import { DAY_MS, HOUR_MS } from './time-buckets';

/** The windows of uptime.repository.ts's Uptime (not imported from it: it imports this file). */
type Uptime = Record<'24h' | '7d' | '30d', number | null>;

const WINDOWS: Record<keyof Uptime, number> = { '24h': 24 * HOUR_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

/** A span of time, in epoch milliseconds. */
export interface Span {
  from: number;
  to: number;
}

/**
 * The share of [from, to] outside the offline spans, × 100 with two decimals; null when the
 * window is empty (the monitor did not exist yet). Overlapping spans count once.
 */
export function timeUptimePercent(window: Span, offline: readonly Span[]): number | null {
  const length = window.to - window.from;
  if (length <= 0) return null;
  let down = 0;
  let reached = window.from;
  for (const s of [...offline].sort((a, b) => a.from - b.from)) {
    const from = Math.max(s.from, reached);
    const to = Math.min(s.to, window.to);
    if (to > from) {
      down += to - from;
      reached = to;
    }
  }
  return Math.round((1 - down / length) * 10000) / 100;
}

/** When a heartbeat was created and when it was offline, in epoch milliseconds. */
export interface HeartbeatOffline {
  created: number;
  offline: Span[];
}

/**
 * The heartbeats among `heartbeatIds` (other types are left out) with their offline spans
 * overlapping [since, now]: their incidents, started_at to resolved_at, an open one up to now.
 * The one source of every time-based figure of a heartbeat (its uptime windows, its stats' period
 * and series, a status page's bars): docs/statistics.md, "Uptime windows".
 */
export async function heartbeatOfflineSpans(ds: DataSource, heartbeatIds: number[], since: Date, now: Date): Promise<Map<number, HeartbeatOffline>> {
  const byMonitor = new Map<number, HeartbeatOffline>();
  if (heartbeatIds.length === 0) return byMonitor;
  const rows: { id: number; created_at: Date; started_at: Date | null; resolved_at: Date | null }[] = await ds.query(
    `SELECT m.id, m.created_at, i.started_at, i.resolved_at
       FROM monitors m
       LEFT JOIN incidents i ON i.monitor_id = m.id AND i.started_at <= $3 AND (i.resolved_at IS NULL OR i.resolved_at > $2)
      WHERE m.id = ANY($1::int[]) AND m.type = 'heartbeat'`,
    [heartbeatIds, since, now],
  );
  for (const r of rows) {
    const entry = byMonitor.get(r.id) ?? { created: r.created_at.getTime(), offline: [] };
    if (r.started_at) entry.offline.push({ from: r.started_at.getTime(), to: (r.resolved_at ?? now).getTime() });
    byMonitor.set(r.id, entry);
  }
  return byMonitor;
}

/** Whether the instant `t` falls in an offline span (a span holds its start, not its end: a success ping ends it). */
export const offlineAt = (t: number, offline: readonly Span[]): boolean => offline.some((s) => s.from <= t && t < s.to);

/**
 * The heartbeat monitors among `monitorIds`, for a caller that does not know the monitors' types.
 * They come from monitors_heartbeat_idx (migration 1796518700000) by the ids' range, a few rows,
 * and the ids are matched after (OFFSET 0 keeps the planner from probing the index once per id,
 * or from scanning every monitor of an organization instead: bench/hot-queries/hot-queries.test.ts).
 * A reduce, not a spread: an organization's ids may be more than a call takes arguments.
 */
export async function heartbeatIdsAmong(ds: DataSource, monitorIds: number[]): Promise<number[]> {
  if (monitorIds.length === 0) return [];
  const rows: { id: number }[] = await ds.query(
    `SELECT m.id FROM (SELECT id FROM monitors WHERE type = 'heartbeat' AND id BETWEEN $2 AND $3 OFFSET 0) m WHERE m.id = ANY($1::int[])`,
    [monitorIds, monitorIds.reduce((a, b) => Math.min(a, b)), monitorIds.reduce((a, b) => Math.max(a, b))],
  );
  return rows.map((r) => r.id);
}

/**
 * Uptime of the heartbeat monitors `heartbeatIds`: the time they were not offline
 * (docs/heartbeats.md, docs/statistics.md). A heartbeat's results are its pings and missed
 * deadlines, not checks at a steady pace, so a count of them says little about time; its
 * offline spans are its incidents (started_at to resolved_at, an open one up to now), and a
 * window starts no earlier than the monitor's creation. Only heartbeat ids are taken: an id of
 * another type is ignored (not in the map), so a caller's mistake cannot give an http monitor a
 * time-based uptime.
 */
export async function heartbeatUptimes(ds: DataSource, heartbeatIds: number[], now: Date): Promise<Map<number, Uptime>> {
  const result = new Map<number, Uptime>();
  if (heartbeatIds.length === 0) return result;
  const byMonitor = await heartbeatOfflineSpans(ds, heartbeatIds, new Date(now.getTime() - WINDOWS['30d']), now);
  const end = now.getTime();
  for (const [id, { created, offline }] of byMonitor) {
    const at = (w: keyof Uptime): number | null => timeUptimePercent({ from: Math.max(end - WINDOWS[w], created), to: end }, offline);
    result.set(id, { '24h': at('24h'), '7d': at('7d'), '30d': at('30d') });
  }
  return result;
}

/** A heartbeat's daily bars and their total, as a status page and a badge show them. */
export interface HeartbeatDays {
  days: { date: string; uptime: number | null }[];
  total: number | null;
}

/**
 * The last `dayCount` UTC days (today included, oldest first) of the heartbeat monitors among
 * `monitorIds`, each day's uptime the share of it (from the monitor's creation, up to now) not
 * offline, and the total over them alike: a status page's and a badge's bars and 90-day figure
 * measure a heartbeat in time, as its 24 h to 30 d uptime does (docs/statistics.md). Other
 * monitors are not in the map: their bars count checks.
 */
export async function heartbeatDailyUptimes(ds: DataSource, monitorIds: number[], now: Date, dayCount: number): Promise<Map<number, HeartbeatDays>> {
  const result = new Map<number, HeartbeatDays>();
  const heartbeatIds = await heartbeatIdsAmong(ds, monitorIds);
  if (heartbeatIds.length === 0) return result;
  const first = Math.floor(now.getTime() / DAY_MS) * DAY_MS - (dayCount - 1) * DAY_MS;
  const byMonitor = await heartbeatOfflineSpans(ds, heartbeatIds, new Date(first), now);
  const end = now.getTime();
  for (const [id, { created, offline }] of byMonitor) {
    const days: HeartbeatDays['days'] = [];
    for (let day = first; day <= end; day += DAY_MS) {
      days.push({ date: new Date(day).toISOString().slice(0, 10), uptime: timeUptimePercent({ from: Math.max(day, created), to: Math.min(day + DAY_MS, end) }, offline) });
    }
    result.set(id, { days, total: timeUptimePercent({ from: Math.max(first, created), to: end }, offline) });
  }
  return result;
}
