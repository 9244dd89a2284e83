import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { api, data } from '../../app/api';
import { usePolling } from '../../app/live';

export type MonitorStatus = Schema<'Monitor'>['status'];
export const MONITOR_STATUSES: MonitorStatus[] = ['online', 'offline', 'warning', 'pending', 'paused'];

export interface MonitorListQuery {
  page: number;
  limit: number;
  search?: string;
  status?: MonitorStatus;
  tags?: string;
}

/** One page at a time: the list never loads every monitor (docs/web.md). */
export function useMonitorList(q: MonitorListQuery) {
  return useQuery({
    queryKey: ['monitors', q],
    queryFn: () => data(api.get('/api/v1/monitors', { query: q })),
    placeholderData: keepPreviousData,
    refetchInterval: usePolling(30_000),
  });
}
