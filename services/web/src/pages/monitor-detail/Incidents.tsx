import { duration, useFormat } from '../../app/format';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import { useIncidents } from './useMonitorDetail';

export function Incidents({ id }: { id: number }) {
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
