import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { duration, useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { useViewerReason } from '../../app/organizations';
import { SecretOnce } from '../../components/SecretOnce';
import { heartbeatSnippets } from './heartbeat-form-values';
import { monitorChanged } from '../monitor-detail/useMonitorDetail';

/** What a heartbeat's job pings, how to paste it, and a new URL when the old one leaked (docs/heartbeats.md). */
export function HeartbeatAddressCard({ m }: { m: Schema<'Monitor'> }) {
  const viewer = useViewerReason();
  const notices = useNotices();
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/heartbeat/rotate', { path: { id: m.id } }))).data!,
    onSuccess: async () => {
      await monitorChanged(queryClient, m.id);
      notices.success('New heartbeat URL: the old one no longer works');
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  if (!m.heartbeat_url) return null;
  const snippets = heartbeatSnippets(m.heartbeat_url, m.heartbeat_cron ?? undefined);
  return (
    <section className="card" aria-labelledby="heartbeat-address-title">
      <h2 id="heartbeat-address-title">Heartbeat URL</h2>
      <p className="muted">Your job requests this address (GET, POST or HEAD) when it succeeds; /start, /fail or /EXIT-STATUS after it say more.</p>
      <SecretOnce label="Heartbeat URL" value={m.heartbeat_url} />
      <SecretOnce label="Crontab line" value={snippets.crontab} />
      <SecretOnce label="Wrapper reporting start and exit status" value={snippets.wrapper} />
      <button type="button" className="button" onClick={() => rotate.mutate()} disabled={rotate.isPending || viewer !== null} title={viewer ?? undefined}>
        Replace URL
      </button>
    </section>
  );
}

/** The pings received, newest first, each with the body its job sent. */
export function PingLog({ id }: { id: number }) {
  const fmt = useFormat();
  const pings = useQuery({
    queryKey: ['monitor', id, 'pings'],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/results', { path: { id }, query: { page: 1, limit: 50 } }))).data as Schema<'HeartbeatPing'>[],
    refetchInterval: 10_000,
  });
  return (
    <section className="card" aria-labelledby="ping-log-title">
      <h2 id="ping-log-title">Ping log</h2>
      {pings.data?.length === 0 && <p className="muted">No ping yet.</p>}
      {pings.data && pings.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Kind</th>
              <th scope="col">Duration</th>
              <th scope="col">From</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {pings.data.map((p) => (
              <tr key={p.id}>
                <td>{fmt.dateTime(p.received_at)}</td>
                <td>{p.kind === 'exit' ? `exit ${p.exit_status}` : p.kind}</td>
                <td>{p.duration === null ? '—' : duration(p.duration)}</td>
                <td title={p.user_agent ?? undefined}>{p.source_ip ?? '—'}</td>
                <td>{p.body_size > 0 ? <PingBody monitorId={id} ping={p} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PingBody({ monitorId, ping }: { monitorId: number; ping: Schema<'HeartbeatPing'> }) {
  const [open, setOpen] = useState(false);
  const body = useQuery({
    queryKey: ['monitor', monitorId, 'pings', ping.id],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/results/{result_id}', { path: { id: monitorId, result_id: ping.id } }))).data,
    enabled: open,
  });
  return (
    <>
      <button type="button" className="button small" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide body' : `Show body (${ping.body_size} bytes${ping.body_truncated ? ', cut' : ''})`}
      </button>
      {open && body.data && (
        <pre className="ping-body" aria-label={`Body of the ping of ${ping.received_at}`}>
          {body.data.body}
          {body.data.body_truncated ? '\n[cut at 10 KiB]' : ''}
        </pre>
      )}
    </>
  );
}
