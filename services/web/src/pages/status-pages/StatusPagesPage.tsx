import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useRef, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ManagedMark, useManagedEditGuard } from '../../components/ManagedBy';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { StackTable } from '../../components/StackTable';
import { usePageTitle } from '../../components/usePageTitle';
import { StatusPageForm } from './StatusPageForm';
import { StatusPageIncidents } from './StatusPageIncidents';
import { StatusPageSubscribers } from './StatusPageSubscribers';

type Editing = { mode: 'create' } | { mode: 'edit'; page: Schema<'StatusPage'> } | null;
/** The page whose incidents or subscribers are open below the form, if any. */
type Managing = { view: 'incidents' | 'subscribers'; page: Schema<'StatusPage'> } | null;

/**
 * Status pages: list, create, edit, delete after a confirmation, a link to each public page; a
 * page's incidents (composer) and its email subscribers.
 */
export function StatusPagesPage() {
  usePageTitle('Status pages');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Schema<'StatusPage'> | null>(null);
  const [managing, setManaging] = useState<Managing>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const manageRef = useRef<HTMLDivElement>(null);
  const pages = useQuery({
    queryKey: ['status-pages', page],
    queryFn: () => data(api.get('/api/v1/status-pages', { query: { page, limit: 25 } })),
    placeholderData: keepPreviousData,
  });
  const remove = useDeleteStatusPage((p) => {
    setDeleting(null);
    if (editing?.mode === 'edit' && editing.page.id === p.id) setEditing(null);
    if (managing?.page.id === p.id) setManaging(null);
  });
  const manage = (next: Managing) => {
    setManaging(next);
    // The panel opens above the list: take the keyboard to its heading.
    requestAnimationFrame(() => manageRef.current?.querySelector<HTMLElement>('h2')?.focus());
  };
  const open = (next: Editing) => {
    setEditing(next);
    // The form opens above the list: take the keyboard there.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
  // A page declared in uptime.yaml is edited only after the question (docs/config-as-code.md).
  const managed = useManagedEditGuard();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Status pages</h1>
          <p className="muted">Public pages showing some of your monitors, in your order, to anyone with the link.</p>
        </div>
        {editing?.mode !== 'create' && (
          <button type="button" className="button primary" onClick={() => open({ mode: 'create' })}>
            New status page
          </button>
        )}
      </div>
      <div ref={formRef}>
        {editing && (
          <StatusPageForm
            key={editing.mode === 'edit' ? editing.page.id : 'new'}
            page={editing.mode === 'edit' ? editing.page : null}
            onDone={() => setEditing(null)}
          />
        )}
      </div>
      <div ref={manageRef}>
        {managing?.view === 'incidents' && (
          <StatusPageIncidents key={managing.page.id} page={managing.page} onClose={() => setManaging(null)} />
        )}
        {managing?.view === 'subscribers' && (
          <StatusPageSubscribers key={managing.page.id} page={managing.page} onClose={() => setManaging(null)} />
        )}
      </div>
      <StatusPageList
        pages={pages}
        onPage={setPage}
        actions={{
          onEdit: (p) => managed.guard(p, p.title, () => open({ mode: 'edit', page: p })),
          onDelete: setDeleting,
          onIncidents: (p) => manage({ view: 'incidents', page: p }),
          onSubscribers: (p) => manage({ view: 'subscribers', page: p }),
        }}
      />
      {managed.dialog}
      {deleting && (
        <ConfirmDialog
          title={`Delete the status page "${deleting.title}"?`}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
          busy={remove.isPending}
        >
          Its public address /status/{deleting.slug} stops working at once. The monitors are not touched.
        </ConfirmDialog>
      )}
    </>
  );
}

/** What each row's buttons do. */
interface RowActions {
  onEdit: (page: Schema<'StatusPage'>) => void;
  onDelete: (page: Schema<'StatusPage'>) => void;
  onIncidents: (page: Schema<'StatusPage'>) => void;
  onSubscribers: (page: Schema<'StatusPage'>) => void;
}

/** The pages of one page of the list, each with its public link and its Edit and Delete buttons. */
function StatusPageTable({ pages, actions }: { pages: Schema<'StatusPage'>[]; actions: RowActions }) {
  const fmt = useFormat();
  return (
    <StackTable columns={['Title', 'Public page', 'State', 'Monitors', 'Updated']} actions>
      {pages.map((p) => (
        <tr key={p.id}>
          <td className="strong" data-label="Title">
            {p.title}
            <ManagedMark resource={p} />
          </td>
          <td className="url-cell" data-label="Public page">
            <a href={p.url} target="_blank" rel="noreferrer">
              /status/{p.slug}
            </a>
          </td>
          <td data-label="State">{p.published ? 'Published' : 'Draft'}</td>
          <td data-label="Monitors">{p.monitors.map((m) => m.name).join(', ')}</td>
          <td data-label="Updated">{fmt.ago(p.updated_at)}</td>
          <td className="num">
            <div className="row-wrap">
              <button type="button" className="button small" onClick={() => actions.onEdit(p)} aria-label={`Edit ${p.title}`}>
                Edit
              </button>
              <button type="button" className="button small" onClick={() => actions.onIncidents(p)} aria-label={`Incidents of ${p.title}`}>
                Incidents
              </button>
              <button
                type="button"
                className="button small"
                onClick={() => actions.onSubscribers(p)}
                aria-label={`Subscribers of ${p.title}`}
              >
                Subscribers
              </button>
              <button type="button" className="button small danger" onClick={() => actions.onDelete(p)} aria-label={`Delete ${p.title}`}>
                Delete
              </button>
            </div>
          </td>
        </tr>
      ))}
    </StackTable>
  );
}

/** Deletes a page; `onDeleted` closes what showed it. */
function useDeleteStatusPage(onDeleted: (page: Schema<'StatusPage'>) => void) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: Schema<'StatusPage'>) => data(api.delete('/api/v1/status-pages/{id}', { path: { id: p.id } })),
    onSuccess: (_r, p) => {
      onDeleted(p);
      notices.success(`Status page "${p.title}" deleted`);
      void queryClient.invalidateQueries({ queryKey: ['status-pages'] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
}

/** "Your status pages": a page of the list at a time. */
function StatusPageList({
  pages,
  onPage,
  actions,
}: {
  pages: UseQueryResult<{ data: Schema<'StatusPage'>[]; pagination: Schema<'Pagination'> }>;
  onPage: (page: number) => void;
  actions: RowActions;
}) {
  return (
    <section className="card flush" aria-labelledby="status-pages-title">
      <h2 id="status-pages-title" className="pad">
        Your status pages
      </h2>
      <QueryState query={pages} what="status pages">
        {(answer) =>
          answer.data.length === 0 ? (
            <p className="muted pad">No status pages yet.</p>
          ) : (
            <>
              <StatusPageTable pages={answer.data} actions={actions} />
              <div className="card-foot">
                <Pagination pagination={answer.pagination} label="Status page" onPage={onPage} />
              </div>
            </>
          )
        }
      </QueryState>
    </section>
  );
}
