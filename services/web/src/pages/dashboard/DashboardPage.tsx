import type { Schema } from '@uptime/client';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { millis, percent, useFormat } from '../../app/format';
import { useLiveState } from '../../app/live';
import { QueryState } from '../../components/QueryState';
import { StatFigures } from '../../components/StatFigures';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../components/usePageTitle';
import { NotificationList } from '../notifications/NotificationList';
import { latenessMessage } from './lateness';
import { DASHBOARD_REFRESH_MS, useDashboard } from './useDashboard';
import { UpcomingMaintenance } from '../maintenance/UpcomingMaintenance';
import { LatestChecks } from './LatestChecks';

const COUNTS = ['online', 'offline', 'warning', 'pending', 'paused'] as const;

export function DashboardPage() {
  usePageTitle('Dashboard');
  const dashboard = useDashboard();
  const fmt = useFormat();
  const navigate = useNavigate();
  const refresh = useLiveState() === 'live' ? 'live' : 'refreshes every 10 s';
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Dashboard</h1>
          <p className="muted small" aria-live="off">
            {dashboard.dataUpdatedAt ? `Updated ${fmt.time(new Date(dashboard.dataUpdatedAt).toISOString())} · ${refresh}` : refresh}
          </p>
        </div>
        <button type="button" className="button primary" onClick={() => navigate('/monitors/new')}>
          Add monitor
        </button>
      </div>
      <QueryState query={dashboard} what="the dashboard">
        {(d) => <DashboardBody d={d} />}
      </QueryState>
    </>
  );
}

function DashboardBody({ d }: { d: Schema<'Dashboard'> }) {
  return (
    <>
      <LatenessAlert checks={d.checks} />
      <StatusCounts monitors={d.monitors} />
      <Averages d={d} />
      <div className="two-columns">
        <DownNow monitors={d.down_monitors} />
        <RecentNotifications items={d.recent_notifications} />
      </div>
      <LatestChecks down={d.down_monitors} />
      <UpcomingMaintenance refreshMs={DASHBOARD_REFRESH_MS} />
    </>
  );
}

/** Checks running late (docs/reliability.md): how late, and how many run a second now. */
function LatenessAlert({ checks }: { checks: Schema<'Dashboard'>['checks'] }) {
  const lateness = latenessMessage(checks);
  if (!lateness) return null;
  return (
    <div className="error-box lateness" role="alert">
      <strong>{lateness}.</strong>
      {checks.lag_p99_seconds !== null && ` ${checks.per_second.toFixed(1)} checks per second now.`}
    </div>
  );
}

/** How many monitors there are, and per status a link to the monitors list filtered by it. */
function StatusCounts({ monitors }: { monitors: Schema<'Dashboard'>['monitors'] }) {
  return (
    <section aria-labelledby="counts-title">
      <h2 id="counts-title" className="visually-hidden">
        Monitors by status
      </h2>
      <ul className="stat-grid">
        <li className="stat">
          <span className="stat-label">Monitors</span>
          <span className="stat-value">{monitors.total}</span>
        </li>
        {COUNTS.map((s) => (
          <li key={s} className={`stat stat-${s}`}>
            <span className="stat-label">
              <StatusBadge status={s} />
            </span>
            <span className="stat-value">
              <Link to={`/monitors?status=${s}`} aria-label={`${monitors[s]} ${s}`}>
                {monitors[s]}
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Averages({ d }: { d: Schema<'Dashboard'> }) {
  const figures: [string, ReactNode][] = [
    ['Average uptime, 24 h', percent(d.uptime['24h'])],
    ['7 days', percent(d.uptime['7d'])],
    ['30 days', percent(d.uptime['30d'])],
    ['Response time, 24 h', millis(d.response_time_avg_24h)],
    ['Active incidents', d.active_incidents],
  ];
  return <StatFigures label="Averages" figures={figures} />;
}

/**
 * The offline monitors, longest outage first; those in a maintenance window (planned work,
 * docs/alert-rules.md) are not down: they are listed apart, as Maintenance.
 */
function DownNow({ monitors }: { monitors: Schema<'Dashboard'>['down_monitors'] }) {
  const down = monitors.filter((m) => !m.in_maintenance);
  const inMaintenance = monitors.filter((m) => m.in_maintenance);
  return (
    <section className="card" aria-labelledby="down-title">
      <h2 id="down-title">Down now</h2>
      {down.length === 0 ? (
        <p className="all-good">
          <StatusBadge status="online" tone="good" /> Every monitor that is checked is up{inMaintenance.length > 0 ? ' or in maintenance' : ''}.
        </p>
      ) : (
        <MonitorRows monitors={down} state="offline" />
      )}
      {inMaintenance.length > 0 && (
        <section aria-labelledby="maintenance-title">
          <h3 id="maintenance-title">In maintenance</h3>
          <MonitorRows monitors={inMaintenance} state="maintenance" />
        </section>
      )}
    </section>
  );
}

function MonitorRows({ monitors, state }: { monitors: Schema<'Dashboard'>['down_monitors']; state: 'offline' | 'maintenance' }) {
  const fmt = useFormat();
  return (
    <ul className="plain-list">
      {monitors.map((m) => (
        <li key={m.id} className="row-between">
          <span>
            <StatusBadge status={state} /> <Link to={`/monitors/${m.id}`}>{m.name}</Link>
            <span className="muted small block">{m.url}</span>
          </span>
          {/* A monitor in maintenance has no downtime open: its last failure moves with each check. */}
          {state === 'offline' && (
            <span className="muted small">{m.since ? `since ${fmt.dateTime(m.since)} (${fmt.ago(m.since)})` : 'since its last check'}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

function RecentNotifications({ items }: { items: Schema<'Dashboard'>['recent_notifications'] }) {
  return (
    <section className="card" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent notifications</h2>
      {items.length === 0 ? <p className="muted">No notifications yet.</p> : <NotificationList items={items} compact />}
      <p>
        <Link to="/notifications">All notifications</Link>
      </p>
    </section>
  );
}
