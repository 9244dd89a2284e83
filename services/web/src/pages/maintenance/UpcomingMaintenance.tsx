import { Link } from 'react-router-dom';
import { useFormat } from '../../app/format';
import { QueryState } from '../../components/QueryState';
import { ongoingAndUpcoming, type Occurrence } from './maintenance-form-values';
import { useDashboardMaintenance } from './useMaintenanceWindows';

/** How far ahead the dashboard looks for maintenance. */
const HORIZON_MS = 7 * 86_400_000;

/** The dashboard's maintenance: windows in progress, then those starting within 7 days. */
export function UpcomingMaintenance({ refreshMs }: { refreshMs: number }) {
  const windows = useDashboardMaintenance(refreshMs);
  return (
    <section className="card" aria-labelledby="dashboard-maintenance-title">
      <h2 id="dashboard-maintenance-title">Maintenance</h2>
      <QueryState query={windows} what="maintenance windows">
        {(list) => {
          const { ongoing, upcoming } = ongoingAndUpcoming(list, Date.now(), HORIZON_MS);
          if (ongoing.length + upcoming.length === 0) return <p className="muted">No maintenance in progress or planned in the next 7 days.</p>;
          return (
            <>
              {ongoing.length > 0 && <Occurrences title="In progress" items={ongoing} ongoing />}
              {upcoming.length > 0 && <Occurrences title="Next 7 days" items={upcoming} ongoing={false} />}
            </>
          );
        }}
      </QueryState>
      {/* At the card's foot, as the dashboard's other cards end ("All notifications", "All monitors"). */}
      <p>
        <Link to="/maintenance">All maintenance windows</Link>
      </p>
    </section>
  );
}

function Occurrences({ title, items, ongoing }: { title: string; items: Occurrence[]; ongoing: boolean }) {
  const fmt = useFormat();
  const id = ongoing ? 'maintenance-ongoing' : 'maintenance-upcoming';
  return (
    <section aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <ul className="plain-list">
        {items.map((w) => (
          <li key={w.id} className="row-between">
            <span className="strong">{w.name}</span>
            <span className="muted small">
              {ongoing
                ? `until ${fmt.dateTime(w.next_occurrence.ends_at)}`
                : `${fmt.dateTime(w.next_occurrence.starts_at)} – ${fmt.time(w.next_occurrence.ends_at)}`}
              {` · ${w.monitor_ids.length} ${w.monitor_ids.length === 1 ? 'monitor' : 'monitors'}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
