import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, data } from '../../app/api';
import { usePolling } from '../../app/live';

export const MAINTENANCE_KEY = ['maintenance-windows'] as const;
/** The API's largest page: the dashboard reads the first 100 windows for what is ongoing or next. */
const LARGEST_PAGE = 100;

/** One page of the organization's maintenance windows, id order. */
export function useMaintenanceWindows(page: number, limit = 25) {
  return useQuery({
    queryKey: [...MAINTENANCE_KEY, page, limit],
    queryFn: () => data(api.get('/api/v1/maintenance-windows', { query: { page, limit } })),
    placeholderData: keepPreviousData,
  });
}

/** The dashboard's maintenance: the first page of 100 windows, refreshed with the dashboard. */
export function useDashboardMaintenance(refreshMs: number) {
  return useQuery({
    queryKey: [...MAINTENANCE_KEY, 'dashboard'],
    queryFn: async () => (await data(api.get('/api/v1/maintenance-windows', { query: { page: 1, limit: LARGEST_PAGE } }))).data,
    refetchInterval: usePolling(refreshMs),
    refetchIntervalInBackground: false,
  });
}
