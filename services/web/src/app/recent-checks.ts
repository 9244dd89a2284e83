import type { QueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';

/**
 * The beads' cache (docs/web.md, "Beads"): what `useRecentChecks` (src/components/) reads, and
 * what the live stream (src/app/live.ts) adds to. Apart from both so neither imports the other.
 */

export type RecentCheck = Schema<'RecentChecks'>['checks'][number];

/** Beads per monitor: the list and the dashboard show this many (the API answers up to 50). */
export const BEADS = 30;

/** The root of the beads' query keys: `[RECENT_CHECKS_KEY, ids]`, holding a Map of monitor id to its checks, newest first. */
export const RECENT_CHECKS_KEY = 'recent-checks';

/**
 * A check as the live stream's `checks` event carries it (docs/web.md, "Live updates"; its
 * publisher's type is `LiveCheck` of packages/queues/src/live-events.ts, which the app cannot
 * import: it names the server's database types). The fields the beads read.
 */
export interface LiveCheck {
  monitor_id: number;
  checked_at: string;
  result: 'up' | 'down';
  response_time: number | null;
  /** Absent from a check-worker older than them (during an upgrade): shown as none. */
  status_code?: number | null;
  error?: string | null;
  /** A ping's packet loss and a dns check's first answer values; absent from an older check-worker too. */
  packet_loss?: number | null;
  dns_answers?: string[] | null;
  in_maintenance: boolean;
}

/**
 * Puts the checks of a live event in front of the beads of every monitor shown, at once (no
 * request), with its status code and error, as GET /monitors/recent-checks has them: a check the
 * list has already (the same time) is not added twice, and each monitor keeps its BEADS latest.
 */
export function addLiveChecks(queryClient: QueryClient, checks: LiveCheck[]): void {
  for (const [key, shown] of queryClient.getQueriesData<Map<number, RecentCheck[]>>({ queryKey: [RECENT_CHECKS_KEY] })) {
    if (!shown || !checks.some((c) => shown.has(c.monitor_id))) continue;
    const next = new Map(shown);
    for (const c of [...checks].sort((a, b) => Date.parse(a.checked_at) - Date.parse(b.checked_at))) {
      const list = next.get(c.monitor_id);
      if (!list || list.some((b) => b.checked_at === c.checked_at)) continue;
      const bead: RecentCheck = {
        checked_at: c.checked_at,
        status: c.result,
        status_code: c.status_code ?? null,
        response_time: c.response_time,
        error: c.error ?? null,
        maintenance: c.in_maintenance,
        packet_loss: c.packet_loss ?? null,
        dns_answers: c.dns_answers ?? null,
      };
      next.set(c.monitor_id, [bead, ...list].sort((a, b) => Date.parse(b.checked_at) - Date.parse(a.checked_at)).slice(0, BEADS));
    }
    queryClient.setQueryData(key, next);
  }
}
