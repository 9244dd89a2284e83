import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useRef, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { EditDeleteButtons, StackTable } from '../../components/StackTable';
import { usePageTitle } from '../../components/usePageTitle';
import { StatusPageForm } from './StatusPageForm';

type Editing = { mode: 'create' } | { mode: 'edit'; page: Schema<'StatusPage'> } | null;

/** Status pages: list, create, edit, delete after a confirmation, a link to each public page. */
export function StatusPagesPage() {
  usePageTitle('Status pages');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Schema<'StatusPage'> | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const pages = useQuery({
    queryKey: ['status-pages', page],
    queryFn: () => data(api.get('/api/v1/status-pages', { query: { page, limit: 25 } })),
    placeholderData: keepPreviousData,
  });
  const remove = useDeleteStatusPage((p) => {
    setDeleting(null);
    if (editing?.mode === 'edit' && editing.page.id === p.id) setEditing(null);
  });
  const open = (next: Editing) => {
    setEditing(next);
    // The form opens above the list: take the keyboard there.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
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
      <StatusPageList pages={pages} onPage={setPage} onEdit={(p) => open({ mode: 'edit', page: p })} onDelete={setDeleting} />
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

/** The pages of one page of the list, each with its public link and its Edit and Delete buttons. */
function StatusPageTable({
  pages,
  onEdit,
  onDelete,
}: {
  pages: Schema<'StatusPage'>[];
  onEdit: (page: Schema<'StatusPage'>) => void;
  onDelete: (page: Schema<'StatusPage'>) => void;
}) {
  const fmt = useFormat();
  return (
    <StackTable columns={['Title', 'Public page', 'State', 'Monitors', 'Updated']} actions>
      {pages.map((p) => (
        <tr key={p.id}>
          <td className="strong" data-label="Title">
            {p.title}
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
            <EditDeleteButtons name={p.title} onEdit={() => onEdit(p)} onDelete={() => onDelete(p)} />
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
  onEdit,
  onDelete,
}: {
  pages: UseQueryResult<{ data: Schema<'StatusPage'>[]; pagination: Schema<'Pagination'> }>;
  onPage: (page: number) => void;
  onEdit: (page: Schema<'StatusPage'>) => void;
  onDelete: (page: Schema<'StatusPage'>) => void;
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
              <StatusPageTable pages={answer.data} onEdit={onEdit} onDelete={onDelete} />
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
