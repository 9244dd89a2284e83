import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { EditDeleteButtons, StackTable } from '../../components/StackTable';
import { usePageTitle } from '../../components/usePageTitle';
import { repeatSummary } from './maintenance-form-values';
import { MaintenanceWindowForm } from './MaintenanceWindowForm';
import { MAINTENANCE_KEY, useMaintenanceWindows } from './useMaintenanceWindows';

type Window = Schema<'MaintenanceWindow'>;
type Editing = { mode: 'create' } | { mode: 'edit'; window: Window } | null;

/** Maintenance windows: list, create, edit, delete after a confirmation (docs/alert-rules.md). */
export function MaintenancePage() {
  usePageTitle('Maintenance');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Window | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const windows = useMaintenanceWindows(page);
  const remove = useDeleteWindow((w) => {
    setDeleting(null);
    if (editing?.mode === 'edit' && editing.window.id === w.id) setEditing(null);
  });
  const open = (next: Editing) => {
    setEditing(next);
    // The form opens above the list: take the keyboard there.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
  // A window declared in uptime.yaml is edited only after the question (docs/config-as-code.md).
  const managed = useManagedEditGuard();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Maintenance</h1>
          <p className="muted">Planned work: the monitors are still checked, but no alert goes out and uptime leaves those checks out.</p>
        </div>
        {editing?.mode !== 'create' && (
          <button type="button" className="button primary" onClick={() => open({ mode: 'create' })}>
            New maintenance window
          </button>
        )}
      </div>
      <div ref={formRef}>
        {editing && (
          <MaintenanceWindowForm
            key={editing.mode === 'edit' ? editing.window.id : 'new'}
            window={editing.mode === 'edit' ? editing.window : null}
            onDone={() => setEditing(null)}
          />
        )}
      </div>
      <section className="card flush" aria-labelledby="maintenance-windows-title">
        <h2 id="maintenance-windows-title" className="pad">
          Maintenance windows
        </h2>
        <QueryState query={windows} what="maintenance windows">
          {(answer) =>
            answer.data.length === 0 ? (
              <p className="muted pad">No maintenance windows yet.</p>
            ) : (
              <>
                <WindowTable
                  windows={answer.data}
                  onEdit={(w) => managed.guard(w, w.name, () => open({ mode: 'edit', window: w }))}
                  onDelete={setDeleting}
                />
                <div className="card-foot">
                  <Pagination pagination={answer.pagination} label="Maintenance window" onPage={setPage} />
                </div>
              </>
            )
          }
        </QueryState>
      </section>
      {managed.dialog}
      {deleting && (
        <ConfirmDialog
          title={`Delete the maintenance window "${deleting.name}"?`}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
          busy={remove.isPending}
        >
          Its monitors alert as usual from now on. Checks already made in it stay marked as maintenance.
        </ConfirmDialog>
      )}
    </>
  );
}

/** "In progress until …", "Next: …", or "Over". */
function NextOccurrence({ w }: { w: Window }) {
  const fmt = useFormat();
  const next = w.next_occurrence;
  if (!next) return <span className="muted">Over</span>;
  if (Date.parse(next.starts_at) <= Date.now()) return <strong>In progress until {fmt.dateTime(next.ends_at)}</strong>;
  return <>Next: {fmt.dateTime(next.starts_at)}</>;
}

function WindowTable({ windows, onEdit, onDelete }: { windows: Window[]; onEdit: (w: Window) => void; onDelete: (w: Window) => void }) {
  return (
    <StackTable columns={['Name', 'When', 'Duration', 'Time zone', 'Monitors']} actions>
      {windows.map((w) => (
        <tr key={w.id}>
          <td className="strong" data-label="Name">
            {w.name}
            <ManagedMark resource={w} />
          </td>
          <td data-label="When">
            <span>{repeatSummary(w)}</span>
            <span className="muted small block">
              <NextOccurrence w={w} />
            </span>
          </td>
          <td data-label="Duration">{w.duration_minutes} min</td>
          <td data-label="Time zone">{w.timezone}</td>
          <td data-label="Monitors">{w.monitor_ids.length}</td>
          <td className="num">
            <EditDeleteButtons name={w.name} onEdit={() => onEdit(w)} onDelete={() => onDelete(w)} />
          </td>
        </tr>
      ))}
    </StackTable>
  );
}

/** Deletes a window; `onDeleted` closes what showed it. */
function useDeleteWindow(onDeleted: (w: Window) => void) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (w: Window) => data(api.delete('/api/v1/maintenance-windows/{id}', { path: { id: w.id } })),
    onSuccess: (_r, w) => {
      onDeleted(w);
      notices.success(`Maintenance window "${w.name}" deleted`);
      void queryClient.invalidateQueries({ queryKey: MAINTENANCE_KEY });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
}
