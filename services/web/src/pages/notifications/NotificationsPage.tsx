import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useSearchParams } from 'react-router-dom';
import { api, data } from '../../app/api';
import { usePolling } from '../../app/live';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { usePageTitle } from '../../components/usePageTitle';
import { NotificationList } from './NotificationList';

const VIEWS = [
  { id: 'active', label: 'Active' },
  { id: 'recent', label: 'Recent' },
  { id: 'all', label: 'All' },
] as const;
type View = (typeof VIEWS)[number]['id'];

const PAGE_SIZE = 20;

type NotificationType = Schema<'Notification'>['type'];
const TYPES: { id: NotificationType; label: string }[] = [
  { id: 'downtime', label: 'Downtime' },
  { id: 'recovery', label: 'Recovery' },
  { id: 'slow', label: 'Slow' },
  { id: 'certificate', label: 'Certificate' },
];

function useNotificationPage(
  view: View,
  page: number,
  filters: { type?: NotificationType; status?: 'active' | 'resolved'; since?: string },
) {
  return useQuery({
    queryKey: ['notifications', view, page, filters],
    queryFn: async () => {
      const query = { page, limit: PAGE_SIZE };
      if (view === 'active') return data(api.get('/api/v1/notifications/active', { query }));
      if (view === 'recent') return data(api.get('/api/v1/notifications/recent', { query }));
      return data(api.get('/api/v1/notifications', { query: { ...query, ...filters } }));
    },
    placeholderData: keepPreviousData,
    refetchInterval: usePolling(15_000),
  });
}

export function NotificationsPage() {
  usePageTitle('Notifications');
  const [params, setParams] = useSearchParams();
  const view = (VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'active') as View;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const type = TYPES.find((t) => t.id === params.get('type'))?.id ?? null;
  const status = params.get('status') as 'active' | 'resolved' | null;
  const since = params.get('since');
  const filters = { type: type ?? undefined, status: status ?? undefined, since: since ?? undefined };
  const list = useNotificationPage(view, page, filters);

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };

  return (
    <>
      <div className="page-head">
        <h1>Notifications</h1>
      </div>
      <div className="segmented" role="group" aria-label="Which notifications">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            className="button"
            aria-pressed={view === v.id}
            onClick={() => set({ view: v.id === 'active' ? null : v.id })}
          >
            {v.label}
          </button>
        ))}
      </div>
      {view === 'all' && <NotificationFilters type={type} status={status} since={since} onChange={set} />}
      <section className="card" aria-label={`${VIEWS.find((v) => v.id === view)!.label} notifications`}>
        <QueryState query={list} what="notifications">
          {(answer) => (
            <>
              {answer.data.length === 0 ? (
                <p className="muted">{view === 'active' ? 'Nothing needs attention right now.' : 'No notifications match.'}</p>
              ) : (
                <NotificationList items={answer.data} />
              )}
              {'pagination' in answer && (
                <Pagination pagination={answer.pagination} label="Notification" onPage={(p) => set({ page: String(p) })} />
              )}
            </>
          )}
        </QueryState>
      </section>
    </>
  );
}

/** The All view's filters: type, state and a first day; each change is a new URL. */
function NotificationFilters({
  type,
  status,
  since,
  onChange,
}: {
  type: NotificationType | null;
  status: 'active' | 'resolved' | null;
  since: string | null;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const set = onChange;
  return (
    <form className="filters" role="search" aria-label="Filter notifications" onSubmit={(e) => e.preventDefault()}>
      <label>
        Type
        <select value={type ?? ''} onChange={(e) => set({ type: e.target.value || null })}>
          <option value="">Any</option>
          {TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        State
        <select value={status ?? ''} onChange={(e) => set({ status: e.target.value || null })}>
          <option value="">Any</option>
          <option value="active">Active</option>
          <option value="resolved">Resolved</option>
        </select>
      </label>
      <label>
        Since
        <input type="date" value={since ?? ''} onChange={(e) => set({ since: e.target.value || null })} />
      </label>
    </form>
  );
}
