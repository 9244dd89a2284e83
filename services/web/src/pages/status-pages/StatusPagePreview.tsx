import { useQuery } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { MONITOR_STATE_LABEL, type PageMonitorState } from '@uptime/probe/src/status-page-words';
import { api, data } from '../../app/api';
import { DailyUptimeBars } from '../../components/DailyUptimeBars';
import { PreviewActiveIncidents, PreviewBanner, PreviewMaintenance, PreviewPastIncidents } from './PublicPageBlocks';
import { previewGroups, type StatusPageFormValues } from './status-page-form-values';

type View = Schema<'PublicStatusPage'>;

/** How often the preview reads the page afresh: as often as the public page refreshes itself. */
const REFRESH_MS = 60_000;

/** The saved page as visitors will read it (`GET /status-pages/{id}/preview`), published or not; none for a page not saved yet. */
function usePublicView(pageId: number | null) {
  return useQuery({
    queryKey: ['status-page', pageId, 'preview'],
    queryFn: async () => (await data(api.get('/api/v1/status-pages/{id}/preview', { path: { id: pageId! } }))).data,
    enabled: pageId !== null,
    refetchInterval: REFRESH_MS,
  });
}

/**
 * The state a visitor reads for a monitor. The saved page's view says it (`display_status`) for
 * its monitors, found by name; a monitor only just added in the form is not in it yet, so its
 * state is read from the monitor itself by the page's rule: Maintenance in place of its status
 * while in a window, unless paused (docs/status-pages.md).
 */
function stateOf(name: string, shown: Map<string, PageMonitorState>, monitor: Schema<'Monitor'> | undefined): PageMonitorState {
  const fromView = shown.get(name);
  if (fromView) return fromView;
  if (!monitor) return 'pending';
  return monitor.in_maintenance && monitor.status !== 'paused' ? 'maintenance' : monitor.status;
}

/** Each monitor's shown state by name, leaving out names the page holds twice (which one is which cannot be told). */
function shownStates(view: View | undefined): Map<string, PageMonitorState> {
  const states = new Map<string, PageMonitorState>();
  const twice = new Set<string>();
  for (const m of view?.monitors ?? []) {
    if (states.has(m.name)) twice.add(m.name);
    states.set(m.name, m.display_status);
  }
  for (const name of twice) states.delete(name);
  return states;
}

/**
 * The page as visitors will see it, in the public page's order: the banner, the open incidents
 * with their timelines, maintenance, the monitors, the past incidents by day. Title, description
 * and monitors come from the form as typed (grouped as the public page groups them,
 * previewGroups()); the rest from the saved page's public view, which a page not saved yet has not.
 */
export function StatusPagePreview({
  page,
  values,
  monitors,
  names,
}: {
  page: Schema<'StatusPage'> | null;
  values: StatusPageFormValues;
  monitors: Map<number, Schema<'Monitor'>>;
  names: Map<number, string>;
}) {
  const preview = usePublicView(page?.id ?? null);
  const view = preview.data;
  // A link to the public page's incidents works only while the saved page is published.
  const linked = page?.published ?? false;
  const groups = previewGroups(values);
  const shown = shownStates(view);
  const monitorList = (ids: number[], label: string) => (
    <ul className="plain-list preview-monitors" aria-label={label}>
      {ids.map((id) => {
        const name = names.get(id) ?? `Monitor ${id}`;
        const state = stateOf(name, shown, monitors.get(id));
        return (
          <li key={id}>
            <span>{name}</span> <span className={`muted state-${state}`}>{MONITOR_STATE_LABEL[state]}</span>
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
        {page === null && (
          <p className="muted small">Not saved yet: this page has no incidents or maintenance. They show here once it is saved.</p>
        )}
        {page !== null && !view && (
          <p className="muted small">
            {preview.isError ? 'The incidents and maintenance could not be read.' : 'Reading the incidents and maintenance…'}
          </p>
        )}
        {view && <PreviewBanner view={view} />}
        {view && <PreviewActiveIncidents view={view} linked={linked} />}
        {view && <PreviewMaintenance view={view} />}
        {/* As on the public page, the monitors have no heading of their own: a section's name is at the level of "Maintenance". */}
        <section className="preview-block" aria-label="Monitors">
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
        </section>
        {view && <PreviewPastIncidents view={view} linked={linked} />}
      </div>
    </section>
  );
}
