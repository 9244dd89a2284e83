import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useRef, useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { useViewerReason } from '../../app/organizations';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ManagedMark, useManagedEditGuard } from '../../components/ManagedBy';
import { DeliveriesTable } from '../../components/DeliveriesTable';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { SecretOnce } from '../../components/SecretOnce';
import { StackTable } from '../../components/StackTable';
import { usePageTitle } from '../../components/usePageTitle';
import { ChannelForm } from './ChannelForm';
import { CHANNEL_LABELS } from './channel-form-values';

type Channel = Schema<'Channel'>;
type Editing = { mode: 'create' } | { mode: 'edit'; channel: Channel } | null;

/** Channels (docs/channels.md): add, test with the delivery result, edit, apply to all monitors, delete. */
export function ChannelsPage() {
  usePageTitle('Channels');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [generated, setGenerated] = useState<string | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const viewer = useViewerReason('channels');
  const channels = useQuery({
    queryKey: ['channels', page],
    queryFn: () => data(api.get('/api/v1/channels', { query: { page, limit: 25 } })),
    placeholderData: keepPreviousData,
  });
  const actions = useChannelActions(() => setDeleting(null));
  const open = (next: Editing) => {
    setEditing(next);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('input')?.focus());
  };
  // A channel declared in uptime.yaml is edited only after the question (docs/config-as-code.md).
  const managed = useManagedEditGuard();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Channels</h1>
          <p className="muted">
            Where alerts go, set up once: email, Slack, webhooks, Discord, Telegram, Teams, PagerDuty, ntfy, Pushover, Google Chat,
            Mattermost.
          </p>
        </div>
        {editing?.mode !== 'create' && (
          <button
            type="button"
            className="button primary"
            onClick={() => open({ mode: 'create' })}
            disabled={viewer !== null}
            title={viewer ?? undefined}
          >
            Add channel
          </button>
        )}
      </div>
      {generated && <SecretOnce label="Webhook signing secret" value={generated} />}
      <div ref={formRef}>
        {editing && (
          <ChannelForm
            key={editing.mode === 'edit' ? editing.channel.id : 'new'}
            channel={editing.mode === 'edit' ? editing.channel : null}
            onDone={(saved) => {
              setEditing(null);
              const secret = (saved?.config as { secret?: unknown } | undefined)?.secret;
              setGenerated(typeof secret === 'string' ? secret : null);
            }}
          />
        )}
      </div>
      <section className="card flush" aria-labelledby="channels-title">
        <h2 id="channels-title" className="pad">
          Your channels
        </h2>
        <QueryState query={channels} what="channels">
          {(answer) =>
            answer.data.length === 0 ? (
              <p className="muted pad">No channels yet.</p>
            ) : (
              <>
                <ChannelTable
                  channels={answer.data}
                  actions={actions}
                  onEdit={(c) => managed.guard(c, c.name, () => open({ mode: 'edit', channel: c }))}
                  onDelete={setDeleting}
                />
                <div className="card-foot">
                  <Pagination pagination={answer.pagination} label="Channel" onPage={setPage} />
                </div>
              </>
            )
          }
        </QueryState>
      </section>
      {actions.test.data && (
        <DeliveriesTable deliveries={actions.test.data.deliveries} caption={`Test of ${actions.testedName ?? 'the channel'}`} />
      )}
      {managed.dialog}
      {deleting && (
        <ConfirmDialog
          title={`Delete the channel "${deleting.name}"?`}
          onConfirm={() => actions.remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
          busy={actions.remove.isPending}
        >
          It is detached from every monitor it is attached to; those monitors stop alerting through it at once.
        </ConfirmDialog>
      )}
    </>
  );
}

/** Test, apply to all monitors and delete, each answered by a notice. */
function useChannelActions(onDeleted: () => void) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [testedName, setTestedName] = useState<string | null>(null);
  // A monitor's alert settings form starts from its cached answer: drop those the change made stale.
  const forgetMonitorAlerts = () =>
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] === 'monitor' && q.queryKey[2] === 'alerts' });
  const test = useMutation({
    mutationFn: async (c: Channel) => {
      setTestedName(c.name);
      return (await data(api.post('/api/v1/channels/{id}/test', { path: { id: c.id } }))).data;
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const applyToAll = useMutation({
    mutationFn: async (c: Channel) =>
      (await data(api.patch('/api/v1/channels/{id}', { path: { id: c.id }, body: { apply_to_all_monitors: true } }))).data,
    onSuccess: (saved) => {
      forgetMonitorAlerts();
      notices.success(`Channel "${saved.name}" attached to ${saved.attached_monitors ?? 0} more monitors`);
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: async (c: Channel) => data(api.delete('/api/v1/channels/{id}', { path: { id: c.id } })),
    onSuccess: (answer) => {
      onDeleted();
      forgetMonitorAlerts();
      notices.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return { test, testedName, applyToAll, remove };
}

/** One row per channel: its name, type, whether new monitors get it, and its actions. */
function ChannelTable({
  channels,
  actions,
  onEdit,
  onDelete,
}: {
  channels: Channel[];
  actions: ReturnType<typeof useChannelActions>;
  onEdit: (c: Channel) => void;
  onDelete: (c: Channel) => void;
}) {
  const viewer = useViewerReason('channels');
  const busy = actions.test.isPending || actions.applyToAll.isPending;
  return (
    <StackTable columns={['Name', 'Type', 'New monitors']} actions>
      {channels.map((c) => (
        <tr key={c.id}>
          <td className="strong" data-label="Name">
            {c.name}
            <ManagedMark resource={c} />
          </td>
          <td data-label="Type">{CHANNEL_LABELS[c.type]}</td>
          <td data-label="New monitors">{c.is_default ? 'Default for new monitors' : '—'}</td>
          <td className="num">
            <div className="row-wrap">
              <button
                type="button"
                className="button small"
                disabled={busy}
                onClick={() => actions.test.mutate(c)}
                aria-label={`Test ${c.name}`}
              >
                Test
              </button>
              <button
                type="button"
                className="button small"
                disabled={viewer !== null}
                onClick={() => onEdit(c)}
                aria-label={`Edit ${c.name}`}
              >
                Edit
              </button>
              <button
                type="button"
                className="button small"
                disabled={busy || viewer !== null}
                onClick={() => actions.applyToAll.mutate(c)}
                aria-label={`Apply to all monitors: ${c.name}`}
              >
                Apply to all monitors
              </button>
              <button
                type="button"
                className="button small danger"
                disabled={viewer !== null}
                onClick={() => onDelete(c)}
                aria-label={`Delete ${c.name}`}
              >
                Delete
              </button>
            </div>
          </td>
        </tr>
      ))}
    </StackTable>
  );
}
