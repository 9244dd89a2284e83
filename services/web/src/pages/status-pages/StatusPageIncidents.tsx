import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useId, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { QueryState } from '../../components/QueryState';
import { IncidentComposer, UpdateComposer } from './IncidentComposers';
import { IMPACTS, STATUSES, wordOf, type Incident } from './incident-words';
import { MarkdownPreview } from './MarkdownPreview';

/** The composer shows the latest incidents; older ones stay on the public page's history. */
const LIST_LIMIT = 25;

/** A page's incidents: listed with their timeline, opened, updated and deleted (docs/status-pages.md). */
export function StatusPageIncidents({ page, onClose }: { page: Schema<'StatusPage'>; onClose: () => void }) {
  const [composing, setComposing] = useState(false);
  const [updating, setUpdating] = useState<Incident | null>(null);
  const [deleting, setDeleting] = useState<Incident | null>(null);
  const incidents = useQuery({
    queryKey: ['status-page-incidents', page.id],
    queryFn: () => data(api.get('/api/v1/status-pages/{id}/incidents', { path: { id: page.id }, query: { page: 1, limit: LIST_LIMIT } })),
    // Read afresh whenever the panel opens: drafts are opened in the background when a monitor
    // goes offline (docs/status-pages.md, "Draft incidents"), and an outage is when it is opened.
    refetchOnMount: 'always',
  });
  const remove = useDeleteIncident(page.id, () => setDeleting(null));
  const publish = usePublishIncident(page.id);
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="page-head">
        <h2 id={headingId} tabIndex={-1}>
          Incidents of {page.title}
        </h2>
        <div className="row-wrap">
          {!composing && (
            <button type="button" className="button primary" onClick={() => setComposing(true)}>
              New incident
            </button>
          )}
          <button type="button" className="button ghost" onClick={onClose}>
            Close incidents
          </button>
        </div>
      </div>
      {composing && <IncidentComposer page={page} onDone={() => setComposing(false)} />}
      {updating && <UpdateComposer pageId={page.id} incident={updating} onDone={() => setUpdating(null)} />}
      {publish.error && (
        <div className="error-box" role="alert">
          {errorMessage(publish.error)}
        </div>
      )}
      <QueryState query={incidents} what="incidents">
        {(answer) =>
          answer.data.length === 0 ? (
            <p className="muted">No incidents on this page.</p>
          ) : (
            <ul className="plain-list incident-list">
              {answer.data.map((incident) => (
                <IncidentItem
                  key={incident.id}
                  incident={incident}
                  page={page}
                  onUpdate={() => setUpdating(incident)}
                  onDelete={() => setDeleting(incident)}
                  onPublish={() => publish.mutate(incident)}
                  publishing={publish.isPending}
                />
              ))}
            </ul>
          )
        }
      </QueryState>
      {deleting && (
        <ConfirmDialog
          title={`Delete the incident "${deleting.title}"?`}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
          busy={remove.isPending}
        >
          It and its updates leave the public page at once. Subscribers already emailed keep their emails.
        </ConfirmDialog>
      )}
    </section>
  );
}

/** One incident: its title, impact, status, monitors and update timeline, newest first. */
function IncidentItem({
  incident,
  page,
  onUpdate,
  onDelete,
  onPublish,
  publishing,
}: {
  incident: Incident;
  page: Schema<'StatusPage'>;
  onUpdate: () => void;
  onDelete: () => void;
  onPublish: () => void;
  publishing: boolean;
}) {
  const fmt = useFormat();
  const headingId = useId();
  const names = new Map(page.monitors.map((m) => [m.id, m.name]));
  return (
    <li>
      <article aria-labelledby={headingId}>
        <h3 id={headingId}>{incident.title}</h3>
        {!incident.published && (
          <p className="strong small">Draft: not shown to visitors and not sent to subscribers until you publish it.</p>
        )}
        <p className="muted small">
          {wordOf(STATUSES, incident.status)} · {wordOf(IMPACTS, incident.impact)} impact · started {fmt.dateTime(incident.started_at)}
          {incident.resolved_at && ` · resolved ${fmt.dateTime(incident.resolved_at)}`} ·{' '}
          {incident.monitor_ids.length === 0
            ? 'the whole page'
            : incident.monitor_ids.map((id) => names.get(id) ?? `Monitor ${id}`).join(', ')}
        </p>
        <ol className="plain-list timeline" aria-label={`Updates of ${incident.title}`}>
          {incident.updates.map((u) => (
            <li key={u.id}>
              <p className="strong">
                {wordOf(STATUSES, u.status)} <span className="muted small">{fmt.dateTime(u.created_at)}</span>
              </p>
              <MarkdownPreview html={u.message_html} label={`${wordOf(STATUSES, u.status)} update`} />
            </li>
          ))}
        </ol>
        <div className="row-wrap">
          {!incident.published && (
            <button
              type="button"
              className="button small primary"
              onClick={onPublish}
              disabled={publishing}
              aria-label={`Publish ${incident.title}`}
            >
              Publish
            </button>
          )}
          <button type="button" className="button small" onClick={onUpdate} aria-label={`Add update to ${incident.title}`}>
            Add update
          </button>
          <button type="button" className="button small danger" onClick={onDelete} aria-label={`Delete ${incident.title}`}>
            Delete
          </button>
        </div>
      </article>
    </li>
  );
}

/** Deletes an incident; `onDeleted` closes the confirmation. */
function useDeleteIncident(pageId: number, onDeleted: () => void) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (incident: Incident) =>
      data(api.delete('/api/v1/status-pages/{id}/incidents/{incident_id}', { path: { id: pageId, incident_id: incident.id } })),
    onSuccess: (_r, incident) => {
      onDeleted();
      notices.success(`Incident "${incident.title}" deleted`);
      void queryClient.invalidateQueries({ queryKey: ['status-page-incidents', pageId] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
}

/**
 * Publishes a draft (docs/status-pages.md, "Draft incidents"): visitors see it from then on and
 * its subscribers are emailed, as of a new incident.
 */
function usePublishIncident(pageId: number) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: (incident: Incident) =>
      data(
        api.patch('/api/v1/status-pages/{id}/incidents/{incident_id}', {
          path: { id: pageId, incident_id: incident.id },
          body: { published: true },
        }),
      ),
    onSuccess: (answer) => {
      notices.success(`Incident "${answer.data.title}" published`);
      void queryClient.invalidateQueries({ queryKey: ['status-page-incidents', pageId] });
    },
  });
}
