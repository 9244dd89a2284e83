import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { millis, useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { useUser } from '../../app/session';
import { Pagination } from '../../components/Pagination';
import { QueryState } from '../../components/QueryState';
import { SecretOnce } from '../../components/SecretOnce';
import { StatusBadge } from '../../components/StatusBadge';
import { usePageTitle } from '../../components/usePageTitle';
import { RegisterAgent } from './RegisterAgent';

export function AgentsPage() {
  usePageTitle('Agents');
  const [page, setPage] = useState(1);
  const user = useUser();
  const own = useQuery({
    queryKey: ['agents', 'own', page],
    queryFn: () => data(api.get('/api/v1/agents', { query: { page, limit: 25 } })),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const accessible = useQuery({
    queryKey: ['agents', 'accessible'],
    queryFn: async () => (await data(api.get('/api/v1/agents/accessible'))).data,
  });
  const shared = (accessible.data ?? []).filter((a) => a.owner_id !== user.data?.id);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Agents</h1>
          <p className="muted">
            Agents check your monitors from other places. Run one with <code>pnpm agent</code> and register it here.
          </p>
        </div>
      </div>
      <RegisterAgent />
      <section className="card flush" aria-labelledby="own-agents">
        <h2 id="own-agents" className="pad">
          Your agents
        </h2>
        <QueryState query={own} what="your agents">
          {(answer) =>
            answer.data.length === 0 ? (
              <p className="muted pad">No agents registered yet.</p>
            ) : (
              <>
                <ul className="agent-list">
                  {answer.data.map((a) => (
                    <AgentRow key={a.id} agent={a} mine />
                  ))}
                </ul>
                <div className="card-foot">
                  <Pagination pagination={answer.pagination} label="Agent" onPage={setPage} />
                </div>
              </>
            )
          }
        </QueryState>
      </section>
      <SharedAgents agents={shared} />
    </>
  );
}

function AgentRow({ agent, mine }: { agent: Schema<'Agent'>; mine: boolean }) {
  const fmt = useFormat();
  const [secret, setSecret] = useState<string | null>(null);
  const { validate, credentials, setStatus, publish } = useAgentActions(agent, setSecret);
  return (
    <li className="agent">
      <div>
        <div className="row-wrap">
          <StatusBadge status={agent.status} />
          <span className="strong">{agent.name}</span>
          <span className="muted">{agent.location}</span>
          {agent.is_public && <span className="badge tone-neutral">Public</span>}
        </div>
        <p className="muted small">
          {agent.url} · {agent.version ? `version ${agent.version}` : 'version unknown'} · last seen{' '}
          {agent.last_seen_at ? fmt.ago(agent.last_seen_at) : 'never'}
        </p>
        {secret && <SecretOnce label={`Secret of ${agent.name}`} value={secret} />}
      </div>
      {mine && (
        <AgentActions
          agent={agent}
          secretShown={secret !== null}
          onStatus={(status) => setStatus.mutate(status)}
          statusPending={setStatus.isPending}
          onValidate={() => validate.mutate()}
          validatePending={validate.isPending}
          onCredentials={() => (secret ? setSecret(null) : credentials.mutate())}
          onPublish={() => publish.mutate()}
          publishPending={publish.isPending}
        />
      )}
    </li>
  );
}

type AgentStatus = Schema<'AgentStatusUpdate'>['status'];

/** Validating, showing the credentials of, setting the status of and publishing one agent. */
function useAgentActions(agent: Schema<'Agent'>, setSecret: (secret: string | null) => void) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const onError = (err: unknown) => notices.error(errorMessage(err));
  const validate = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/agents/{id}/validate', { path: { id: agent.id } }))).data,
    onSuccess: (v) => {
      if (v.reachable) notices.success(`${agent.name} answered in ${millis(v.latency_ms)}${v.version ? ` (version ${v.version})` : ''}`);
      else notices.error(`${agent.name} did not answer: ${v.error ?? 'no answer'}`);
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
    onError,
  });
  const credentials = useMutation({
    mutationFn: async () => (await data(api.get('/api/v1/agents/{id}/credentials', { path: { id: agent.id } }))).data,
    onSuccess: (c) => setSecret(c.secret),
    onError,
  });
  const setStatus = useMutation({
    mutationFn: async (status: AgentStatus) =>
      (await data(api.patch('/api/v1/agents/{id}/status', { path: { id: agent.id }, body: { status } }))).data,
    onSuccess: (a) => {
      notices.success(`${a.name} is now ${a.status}`);
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
    onError,
  });
  const publish = useMutation({
    mutationFn: async () =>
      (await data(api.patch('/api/v1/agents/{id}/toggle-publishing', { path: { id: agent.id }, body: { is_public: !agent.is_public } })))
        .data,
    onSuccess: (a) => {
      notices.success(a.is_public ? `${a.name} is public` : `${a.name} is private`);
      void queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
    onError,
  });
  return { validate, credentials, setStatus, publish };
}

/** An own agent's controls: its status, Validate, the credentials, and Publish or Unpublish. */
function AgentActions({
  agent,
  secretShown,
  onStatus,
  statusPending,
  onValidate,
  validatePending,
  onCredentials,
  onPublish,
  publishPending,
}: {
  agent: Schema<'Agent'>;
  secretShown: boolean;
  onStatus: (status: AgentStatus) => void;
  statusPending: boolean;
  onValidate: () => void;
  validatePending: boolean;
  onCredentials: () => void;
  onPublish: () => void;
  publishPending: boolean;
}) {
  return (
    <div className="actions">
      <select
        value={agent.status === 'unreachable' ? '' : agent.status}
        disabled={statusPending}
        onChange={(e) => e.target.value && onStatus(e.target.value as AgentStatus)}
        aria-label={`Status of ${agent.name}`}
      >
        {agent.status === 'unreachable' && <option value="">Unreachable</option>}
        <option value="active">Active</option>
        <option value="inactive">Inactive</option>
        <option value="maintenance">Maintenance</option>
      </select>
      <button type="button" className="button small" onClick={onValidate} disabled={validatePending} aria-label={`Validate ${agent.name}`}>
        Validate
      </button>
      <button
        type="button"
        className="button small"
        onClick={onCredentials}
        aria-label={`${secretShown ? 'Hide' : 'Show'} credentials of ${agent.name}`}
      >
        {secretShown ? 'Hide credentials' : 'Show credentials'}
      </button>
      <button
        type="button"
        className="button small"
        onClick={onPublish}
        disabled={publishPending}
        aria-label={`${agent.is_public ? 'Unpublish' : 'Publish'} ${agent.name}`}
      >
        {agent.is_public ? 'Unpublish' : 'Publish'}
      </button>
    </div>
  );
}

/** Public agents of other people, which your monitors may use. */
function SharedAgents({ agents }: { agents: Schema<'Agent'>[] }) {
  return (
    <section className="card flush" aria-labelledby="shared-agents">
      <h2 id="shared-agents" className="pad">
        Public agents of others
      </h2>
      {agents.length === 0 ? (
        <p className="muted pad">No public agents are shared with you.</p>
      ) : (
        <ul className="agent-list">
          {agents.map((a) => (
            <AgentRow key={a.id} agent={a} mine={false} />
          ))}
        </ul>
      )}
    </section>
  );
}
