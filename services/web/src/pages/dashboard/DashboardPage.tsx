import type { Schema } from '@uptime/client';
import { Link, useNavigate } from 'react-router-dom';
import { millis, percent, useFormat } from '../../app/format';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../components/usePageTitle';
import { NotificationList } from '../notifications/NotificationList';
import { latenessMessage } from './lateness';
import { useDashboard } from './useDashboard';

const COUNTS = ['online', 'offline', 'warning', 'pending', 'paused'] as const;

export function DashboardPage() {
  usePageTitle('Dashboard');
  const dashboard = useDashboard();
  const fmt = useFormat();
  const navigate = useNavigate();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Dashboard</h1>
          <p className="muted small" aria-live="off">
            {dashboard.dataUpdatedAt
              ? `Updated ${fmt.time(new Date(dashboard.dataUpdatedAt).toISOString())} · refreshes every 10 s`
              : 'Refreshes every 10 s'}
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
  const fmt = useFormat();
  const lateness = latenessMessage(d.checks);
  return (
    <>
      {lateness && (
        <div className="error-box lateness" role="alert">
          <strong>{lateness}.</strong>
          {d.checks.lag_p99_seconds !== null && ` ${d.checks.per_second.toFixed(1)} checks per second now.`}
        </div>
      )}
      <section aria-labelledby="counts-title">
        <h2 id="counts-title" className="visually-hidden">
          Monitors by status
        </h2>
        <ul className="stat-grid">
          <li className="stat">
            <span className="stat-label">Monitors</span>
            <span className="stat-value">{d.monitors.total}</span>
          </li>
          {COUNTS.map((s) => (
            <li key={s} className={`stat stat-${s}`}>
              <span className="stat-label">
                <StatusBadge status={s} />
              </span>
              <span className="stat-value">
                <Link to={`/monitors?status=${s}`} aria-label={`${d.monitors[s]} ${s}`}>
                  {d.monitors[s]}
                </Link>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="stat-grid wide" aria-label="Averages">
        <div className="stat">
          <span className="stat-label">Average uptime, 24 h</span>
          <span className="stat-value">{percent(d.uptime['24h'])}</span>
        </div>
        <div className="stat">
          <span className="stat-label">7 days</span>
          <span className="stat-value">{percent(d.uptime['7d'])}</span>
        </div>
        <div className="stat">
          <span className="stat-label">30 days</span>
          <span className="stat-value">{percent(d.uptime['30d'])}</span>
        </div>
        <div className="stat">
          <span className="stat-label">Response time, 24 h</span>
          <span className="stat-value">{millis(d.response_time_avg_24h)}</span>
        </div>
        <div className="stat">
          <span className="stat-label">Active incidents</span>
          <span className="stat-value">{d.active_incidents}</span>
        </div>
      </section>
      <div className="two-columns">
        <section className="card" aria-labelledby="down-title">
          <h2 id="down-title">Down now</h2>
          {d.down_monitors.length === 0 ? (
            <p className="all-good">
              <StatusBadge status="online" tone="good" /> Every monitor that is checked is up.
            </p>
          ) : (
            <ul className="plain-list">
              {d.down_monitors.map((m) => (
                <li key={m.id} className="row-between">
                  <span>
                    <StatusBadge status="offline" /> <Link to={`/monitors/${m.id}`}>{m.name}</Link>
                    <span className="muted small block">{m.url}</span>
                  </span>
                  <span className="muted small">
                    {m.since ? `since ${fmt.dateTime(m.since)} (${fmt.ago(m.since)})` : 'since its last check'}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent notifications</h2>
          {d.recent_notifications.length === 0 ? (
            <p className="muted">No notifications yet.</p>
          ) : (
            <NotificationList items={d.recent_notifications} compact />
          )}
          <p>
            <Link to="/notifications">All notifications</Link>
          </p>
        </section>
      </div>
    </>
  );
}
