import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { api, data } from '../../app/api';
import { useLiveState, usePolling } from '../../app/live';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import type { Granularity, Period } from './chart-periods';

const REFRESH_MS = 15_000;

/**
 * What the monitor's page shows of its state, read as one: the monitor (status, last check,
 * uptime), its 90 days and its recent checks. The header's claims are read first and the checks
 * after, so a check the header counts is among them: the check-worker records a check and steps
 * the monitor's state in one transaction (docs/architecture.md, "A check result"), committed
 * before the first read saw it. Shown together, the header never claims a check that "Recent
 * checks" does not show, even for the few milliseconds between two answers.
 */
export interface MonitorPageRead {
  monitor: Schema<'MonitorDetail'>;
  ninety: Schema<'MonitorStats'>;
  /** Newest first; null for a heartbeat, whose pings have their own log (docs/heartbeats.md). */
  results: Schema<'CheckResult'>[] | null;
}

export const monitorPageKey = (id: number) => ['monitor', id, 'page'] as const;

async function readMonitorPage(id: number): Promise<MonitorPageRead> {
  const [monitor, ninety] = await Promise.all([
    data(api.get('/api/v1/monitors/{id}', { path: { id } })),
    data(api.get('/api/v1/monitors/{id}/stats', { path: { id }, query: { period: '90d', granularity: '1d' } })),
  ]);
  const results =
    monitor.data.type === 'heartbeat'
      ? null
      : ((await data(api.get('/api/v1/monitors/{id}/results', { path: { id }, query: { page: 1, limit: 15 } }))).data as Schema<'CheckResult'>[]);
  return { monitor: monitor.data, ninety: ninety.data, results };
}

export function useMonitorPage(id: number) {
  const live = useLiveState() === 'live';
  return useQuery({
    queryKey: monitorPageKey(id),
    queryFn: () => readMonitorPage(id),
    // Live, its events refetch it (src/app/live.ts). Else: a new or resumed monitor gets its
    // first check within seconds, shown without waiting long.
    refetchInterval: (query) => (live ? false : query.state.data?.monitor.status === 'pending' ? 2_000 : REFRESH_MS),
  });
}

/**
 * After a change made from the app (a pause, a new heartbeat URL): the monitor is read afresh,
 * never patched from the change's answer, so the page's header and its checks stay one read.
 */
export async function monitorChanged(queryClient: QueryClient, id: number): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: ['monitor', id], exact: true }), queryClient.invalidateQueries({ queryKey: monitorPageKey(id), exact: true })]);
}

/** After a save from the form, which opens the page next: it loads afresh, never as it was before the save. */
export function monitorSaved(queryClient: QueryClient, id: number): void {
  queryClient.removeQueries({ queryKey: ['monitor', id], exact: true });
  queryClient.removeQueries({ queryKey: monitorPageKey(id), exact: true });
}

export function useMonitorStats(id: number, period: Period, granularity: Granularity) {
  return useQuery({
    queryKey: ['monitor', id, 'stats', period, granularity],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/stats', { path: { id }, query: { period, granularity } }))).data,
    refetchInterval: usePolling(REFRESH_MS),
  });
}

/** Incidents are the monitor's downtime notifications: start, end and duration. */
export function useIncidents(id: number) {
  return useQuery({
    queryKey: ['notifications', 'monitor', id],
    queryFn: async () => (await data(api.get('/api/v1/notifications', { query: { monitor_id: id, type: 'downtime', limit: 10 } }))).data,
    refetchInterval: usePolling(REFRESH_MS),
  });
}

/** Pause, resume, test, delete: each says how it went. */
export function useMonitorActions(id: number) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const changed = async () => {
    void queryClient.invalidateQueries({ queryKey: ['monitors'] });
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    await monitorChanged(queryClient, id);
  };
  const onError = (err: unknown) => notices.error(errorMessage(err));
  return {
    pause: useMutation({
      mutationFn: async (reason: string) =>
        (await data(api.post('/api/v1/monitors/{id}/pause', { path: { id }, body: { reason: reason.trim() || null } }))).data,
      onSuccess: async () => {
        await changed();
        notices.success('Monitor paused');
      },
      onError,
    }),
    resume: useMutation({
      mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/resume', { path: { id } }))).data,
      onSuccess: async () => {
        await changed();
        notices.success('Monitor resumed; its next check runs now');
      },
      onError,
    }),
    test: useMutation({
      mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/test', { path: { id } }))).data,
      onSuccess: (r) =>
        r.status === 'up' ? notices.success('Test check: up') : notices.error(`Test check: down${r.error ? ` (${r.error})` : ''}`),
      onError,
    }),
    remove: useMutation({
      mutationFn: async () => data(api.delete('/api/v1/monitors/{id}', { path: { id } })),
      onSuccess: () => {
        queryClient.removeQueries({ queryKey: ['monitor', id] });
        void queryClient.invalidateQueries({ queryKey: ['monitors'] });
        void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
        notices.success('Monitor deleted');
      },
      onError,
    }),
  };
}
