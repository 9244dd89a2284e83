import type { Schema } from '@uptime/client';
import { useViewerReason } from '../../app/organizations';
import { ViewerReason } from '../../components/ViewerReason';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { duration, millis, percent, useFormat } from '../../app/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ManagedMark } from '../../components/ManagedBy';
import { QueryState } from '../../components/QueryState';
import { StatFigures } from '../../components/StatFigures';
import { MonitorStateBadge, StatusBadge, monitorState } from '../../components/StatusBadge';
import { usePageTitle } from '../../components/usePageTitle';
import { AlertSettingsCard } from './AlertSettingsCard';
import { AssignedAgentsCard } from './AssignedAgentsCard';
import { BadgeCard } from './BadgeCard';
import { Incidents } from './Incidents';
import { RecentResults } from './RecentResults';
import { ResponseTimes } from './ResponseTimes';
import { useMonitorActions, useMonitorPage, type MonitorPageRead } from './useMonitorDetail';
import { pingText } from './ping-figures';
import { HeartbeatAddressCard, PingLog } from '../heartbeat/HeartbeatCard';

export function MonitorDetailPage() {
  const id = Number(useParams().id);
  const read = useMonitorPage(id);
  usePageTitle(read.data?.monitor.name ?? 'Monitor');
  return (
    <QueryState query={read} what="the monitor">
      {(r) => <MonitorDetail read={r} />}
    </QueryState>
  );
}

/** The page of one read (`useMonitorPage`): its header and its recent checks agree. */
function MonitorDetail({ read }: { read: MonitorPageRead }) {
  const m = read.monitor;
  const fmt = useFormat();
  return (
    <>
      <div className="page-head">
        <div>
          <p className="breadcrumb">
            <Link to="/monitors">Monitors</Link> /
          </p>
          <h1 className="row-wrap">
            {m.name} <MonitorStateBadge monitor={m} />
            <ManagedMark resource={m} />
          </h1>
          <p className="muted">
            {m.type === 'heartbeat' ? (
              <>
                Heartbeat ·{' '}
                {m.heartbeat_cron ? (
                  <>
                    cron <span className="mono">{m.heartbeat_cron}</span> ({m.heartbeat_timezone})
                  </>
                ) : (
                  `every ${duration(m.heartbeat_period)}`
                )}{' '}
                · grace {duration(m.heartbeat_grace)}
                {m.status_reason === 'late' ? ' · late' : ''}
              </>
            ) : (
              <>
                <span className="mono">{m.method ?? m.type.toUpperCase()}</span> {m.url} · every {duration(m.check_interval)} · timeout {m.timeout} s
              </>
            )}
          </p>
          {m.status === 'paused' && (
            <p className="info-box">
              Paused {fmt.ago(m.paused_at)}
              {m.pause_reason ? `: ${m.pause_reason}` : ''}.
            </p>
          )}
          {monitorState(m) === 'maintenance' && <MaintenanceNote m={m} />}
        </div>
      </div>
      <MonitorActions m={m} />
      <UptimeFigures m={m} ninety={read.ninety} />
      {m.type === 'heartbeat' ? (
        <>
          <HeartbeatAddressCard m={m} />
          <PingLog id={m.id} />
        </>
      ) : (
        <>
          <ResponseTimes id={m.id} createdAt={m.created_at} />
          {/* Full width: each check's timings need the room. */}
          <RecentResults results={read.results ?? []} />
        </>
      )}
      <div className="two-columns">
        <div>
          <Incidents id={m.id} />
          <AlertSettingsCard id={m.id} />
        </div>
        <div>
          {m.type !== 'heartbeat' && <AssignedAgentsCard id={m.id} />}
          <BadgeCard id={m.id} />
        </div>
      </div>
    </>
  );
}

/**
 * Why the monitor reads Maintenance: the window its latest check fell in, when it is still on
 * (the first of `maintenance`, docs/alert-rules.md), and what that means for its alerts.
 */
function MaintenanceNote({ m }: { m: Schema<'MonitorDetail'> }) {
  const fmt = useFormat();
  const now = Date.now();
  const active = m.maintenance.find((w) => Date.parse(w.starts_at) <= now && now < Date.parse(w.ends_at));
  return (
    <p className="info-box">
      {active ? `In maintenance: ${active.name}, until ${fmt.dateTime(active.ends_at)}.` : 'In maintenance at its latest check.'} Checks go on; they
      send no alert and do not count in uptime.
    </p>
  );
}

type Actions = ReturnType<typeof useMonitorActions>;

function MonitorActions({ m }: { m: Schema<'Monitor'> }) {
  const actions = useMonitorActions(m.id);
  const navigate = useNavigate();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const viewer = useViewerReason();
  const described = viewer === null ? undefined : 'monitor-actions-reason';
  return (
    <section className="card actions-card" aria-label="Actions">
      <ViewerReason id="monitor-actions-reason" reason={viewer} />
      <div className="row-wrap">
        {m.status === 'paused' ? (
          <button type="button" className="button" disabled={actions.resume.isPending || viewer !== null} aria-describedby={described} onClick={() => actions.resume.mutate()}>
            Resume
          </button>
        ) : (
          <PauseGroup pause={actions.pause} reason={reason} onReason={setReason} viewer={viewer} />
        )}
        {m.type !== 'heartbeat' && (
          <button type="button" className="button" disabled={actions.test.isPending || viewer !== null} aria-describedby={described} onClick={() => actions.test.mutate()}>
            Test now
          </button>
        )}
        {viewer === null ? (
          <Link to={`/monitors/${m.id}/edit`} className="button">
            Edit
          </Link>
        ) : (
          <button type="button" className="button" disabled aria-describedby={described}>
            Edit
          </button>
        )}
        <button type="button" className="button danger" disabled={viewer !== null} aria-describedby={described} onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      <TestOutcome url={m.url ?? ''} test={actions.test} />
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

/** The pause reason and button. MonitorActions keeps the reason, so it outlives the group while the monitor is paused. */
function PauseGroup({ pause, reason, onReason, viewer }: { pause: Actions['pause']; reason: string; onReason: (reason: string) => void; viewer: string | null }) {
  return (
    <span className="row-wrap pause-group">
      <label className="inline-label">
        <span className="visually-hidden">Pause reason (optional)</span>
        <input
          value={reason}
          onChange={(e) => onReason(e.target.value)}
          placeholder="Pause reason (optional)"
          aria-label="Pause reason (optional)"
        />
      </label>
      <button
        type="button"
        className="button"
        disabled={pause.isPending || viewer !== null}
        aria-describedby={viewer === null ? undefined : 'monitor-actions-reason'}
        onClick={() => pause.mutate(reason, { onSuccess: () => onReason('') })}
      >
        Pause
      </button>
    </span>
  );
}

/** "Test now" while it runs, then its result. */
function TestOutcome({ url, test }: { url: string; test: Actions['test'] }) {
  const fmt = useFormat();
  const tested = test.data;
  return (
    <>
      {test.isPending && (
        <p className="muted" role="status">
          Checking {url}…
        </p>
      )}
      {tested && (
        <p className={`test-result ${tested.status}`} role="status">
          Test result: <StatusBadge status={tested.status} /> {tested.status_code !== null && `HTTP ${tested.status_code} · `}
          {millis(tested.response_time)} at {fmt.time(tested.checked_at)}
          {tested.ping && ` · ${pingText(tested.ping)}`}
          {tested.error && ` · ${tested.error}`}
        </p>
      )}
    </>
  );
}

function UptimeFigures({ m, ninety }: { m: Schema<'Monitor'>; ninety: Schema<'MonitorStats'> }) {
  const fmt = useFormat();
  const checks = ninety.checks;
  // A heartbeat's 90 days are time not offline, like its 24 h to 30 d beside them; its checks are
  // pings and missed deadlines, which say nothing of time (docs/statistics.md).
  const period = ninety.period_uptime;
  const uptime90 = period !== undefined ? period : checks && checks.total > 0 ? (checks.successful / checks.total) * 100 : null;
  const figures: [string, string][] = [
    ['Uptime 24 h', percent(m.uptime_24h)],
    ['Uptime 7 d', percent(m.uptime_7d)],
    ['Uptime 30 d', percent(m.uptime_30d)],
    ['Uptime 90 d', percent(uptime90)],
    ['Last response', millis(m.response_time)],
    ['Last check', m.last_check ? fmt.ago(m.last_check) : 'not yet'],
  ];
  return <StatFigures label="Uptime" figures={figures} />;
}
