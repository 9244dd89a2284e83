import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../app/api';
import { usePolling } from '../../app/live';

/** Refreshes by itself: the dashboard is left open on a screen. */
export const DASHBOARD_REFRESH_MS = 10_000;

export function useDashboard() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: async () => (await data(api.get('/api/v1/dashboard'))).data,
    refetchInterval: usePolling(DASHBOARD_REFRESH_MS),
    refetchIntervalInBackground: false,
  });
}
