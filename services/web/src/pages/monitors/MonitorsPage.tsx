import type { Schema } from '@uptime/client';
import { useViewerReason } from '../../app/organizations';
import { ViewerReason } from '../../components/ViewerReason';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { millis, percent, useFormat } from '../../app/format';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { MonitorStateBadge } from '../../components/StatusBadge';
import { CheckBeads, typeFigure } from '../../components/CheckBeads';
import { ManagedMark } from '../../components/ManagedBy';
import { UptimeBar } from '../../components/UptimeBar';
import { useRecentChecks } from '../../components/useRecentChecks';
import { BEADS, type RecentCheck } from '../../app/recent-checks';
import { useDebounced } from '../../components/useDebounced';
import { usePageTitle } from '../../components/usePageTitle';
import { MONITOR_STATUSES, useMonitorList, type MonitorStatus } from './useMonitorList';

const PAGE_SIZE = 25;

export function MonitorsPage() {
  usePageTitle('Monitors');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = (MONITOR_STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as MonitorStatus) : undefined;
  const search = params.get('search') ?? '';
  const tags = params.get('tags') ?? '';
  const { searchText, setSearchText, tagsText, setTagsText } = useTypedFilters(search, tags, setParams);
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  const viewer = useViewerReason();
  const list = useMonitorList({ page, limit: PAGE_SIZE, search: search || undefined, status, tags: tags || undefined });

  return (
    <>
      <div className="page-head">
        <h1>Monitors</h1>
        <button
          type="button"
          className="button primary"
          disabled={viewer !== null}
          aria-describedby={viewer === null ? undefined : 'monitors-reason'}
          onClick={() => navigate('/monitors/new')}
        >
          Add monitor
        </button>
      </div>
      <ViewerReason id="monitors-reason" reason={viewer} />
      <MonitorFilters
        searchText={searchText}
        onSearchText={setSearchText}
        status={status}
        onStatus={(value) => update({ status: value || undefined })}
        tagsText={tagsText}
        onTagsText={setTagsText}
      />
      <section className="card flush" aria-label="Monitor list">
        <QueryState query={list} what="monitors">
          {(answer) =>
            answer.data.length === 0 ? (
              <NoMonitors filtered={Boolean(search || status || tags)} />
            ) : (
              <>
                <MonitorTable monitors={answer.data} />
                <div className="card-foot">
                  <Pagination pagination={answer.pagination} label="Monitor" onPage={(p) => update({ page: String(p) })} />
                </div>
              </>
            )
          }
        </QueryState>
      </section>
    </>
  );
}

/**
 * The search and tag boxes: what is typed shows at once, and reaches the URL (the list's filters)
 * after a short pause, not on every key.
 */
function useTypedFilters(search: string, tags: string, setParams: ReturnType<typeof useSearchParams>[1]) {
  const [searchText, setSearchText] = useState(search);
  const [tagsText, setTagsText] = useState(tags);

  // Typing filters after a short pause, not on every key; the filters live in the URL.
  const typedSearch = useDebounced(searchText.trim(), 300);
  const typedTags = useDebounced(tagsText.replace(/\s+/g, ''), 300);
  useEffect(() => {
    setParams(
      (prev) => {
        if ((prev.get('search') ?? '') === typedSearch && (prev.get('tags') ?? '') === typedTags) return prev;
        const next = new URLSearchParams(prev);
        for (const [key, value] of [
          ['search', typedSearch],
          ['tags', typedTags],
        ] as const) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, [typedSearch, typedTags, setParams]);
  return { searchText, setSearchText, tagsText, setTagsText };
}

/** The monitors of one page of the list, a row each. */
function MonitorTable({ monitors }: { monitors: Schema<'Monitor'>[] }) {
  const fmt = useFormat();
  // The page's beads in one request; live, the stream's checks add to them (src/app/recent-checks.ts).
  const beads = useRecentChecks(
    monitors.map((m) => m.id),
    30_000,
  );
  return (
    <div className="table-scroll">
      <table className="monitor-table">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Name</th>
            <th scope="col" className="hide-narrow">
              URL
            </th>
            <th scope="col" className="num">
              Uptime 24 h
            </th>
            <th scope="col" className="num hide-narrow">
              Response time
            </th>
            <th scope="col" className="hide-narrow">
              Latest checks
            </th>
            <th scope="col" className="hide-narrow">
              Last 24 hours
            </th>
          </tr>
        </thead>
        <tbody>
          {monitors.map((m) => (
            <tr key={m.id}>
              <td>
                <MonitorStateBadge monitor={m} />
              </td>
              <td>
                <Link to={`/monitors/${m.id}`} className="strong">
                  {m.name}
                </Link>
                <ManagedMark resource={m} />
                {m.tags.length > 0 && (
                  <span className="tags">
                    {m.tags.map((t) => (
                      <span key={t} className="tag">
                        {t}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td className="hide-narrow url-cell" title={m.url ?? undefined}>
                {m.url ?? 'heartbeat'}
              </td>
              <td className="num">{percent(m.uptime_24h)}</td>
              <td className="num hide-narrow" title={m.last_check ? `checked ${fmt.dateTime(m.last_check)}` : 'not checked yet'}>
                {millis(m.response_time)}
                <TypeFigure check={beads.data?.get(m.id)?.[0]} />
              </td>
              <td className="hide-narrow">
                {beads.data ? (
                  <CheckBeads checks={beads.data.get(m.id) ?? []} name={m.name} slots={BEADS} />
                ) : (
                  <span className="muted small">{beads.isError ? 'Unavailable' : 'Loading…'}</span>
                )}
              </td>
              <td className="hide-narrow">
                <UptimeBar monitorId={m.id} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Under a ping or dns monitor's response time, its latest check's figure: packet loss, or the answer. */
function TypeFigure({ check }: { check: RecentCheck | undefined }) {
  const figure = check ? typeFigure(check) : null;
  return figure === null ? null : (
    <span className="cell-note muted small" title={figure}>
      {figure}
    </span>
  );
}

/** The list's filters: search and tags as typed, status as chosen. */
function MonitorFilters({
  searchText,
  onSearchText,
  status,
  onStatus,
  tagsText,
  onTagsText,
}: {
  searchText: string;
  onSearchText: (text: string) => void;
  status: MonitorStatus | undefined;
  onStatus: (status: string) => void;
  tagsText: string;
  onTagsText: (text: string) => void;
}) {
  return (
    <form className="filters" role="search" aria-label="Filter monitors" onSubmit={(e) => e.preventDefault()}>
      <label>
        Search
        <input type="search" value={searchText} onChange={(e) => onSearchText(e.target.value)} placeholder="Name or URL" />
      </label>
      <label>
        Status
        <select value={status ?? ''} onChange={(e) => onStatus(e.target.value)}>
          <option value="">Any</option>
          {MONITOR_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Tags
        <input value={tagsText} onChange={(e) => onTagsText(e.target.value)} placeholder="production,eu" />
      </label>
    </form>
  );
}

/** An empty list: none matches the filters, or there is none yet. */
function NoMonitors({ filtered }: { filtered: boolean }) {
  return (
    <div className="empty">
      {filtered ? (
        <p>No monitor matches these filters.</p>
      ) : (
        <>
          <h2>No monitors yet</h2>
          <p className="muted">Add the first site or API to watch; its first check runs right away.</p>
        </>
      )}
    </div>
  );
}
