import type { Schema } from '@uptime/client';
import { Link } from 'react-router-dom';
import { BEADS } from '../../app/recent-checks';
import { CheckBeads } from '../../components/CheckBeads';
import { MonitorStateBadge } from '../../components/StatusBadge';
import { useRecentChecks } from '../../components/useRecentChecks';
import { useMonitorList } from '../monitors/useMonitorList';
import { DASHBOARD_REFRESH_MS } from './useDashboard';

/** Monitors the card shows: the ones down now first, then the first of the list. */
const SHOWN = 10;

/**
 * The dashboard's "Latest checks": a row of beads per monitor (docs/web.md, "Beads"), those down
 * now first, so the checks behind "Down now" are in view; the whole list has the rest.
 */
export function LatestChecks({ down }: { down: Schema<'Dashboard'>['down_monitors'] }) {
  const first = useMonitorList({ page: 1, limit: SHOWN });
  const rows: { id: number; name: string; state: { status: string; in_maintenance: boolean } }[] = down
    .slice(0, SHOWN)
    .map((m) => ({ id: m.id, name: m.name, state: { status: 'offline', in_maintenance: m.in_maintenance } }));
  for (const m of first.data?.data ?? []) {
    if (rows.length >= SHOWN) break;
    if (!rows.some((r) => r.id === m.id)) rows.push({ id: m.id, name: m.name, state: m });
  }
  const beads = useRecentChecks(
    rows.map((r) => r.id),
    DASHBOARD_REFRESH_MS,
  );
  return (
    <section className="card" aria-labelledby="latest-title">
      <h2 id="latest-title">Latest checks</h2>
      {rows.length === 0 ? (
        <p className="muted">{first.isPending ? 'Loading…' : 'No monitors yet.'}</p>
      ) : (
        <ul className="plain-list latest-checks">
          {rows.map((r) => (
            <li key={r.id} className="row-between">
              <span className="latest-name">
                <MonitorStateBadge monitor={r.state} /> <Link to={`/monitors/${r.id}`}>{r.name}</Link>
              </span>
              {beads.data ? (
                <CheckBeads checks={beads.data.get(r.id) ?? []} name={r.name} slots={BEADS} />
              ) : (
                <span className="muted small">{beads.isError ? 'Unavailable' : 'Loading…'}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/monitors">All monitors</Link>
      </p>
    </section>
  );
}
