import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useId, useState, type ReactNode } from 'react';
import { api, data } from '../../app/api';
import { refusalsByField, type FormErrors } from '../../app/field-checks';
import { useNotices } from '../../app/notices';
import { FieldError } from '../../components/FieldError';
import { FormSummary } from '../../components/FormSummary';
import { useFormProblems } from '../../components/useFormProblems';
import { checkIncidentForm, checkIncidentUpdate, INCIDENT_FIELDS } from './incident-form-checks';
import { IMPACTS, STATUSES, type Impact, type Incident, type Status } from './incident-words';
import { MarkdownPreview, useMessagePreview } from './MarkdownPreview';

/** A new incident: title, impact, the page's monitors it affects, its first status and message. */
export function IncidentComposer({ page, onDone }: { page: Schema<'StatusPage'>; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [impact, setImpact] = useState<Impact>('minor');
  const [monitorIds, setMonitorIds] = useState<number[]>([]);
  const [status, setStatus] = useState<Status>('investigating');
  const [message, setMessage] = useState('');
  const composer = useComposer(page.id, onDone, {
    check: () => checkIncidentForm({ title, message }),
    send: () =>
      data(
        api.post('/api/v1/status-pages/{id}/incidents', {
          path: { id: page.id },
          body: { title, impact, monitor_ids: monitorIds, status, message },
        }),
      ),
    done: `Incident "${title}" published`,
  });
  const { errors } = composer.problems;
  const id = useId();
  return (
    <ComposerForm heading="New incident" submit="Publish incident" composer={composer} onCancel={onDone}>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? `${id}-title-error` : undefined}
        />
        <FieldError id={`${id}-title-error`} messages={errors.title} />
      </div>
      <Choice id={`${id}-impact`} label="Impact" options={IMPACTS} value={impact} onChange={setImpact} errors={errors.impact} />
      <fieldset className="field" aria-describedby={errors.monitor_ids ? `${id}-monitor_ids-error` : undefined}>
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
export function UpdateComposer({ pageId, incident, onDone }: { pageId: number; incident: Incident; onDone: () => void }) {
  const [status, setStatus] = useState<Status>(incident.status);
  const [message, setMessage] = useState('');
  const composer = useComposer(pageId, onDone, {
    check: () => checkIncidentUpdate({ message }),
    send: () =>
      data(
        api.post('/api/v1/status-pages/{id}/incidents/{incident_id}/updates', {
          path: { id: pageId, incident_id: incident.id },
          body: { status, message },
        }),
      ),
    done: `Update on "${incident.title}" published`,
  });
  const { errors } = composer.problems;
  const id = useId();
  return (
    <ComposerForm heading={`Update on ${incident.title}`} submit="Publish update" composer={composer} onCancel={onDone}>
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

type Composer = ReturnType<typeof useComposer>;

/**
 * A composer's sending: its own checks first (nothing is sent while one fails), then `send`; the
 * API's refusals next to their fields, `done` said once published, and the page's incidents read again.
 */
function useComposer(
  pageId: number,
  onDone: () => void,
  { check, send, done }: { check: () => FormErrors; send: () => Promise<unknown>; done: string },
) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const problems = useFormProblems();
  const publish = useMutation({
    mutationFn: send,
    onSuccess: () => {
      notices.success(done);
      void queryClient.invalidateQueries({ queryKey: ['status-page-incidents', pageId] });
      onDone();
    },
    onError: (err) => problems.refused(err, refusalsByField(err), (field) => INCIDENT_FIELDS.has(field)),
  });
  const submit = () => {
    if (problems.checked(check())) publish.mutate();
  };
  return { problems, submit, busy: publish.isPending };
}

/** A composer's form: its heading (also its name), its one summary on top, Publish and Cancel. */
function ComposerForm({
  heading,
  submit,
  composer,
  onCancel,
  children,
}: {
  heading: string;
  submit: string;
  composer: Composer;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { problems } = composer;
  return (
    <form
      className="card inset"
      aria-label={heading}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        composer.submit();
      }}
    >
      <h3>{heading}</h3>
      <FormSummary summary={problems.summary} summaryRef={problems.summaryRef} />
      {children}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={composer.busy}>
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
  errors: FormErrors;
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
