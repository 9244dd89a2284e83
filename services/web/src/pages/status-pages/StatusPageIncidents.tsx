import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useId, useState, type ReactNode } from 'react';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FieldError } from '../../components/FieldError';
import { QueryState } from '../../components/QueryState';
import { MarkdownPreview, useMessagePreview } from './MarkdownPreview';

type Incident = Schema<'Incident'>;
type Impact = Incident['impact'];
type Status = Incident['status'];

const IMPACTS: { value: Impact; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'minor', label: 'Minor' },
  { value: 'major', label: 'Major' },
  { value: 'critical', label: 'Critical' },
];
const STATUSES: { value: Status; label: string }[] = [
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];
const label = <T extends string>(list: { value: T; label: string }[], value: T) => list.find((x) => x.value === value)?.label ?? value;
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
          {label(STATUSES, incident.status)} · {label(IMPACTS, incident.impact)} impact · started {fmt.dateTime(incident.started_at)}
          {incident.resolved_at && ` · resolved ${fmt.dateTime(incident.resolved_at)}`} ·{' '}
          {incident.monitor_ids.length === 0
            ? 'the whole page'
            : incident.monitor_ids.map((id) => names.get(id) ?? `Monitor ${id}`).join(', ')}
        </p>
        <ol className="plain-list timeline" aria-label={`Updates of ${incident.title}`}>
          {incident.updates.map((u) => (
            <li key={u.id}>
              <p className="strong">
                {label(STATUSES, u.status)} <span className="muted small">{fmt.dateTime(u.created_at)}</span>
              </p>
              <MarkdownPreview html={u.message_html} label={`${label(STATUSES, u.status)} update`} />
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

/** A new incident: title, impact, the page's monitors it affects, its first status and message. */
function IncidentComposer({ page, onDone }: { page: Schema<'StatusPage'>; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<Impact>('minor');
  const [monitorIds, setMonitorIds] = useState<number[]>([]);
  const [status, setStatus] = useState<Status>('investigating');
  const [message, setMessage] = useState('');
  const queryClient = useQueryClient();
  const notices = useNotices();
  const create = useMutation({
    mutationFn: () =>
      data(
        api.post('/api/v1/status-pages/{id}/incidents', {
          path: { id: page.id },
          body: { title, impact, monitor_ids: monitorIds, status, message },
        }),
      ),
    onSuccess: () => {
      notices.success(`Incident "${title}" published`);
      void queryClient.invalidateQueries({ queryKey: ['status-page-incidents', page.id] });
      onDone();
    },
  });
  const errors = create.error ? fieldErrors(create.error) : {};
  const id = useId();
  return (
    <ComposerForm heading="New incident" submit="Publish incident" mutation={create} errors={errors} onCancel={onDone}>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${id}-title-error` : undefined}
        />
        <FieldError id={`${id}-title-error`} messages={errors.title} />
      </div>
      <Choice id={`${id}-impact`} label="Impact" options={IMPACTS} value={impact} onChange={setImpact} errors={errors.impact} />
      <fieldset className="field">
        <legend>Affected monitors</legend>
        {page.monitors.length === 0 ? (
          <p className="muted">The page has no monitors: the incident concerns the whole page.</p>
        ) : (
          <ul className="plain-list checks">
            {page.monitors.map((m) => (
              <li key={m.id}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={monitorIds.includes(m.id)}
                    onChange={(e) => setMonitorIds((ids) => (e.target.checked ? [...ids, m.id] : ids.filter((x) => x !== m.id)))}
                  />{' '}
                  {m.name}
                </label>
              </li>
            ))}
          </ul>
        )}
        <p className="hint muted small">None chosen: the whole page.</p>
        <FieldError id={`${id}-monitor_ids-error`} messages={errors.monitor_ids} />
      </fieldset>
      <StatusAndMessage
        id={id}
        pageId={page.id}
        status={status}
        message={message}
        onStatus={setStatus}
        onMessage={setMessage}
        errors={errors}
      />
    </ComposerForm>
  );
}

/** An update to `incident`: the status it moves to and what the operator says. */
function UpdateComposer({ pageId, incident, onDone }: { pageId: number; incident: Incident; onDone: () => void }) {
  const [status, setStatus] = useState<Status>(incident.status);
  const [message, setMessage] = useState('');
  const queryClient = useQueryClient();
  const notices = useNotices();
  const add = useMutation({
    mutationFn: () =>
      data(
        api.post('/api/v1/status-pages/{id}/incidents/{incident_id}/updates', {
          path: { id: pageId, incident_id: incident.id },
          body: { status, message },
        }),
      ),
    onSuccess: () => {
      notices.success(`Update on "${incident.title}" published`);
      void queryClient.invalidateQueries({ queryKey: ['status-page-incidents', pageId] });
      onDone();
    },
  });
  const errors = add.error ? fieldErrors(add.error) : {};
  const id = useId();
  return (
    <ComposerForm heading={`Update on ${incident.title}`} submit="Publish update" mutation={add} errors={errors} onCancel={onDone}>
      <StatusAndMessage
        id={id}
        pageId={pageId}
        status={status}
        message={message}
        onStatus={setStatus}
        onMessage={setMessage}
        errors={errors}
      />
    </ComposerForm>
  );
}

/** A composer's form: its heading (also its name), the API's refusal on top, Publish and Cancel. */
function ComposerForm({
  heading,
  submit,
  mutation,
  errors,
  onCancel,
  children,
}: {
  heading: string;
  submit: string;
  mutation: { mutate: () => void; isPending: boolean; error: Error | null };
  errors: Record<string, string[]>;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="card inset"
      aria-label={heading}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        mutation.mutate();
      }}
    >
      <h3>{heading}</h3>
      {mutation.error && (
        <div className="error-box" role="alert">
          {Object.keys(errors).length > 0 ? 'Please correct the fields marked below.' : errorMessage(mutation.error)}
        </div>
      )}
      {children}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={mutation.isPending}>
          {submit}
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A labelled select of `options`, with the API's messages about it below. */
function Choice<T extends string>({
  id,
  label: text,
  options,
  value,
  onChange,
  errors,
}: {
  id: string;
  label: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  errors: string[] | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? value)}
        aria-describedby={errors ? `${id}-error` : undefined}
      >
        {options.map((x) => (
          <option key={x.value} value={x.value}>
            {x.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

/** An update's status and Markdown message, with the message's preview beside it. */
function StatusAndMessage({
  id,
  pageId,
  status,
  message,
  onStatus,
  onMessage,
  errors,
}: {
  id: string;
  pageId: number;
  status: Status;
  message: string;
  onStatus: (s: Status) => void;
  onMessage: (m: string) => void;
  errors: Record<string, string[]>;
}) {
  const preview = useMessagePreview(pageId, message);
  return (
    <>
      <Choice id={`${id}-status`} label="Status" options={STATUSES} value={status} onChange={onStatus} errors={errors.status} />
      <div className="field">
        <label htmlFor={`${id}-message`}>Message</label>
        <textarea
          id={`${id}-message`}
          rows={4}
          value={message}
          maxLength={10_000}
          onChange={(e) => onMessage(e.target.value)}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={[`${id}-message-hint`, errors.message ? `${id}-message-error` : ''].filter(Boolean).join(' ')}
        />
        <p className="hint muted small" id={`${id}-message-hint`}>
          Markdown: paragraphs, *emphasis*, **strong**, [links](https://…), lists and `code`. Anything else shows as text.
        </p>
        <FieldError id={`${id}-message-error`} messages={errors.message} />
      </div>
      <p className="label-like" aria-hidden="true">
        Preview
      </p>
      <MarkdownPreview html={preview.html} pending={preview.pending} label="Message preview" />
    </>
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
