import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { duration, millis, percent, useFormat } from '../../app/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { QueryState } from '../../components/QueryState';
import { ResponseTimeChart } from '../../components/ResponseTimeChart';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../components/usePageTitle';
import { AlertSettingsCard } from './AlertSettingsCard';
import { AssignedAgentsCard } from './AssignedAgentsCard';
import { BadgeCard } from './BadgeCard';
import {
  GRANULARITIES,
  granularityFits,
  PERIODS,
  useIncidents,
  useMonitor,
  useMonitorActions,
  useMonitorStats,
  useRecentResults,
  type Granularity,
  type Period,
} from './useMonitorDetail';

export function MonitorDetailPage() {
  const id = Number(useParams().id);
  const monitor = useMonitor(id);
  usePageTitle(monitor.data?.name ?? 'Monitor');
  return (
    <QueryState query={monitor} what="the monitor">
      {(m) => <MonitorDetail m={m} />}
    </QueryState>
  );
}

function MonitorDetail({ m }: { m: Schema<'Monitor'> }) {
  const fmt = useFormat();
  return (
    <>
      <div className="page-head">
        <div>
          <p className="breadcrumb">
            <Link to="/monitors">Monitors</Link> /
          </p>
          <h1 className="row-wrap">
            {m.name} <StatusBadge status={m.status} />
          </h1>
          <p className="muted">
            <span className="mono">{m.method}</span> {m.url} · every {duration(m.check_interval)} · timeout {m.timeout} s
          </p>
          {m.status === 'paused' && (
            <p className="info-box">
              Paused {fmt.ago(m.paused_at)}
              {m.pause_reason ? `: ${m.pause_reason}` : ''}.
            </p>
          )}
        </div>
      </div>
      <MonitorActions m={m} />
      <UptimeFigures m={m} />
      <ResponseTimes id={m.id} />
      {/* Full width: each check's timings need the room. */}
      <RecentResults id={m.id} />
      <div className="two-columns">
        <div>
          <Incidents id={m.id} />
          <AlertSettingsCard id={m.id} />
        </div>
        <div>
          <AssignedAgentsCard id={m.id} />
          <BadgeCard id={m.id} />
        </div>
      </div>
    </>
  );
}

function MonitorActions({ m }: { m: Schema<'Monitor'> }) {
  const actions = useMonitorActions(m.id);
  const navigate = useNavigate();
  const fmt = useFormat();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const tested = actions.test.data;
  return (
    <section className="card actions-card" aria-label="Actions">
      <div className="row-wrap">
        {m.status === 'paused' ? (
          <button type="button" className="button" disabled={actions.resume.isPending} onClick={() => actions.resume.mutate()}>
            Resume
          </button>
        ) : (
          <span className="row-wrap pause-group">
            <label className="inline-label">
              <span className="visually-hidden">Pause reason (optional)</span>
              <input
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                placeholder="Pause reason (optional)"
                aria-label="Pause reason (optional)"
              />
            </label>
            <button
              type="button"
              className="button"
              disabled={actions.pause.isPending}
              onClick={() => actions.pause.mutate(reason, { onSuccess: () => setReason('') })}
            >
              Pause
            </button>
          </span>
        )}
        <button type="button" className="button" disabled={actions.test.isPending} onClick={() => actions.test.mutate()}>
          Test now
        </button>
        <Link to={`/monitors/${m.id}/edit`} className="button">
          Edit
        </Link>
        <button type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      {actions.test.isPending && (
        <p className="muted" role="status">
          Checking {m.url}…
        </p>
      )}
      {tested && (
        <p className={`test-result ${tested.status}`} role="status">
          Test result: <StatusBadge status={tested.status} /> {tested.status_code !== null && `HTTP ${tested.status_code} · `}
          {millis(tested.response_time)} at {fmt.time(tested.checked_at)}
          {tested.error && ` · ${tested.error}`}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Delete ${m.name}?`}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            actions.remove.mutate(undefined, {
              onSuccess: () => navigate('/monitors', { replace: true }),
              onSettled: () => setConfirming(false),
            })
          }
          busy={actions.remove.isPending}
        >
          Its checks, statistics and notifications are deleted with it. This cannot be undone.
        </ConfirmDialog>
      )}
    </section>
  );
}

function UptimeFigures({ m }: { m: Schema<'Monitor'> }) {
  const ninety = useMonitorStats(m.id, '90d', '1d');
  const fmt = useFormat();
  const checks = ninety.data?.checks;
  const uptime90 = checks && checks.total > 0 ? (checks.successful / checks.total) * 100 : null;
  const figures: [string, string][] = [
    ['Uptime 24 h', percent(m.uptime_24h)],
    ['Uptime 7 d', percent(m.uptime_7d)],
    ['Uptime 30 d', percent(m.uptime_30d)],
    ['Uptime 90 d', ninety.data ? percent(uptime90) : '…'],
    ['Last response', millis(m.response_time)],
    ['Last check', m.last_check ? fmt.ago(m.last_check) : 'not yet'],
  ];
  return (
    <section aria-label="Uptime" className="stat-grid wide">
      {figures.map(([label, value]) => (
        <div key={label} className="stat">
          <span className="stat-label">{label}</span>
          <span className="stat-value">{value}</span>
        </div>
      ))}
    </section>
  );
}

function ResponseTimes({ id }: { id: number }) {
  const [period, setPeriod] = useState<Period>('24h');
  const [granularity, setGranularity] = useState<Granularity>('5m');
  const stats = useMonitorStats(id, period, granularity);
  const fmt = useFormat();
  const choosePeriod = (p: Period) => {
    setPeriod(p);
    if (!granularityFits(p, granularity)) setGranularity(GRANULARITIES.find((g) => granularityFits(p, g))!);
  };
  return (
    <section className="card" aria-labelledby="rt-title">
      <div className="row-between">
        <h2 id="rt-title">Response time</h2>
        <div className="row-wrap">
          <div className="segmented" role="group" aria-label="Period">
            {PERIODS.map((p) => (
              <button key={p} type="button" className="button small" aria-pressed={period === p} onClick={() => choosePeriod(p)}>
                {p}
              </button>
            ))}
          </div>
          <label className="inline-label">
            Granularity
            <select value={granularity} onChange={(e) => setGranularity(e.target.value as Granularity)}>
              {GRANULARITIES.map((g) => (
                <option key={g} value={g} disabled={!granularityFits(period, g)}>
                  {g}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <QueryState query={stats} what="statistics">
        {(s) => (
          <>
            <ResponseTimeChart series={s.series} fmt={fmt} label={`Mean response time per ${s.granularity} over ${s.period}`} />
            <dl className="inline-figures">
              <div>
                <dt>Mean</dt>
                <dd>{millis(s.response_times.avg)}</dd>
              </div>
              <div>
                <dt>p95</dt>
                <dd>{millis(s.response_times.p95)}</dd>
              </div>
              <div>
                <dt>Fastest</dt>
                <dd>{millis(s.response_times.min)}</dd>
              </div>
              <div>
                <dt>Slowest</dt>
                <dd>{millis(s.response_times.max)}</dd>
              </div>
              <div>
                <dt>Checks</dt>
                <dd>
                  {s.checks.successful} up / {s.checks.failed} down
                </dd>
              </div>
              <div>
                <dt>Downtime</dt>
                <dd>
                  {duration(s.incidents.total_downtime)} in {s.incidents.count} incident{s.incidents.count === 1 ? '' : 's'}
                </dd>
              </div>
              <div>
                <dt>Not checked</dt>
                <dd>{duration(s.no_data.total_seconds)}</dd>
              </div>
            </dl>
            <NoDataSpans spans={s.no_data.spans} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function Incidents({ id }: { id: number }) {
  const incidents = useIncidents(id);
  const fmt = useFormat();
  return (
    <section className="card" aria-labelledby="incidents-title">
      <h2 id="incidents-title">Incidents</h2>
      <QueryState query={incidents} what="incidents">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No downtime recorded.</p>
          ) : (
            <ul className="plain-list">
              {list.map((n) => (
                <li key={n.id} className="row-between">
                  <span>
                    <StatusBadge status={n.status} tone={n.status === 'active' ? 'bad' : 'good'} /> {fmt.dateTime(n.started_at)}
                    {n.error_details && <span className="muted small block">{n.error_details.error_message}</span>}
                  </span>
                  <span className="muted small">
                    {n.resolved_at ? `lasted ${duration(n.duration)}` : `ongoing, ${fmt.ago(n.started_at).replace(' ago', '')}`}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function RecentResults({ id }: { id: number }) {
  const results = useRecentResults(id);
  const fmt = useFormat();
  return (
    <section className="card flush" aria-labelledby="results-title">
      <h2 id="results-title" className="pad">
        Recent checks
      </h2>
      <QueryState query={results} what="recent checks">
        {(list) =>
          list.length === 0 ? (
            <p className="muted pad">No checks yet.</p>
          ) : (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Result</th>
                    <th scope="col" className="num">
                      Code
                    </th>
                    <th scope="col" className="num">
                      Time taken
                    </th>
                    <th scope="col">Timings</th>
                    <th scope="col">Location</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((r) => (
                    <tr key={r.id} title={r.error ?? undefined}>
                      <td>{fmt.time(r.checked_at)}</td>
                      <td>
                        <StatusBadge status={r.status} />
                        {r.error && <span className="muted small block">{r.error}</span>}
                      </td>
                      <td className="num">{r.status_code ?? '—'}</td>
                      <td className="num">{millis(r.response_time)}</td>
                      <td className="small">{timingsText(r.timings)}</td>
                      <td>
                        {r.locations.length > 0
                          ? r.locations.map((l) => `${l.location} (${l.status})`).join(', ')
                          : (r.location ?? 'Check worker')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}

const PHASES = [
  ['dns', 'DNS'],
  ['connect', 'connect'],
  ['tls', 'TLS'],
  ['first_byte', 'first byte'],
  ['total', 'total'],
] as const;

/** "DNS 3 ms, connect 10 ms, TLS 25 ms, first byte 80 ms, total 95 ms"; phases not reached are left out. */
function timingsText(t: Schema<'CheckTimings'>): string {
  const parts = PHASES.filter(([key]) => t[key] !== null).map(([key, label]) => `${label} ${millis(t[key])}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

const SPANS_SHOWN = 5;

/**
 * When nobody checked the monitor (check-workers down, a backlog): uptime leaves this time out,
 * so it is said in words rather than drawn as up or down (docs/statistics.md).
 */
function NoDataSpans({ spans }: { spans: Schema<'NoDataSpan'>[] }) {
  const fmt = useFormat();
  if (spans.length === 0) return null;
  return (
    <div className="no-data">
      <p className="small strong" id="no-data-title">
        Not checked (no data)
      </p>
      <ul className="plain-list small" aria-labelledby="no-data-title">
        {spans.slice(0, SPANS_SHOWN).map((span) => (
          <li key={span.from}>
            {fmt.dateTime(span.from)} to {span.to ? fmt.dateTime(span.to) : 'now'}
          </li>
        ))}
      </ul>
      {spans.length > SPANS_SHOWN && <p className="muted small">and {spans.length - SPANS_SHOWN} earlier.</p>}
    </div>
  );
}
