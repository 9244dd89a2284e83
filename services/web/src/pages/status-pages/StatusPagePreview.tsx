import type { Schema } from '@uptime/client';
import { DailyUptimeBars } from '../../components/DailyUptimeBars';
import { previewGroups, type StatusPageFormValues } from './status-page-form-values';

/** What a visitor reads for a monitor's state on the public page (services/api/src/status-pages/status-page.html.ts). */
const VISITOR_STATE: Record<string, string> = {
  online: 'Operational',
  warning: 'Degraded',
  offline: 'Down',
  paused: 'Paused',
  pending: 'Not checked yet',
};

/** The state a visitor sees: Maintenance in place of the status while in a window (not when paused). */
function visitorState(monitor: Schema<'Monitor'> | undefined): string {
  if (!monitor) return 'Not checked yet';
  if (monitor.in_maintenance && monitor.status !== 'paused') return 'Maintenance';
  return VISITOR_STATE[monitor.status] ?? monitor.status;
}

/**
 * The page as visitors will see it, from the form as typed: its title and description, then its
 * monitors grouped as the public page groups them (previewGroups()), each with its state now and
 * its last 90 days' bars.
 */
export function StatusPagePreview({
  values,
  monitors,
  names,
}: {
  values: StatusPageFormValues;
  monitors: Map<number, Schema<'Monitor'>>;
  names: Map<number, string>;
}) {
  const groups = previewGroups(values);
  const monitorList = (ids: number[], label: string) => (
    <ul className="plain-list preview-monitors" aria-label={label}>
      {ids.map((id) => {
        const name = names.get(id) ?? `Monitor ${id}`;
        return (
          <li key={id}>
            <span>{name}</span> <span className="muted">{visitorState(monitors.get(id))}</span>
            <DailyUptimeBars monitorId={id} name={name} />
          </li>
        );
      })}
    </ul>
  );
  return (
    <section className="card page-preview" aria-labelledby="sp-preview-heading">
      <h2 id="sp-preview-heading">Preview</h2>
      <p className="muted small">As visitors will see it{values.slug.trim() ? ` at /status/${values.slug.trim().toLowerCase()}` : ''}.</p>
      <div className="preview-page">
        <h3>{values.title.trim() || 'Untitled page'}</h3>
        {values.description.trim() && <p className="muted">{values.description.trim()}</p>}
        {groups.length === 0 && <p className="muted">No monitors on the page yet.</p>}
        {groups.map((group, i) =>
          group.name === null ? (
            <div key={i}>{monitorList(group.monitorIds, 'Monitors in no section')}</div>
          ) : (
            <div key={i} className="preview-section">
              <h4>{group.name}</h4>
              {monitorList(group.monitorIds, `Monitors in ${group.name}`)}
            </div>
          ),
        )}
      </div>
    </section>
  );
}
