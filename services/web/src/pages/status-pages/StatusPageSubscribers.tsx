import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useId, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';

type Subscriber = Schema<'StatusPageSubscriber'>;

const STATUS_LABELS: Record<Subscriber['status'], string> = {
  pending: 'Awaiting confirmation',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

/** A page's email subscribers: how many, how many confirmed (only those are emailed), and removal. */
export function StatusPageSubscribers({ page, onClose }: { page: Schema<'StatusPage'>; onClose: () => void }) {
  const [pageNo, setPageNo] = useState(1);
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const fmt = useFormat();
  const headingId = useId();
  const subscribers = useQuery({
    queryKey: ['status-page-subscribers', page.id, pageNo],
    queryFn: () => data(api.get('/api/v1/status-pages/{id}/subscribers', { path: { id: page.id }, query: { page: pageNo, limit: 25 } })),
    placeholderData: keepPreviousData,
  });
  const remove = useRemoveSubscriber(page.id, () => setRemoving(null));
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="page-head">
        <h2 id={headingId} tabIndex={-1}>Subscribers of {page.title}</h2>
        <button type="button" className="button ghost" onClick={onClose}>
          Close subscribers
        </button>
      </div>
      <QueryState query={subscribers} what="subscribers">
        {(answer) => (
          <>
            <p>
              {answer.counts.total} {answer.counts.total === 1 ? 'subscriber' : 'subscribers'}, {answer.counts.confirmed} confirmed
            </p>
            {answer.data.length === 0 ? (
              <p className="muted">No one has subscribed yet.</p>
            ) : (
              <div className="table-scroll">
                <table className="stack-narrow" aria-labelledby={headingId}>
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">State</th>
                      <th scope="col">Since</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {answer.data.map((s) => (
                      <tr key={s.id}>
                        <td data-label="Email">{s.email}</td>
                        <td data-label="State">{STATUS_LABELS[s.status]}</td>
                        <td data-label="Since">{fmt.dateTime(s.confirmed_at ?? s.created_at)}</td>
                        <td className="num">
                          <button type="button" className="button small danger" onClick={() => setRemoving(s)} aria-label={`Remove ${s.email}`}>
                            Remove
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pagination pagination={answer.pagination} label="Subscriber" onPage={setPageNo} />
          </>
        )}
      </QueryState>
      {removing && (
        <ConfirmDialog
          title={`Remove the subscriber ${removing.email}?`}
          onConfirm={() => remove.mutate(removing)}
          onCancel={() => setRemoving(null)}
          busy={remove.isPending}
        >
          Nothing more is sent to this address, including emails not sent yet.
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Removes a subscriber; `onRemoved` closes the confirmation. */
function useRemoveSubscriber(pageId: number, onRemoved: () => void) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: Subscriber) =>
      data(api.delete('/api/v1/status-pages/{id}/subscribers/{subscriber_id}', { path: { id: pageId, subscriber_id: s.id } })),
    onSuccess: (_r, s) => {
      onRemoved();
      notices.success(`Subscriber ${s.email} removed`);
      void queryClient.invalidateQueries({ queryKey: ['status-page-subscribers', pageId] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
}
