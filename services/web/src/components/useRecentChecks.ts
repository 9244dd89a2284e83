import { useQuery } from '@tanstack/react-query';
import { api, data } from '../app/api';
import { usePolling } from '../app/live';
import { BEADS, RECENT_CHECKS_KEY } from '../app/recent-checks';

/**
 * The latest checks of the monitors shown, in one request (`GET /monitors/recent-checks`),
 * newest first per monitor. While the live stream is up its `checks` events add to it
 * (`addLiveChecks`), so it is never refetched for them; it polls at `pollMs` only while the
 * stream is down.
 */
export function useRecentChecks(ids: number[], pollMs: number) {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return useQuery({
    queryKey: [RECENT_CHECKS_KEY, sorted],
    queryFn: async () => {
      const answer = await data(api.get('/api/v1/monitors/recent-checks', { query: { ids: sorted.join(','), limit: BEADS } }));
      return new Map(answer.data.map((m) => [m.monitor_id, m.checks]));
    },
    enabled: sorted.length > 0,
    refetchInterval: usePolling(pollMs),
  });
}
