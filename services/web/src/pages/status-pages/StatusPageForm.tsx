import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { useNotices } from '../../app/notices';
import { FieldError } from '../../components/FieldError';
import { FormSummary } from '../../components/FormSummary';
import { useFormProblems } from '../../components/useFormProblems';
import { checkStatusPageForm, SLUG_SHAPE } from './status-page-form-checks';
import { QueryState } from '../../components/QueryState';
import { SectionEditor } from './SectionEditor';
import { StatusPagePreview } from './StatusPagePreview';
import { ManagedMark } from '../../components/ManagedBy';
import {
  emptyStatusPageForm,
  formToStatusPageBody,
  keepOnPage,
  moveMonitor,
  statusPageFieldErrors,
  statusPageToForm,
  toggleMonitor,
  type StatusPageFormValues,
} from './status-page-form-values';

/** A page lists at most 100 monitors (docs/status-pages.md); the picker offers the first 100 of yours. */
const PICKER_LIMIT = 100;

/** The fields the form shows a message beside, by API name. */
const SHOWN = new Set(['slug', 'title', 'description', 'monitor_ids', 'sections', 'published', 'auto_incidents']);

/**
 * Create a status page (page null) or edit one, with a live preview beside it of the page as
 * visitors will see it: every field checked before sending, all problems at once next to their
 * fields, the API's refusals there too (docs/web.md, "Forms").
 */
export function StatusPageForm({ page, onDone }: { page: Schema<'StatusPage'> | null; onDone: () => void }) {
  const [values, setValues] = useState<StatusPageFormValues>(() => (page ? statusPageToForm(page) : emptyStatusPageForm()));
  const monitors = useQuery({
    queryKey: ['monitors', 'picker'],
    queryFn: async () => (await data(api.get('/api/v1/monitors', { query: { page: 1, limit: PICKER_LIMIT } }))).data,
  });
  const { errors, summary, summaryRef, checked, refused } = useFormProblems();
  const save = useSaveStatusPage(page, values, onDone, (err) => refused(err, statusPageFieldErrors(err), (field) => SHOWN.has(field)));
  const names = new Map<number, string>([
    ...(page?.monitors.map((m): [number, string] => [m.id, m.name]) ?? []),
    ...(monitors.data?.map((m): [number, string] => [m.id, m.name]) ?? []),
  ]);
  const set = (change: Partial<StatusPageFormValues>) => setValues((v) => ({ ...v, ...change }));
  const described = (field: string) => (errors[field] ? `sp-${field}-error` : undefined);
  const heading = page ? `Edit ${page.title}` : 'New status page';
  const byId = new Map<number, Schema<'Monitor'>>(monitors.data?.map((m): [number, Schema<'Monitor'>] => [m.id, m]) ?? []);
  return (
    <div className="form-with-preview">
      <form
        className="card"
        aria-label={heading}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (checked(checkStatusPageForm(values))) save.mutate();
        }}
      >
        <h2>
          {heading}
          {page && <ManagedMark resource={page} />}
        </h2>
        <FormSummary summary={summary} summaryRef={summaryRef} />
        <PageFields values={values} set={set} errors={errors} described={described} />
        <MonitorPicker
          monitors={monitors}
          chosen={values.monitorIds}
          onChange={(monitorIds) => setValues((v) => ({ ...v, monitorIds, sections: keepOnPage(v.sections, monitorIds) }))}
          errors={errors.monitor_ids}
          describedBy={described('monitor_ids')}
        />
        {values.monitorIds.length > 0 && (
          <MonitorOrder ids={values.monitorIds} names={names} onChange={(monitorIds) => set({ monitorIds })} />
        )}
        <SectionEditor
          sections={values.sections}
          monitorIds={values.monitorIds}
          names={names}
          onChange={(sections) => set({ sections })}
          errors={errors.sections}
          describedBy={described('sections')}
        />
        <label className="check">
          <input type="checkbox" checked={values.published} onChange={(e) => set({ published: e.target.checked })} /> Published
        </label>
        <FieldError id="sp-published-error" messages={errors.published} />
        <label className="check">
          <input
            type="checkbox"
            checked={values.autoIncidents}
            aria-describedby="sp-auto-incidents-hint"
            onChange={(e) => set({ autoIncidents: e.target.checked })}
          />{' '}
          Open a draft incident when a monitor goes offline
        </label>
        <p className="hint muted small" id="sp-auto-incidents-hint">
          Visitors and subscribers see a draft only once you publish it from the page&apos;s incidents.
        </p>
        <FieldError id="sp-auto_incidents-error" messages={errors.auto_incidents} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={save.isPending}>
            {page ? 'Save' : 'Create status page'}
          </button>
          <button type="button" className="button ghost" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
      <StatusPagePreview page={page} values={values} monitors={byId} names={names} />
    </div>
  );
}

/** Creates (page null) or updates the page; a refusal goes to `onRefused`. */
function useSaveStatusPage(page: Schema<'StatusPage'> | null, values: StatusPageFormValues, onDone: () => void, onRefused: (err: unknown) => void) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: async () => {
      const body = formToStatusPageBody(values);
      const answer = page
        ? await data(api.put('/api/v1/status-pages/{id}', { path: { id: page.id }, body }))
        : await data(api.post('/api/v1/status-pages', { body }));
      return answer.data;
    },
    onSuccess: (saved) => {
      notices.success(page ? `Status page "${saved.title}" saved` : `Status page "${saved.title}" created`);
      void queryClient.invalidateQueries({ queryKey: ['status-pages'] });
      onDone();
    },
    onError: (err) => onRefused(err),
  });
}

/** Your monitors to choose from, each a checkbox; the API's messages about the choice below. */
function MonitorPicker({
  monitors,
  chosen,
  onChange,
  errors,
  describedBy,
}: {
  monitors: UseQueryResult<Schema<'Monitor'>[]>;
  chosen: number[];
  onChange: (ids: number[]) => void;
  errors: string[] | undefined;
  describedBy: string | undefined;
}) {
  return (
    <fieldset className="field" aria-describedby={describedBy}>
      <legend>Monitors on the page</legend>
      <QueryState query={monitors} what="your monitors">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">You have no monitors yet.</p>
          ) : (
            <ul className="plain-list checks">
              {list.map((m) => (
                <li key={m.id}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={chosen.includes(m.id)}
                      onChange={(e) => onChange(toggleMonitor(chosen, m.id, e.target.checked))}
                    />{' '}
                    {m.name}
                  </label>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <FieldError id="sp-monitor_ids-error" messages={errors} />
    </fieldset>
  );
}

/** The chosen monitors in page order, each with buttons to move it up or down. */
function MonitorOrder({ ids, names, onChange }: { ids: number[]; names: Map<number, string>; onChange: (ids: number[]) => void }) {
  return (
    <div className="field">
      <p className="label-like" id="sp-order">
        Order on the page
      </p>
      <ol className="order-list" aria-labelledby="sp-order">
        {ids.map((id, index) => {
          const name = names.get(id) ?? `Monitor ${id}`;
          return (
            <li key={id}>
              <span>{name}</span>
              <button
                type="button"
                className="button small ghost"
                aria-label={`Move ${name} up`}
                disabled={index === 0}
                onClick={() => onChange(moveMonitor(ids, index, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                className="button small ghost"
                aria-label={`Move ${name} down`}
                disabled={index === ids.length - 1}
                onClick={() => onChange(moveMonitor(ids, index, 1))}
              >
                ↓
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The page's slug (its address), title and description. */
function PageFields({
  values,
  set,
  errors,
  described,
}: {
  values: StatusPageFormValues;
  set: (change: Partial<StatusPageFormValues>) => void;
  errors: Record<string, string[]>;
  described: (field: string) => string | undefined;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="sp-slug">Slug</label>
        <input
          id="sp-slug"
          value={values.slug}
          onChange={(e) => set({ slug: e.target.value })}
          aria-invalid={errors.slug ? true : undefined}
          aria-describedby={['sp-slug-hint', described('slug')].filter(Boolean).join(' ')}
          autoComplete="off"
          spellCheck={false}
        />
        <p className="hint muted small" id="sp-slug-hint">
          The page&apos;s address, /status/slug: {SLUG_SHAPE}.
        </p>
        <FieldError id="sp-slug-error" messages={errors.slug} />
      </div>
      <div className="field">
        <label htmlFor="sp-title">Title</label>
        <input
          id="sp-title"
          value={values.title}
          onChange={(e) => set({ title: e.target.value })}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={described('title')}
        />
        <FieldError id="sp-title-error" messages={errors.title} />
      </div>
      <div className="field">
        <label htmlFor="sp-description">Description</label>
        <textarea
          id="sp-description"
          rows={2}
          value={values.description}
          onChange={(e) => set({ description: e.target.value })}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={described('description')}
        />
        <FieldError id="sp-description-error" messages={errors.description} />
      </div>
    </>
  );
}
