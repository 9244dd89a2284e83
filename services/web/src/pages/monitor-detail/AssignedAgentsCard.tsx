import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { Link } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';

type Agent = Schema<'Agent'>;
type AgentChange = { mutate: (agentId: number) => void; isPending: boolean };

/** The agents that check this monitor from their locations; assign or remove them. */
export function AssignedAgentsCard({ id }: { id: number }) {
  const { assigned, accessible, assign, remove } = useAssignedAgents(id);
  return (
    <section className="card" aria-labelledby="agents-title">
      <h2 id="agents-title">Assigned agents</h2>
      <QueryState query={assigned} what="assigned agents">
        {(list) => {
          const ids = new Set(list.map((a) => a.id));
          const others = (accessible.data ?? []).filter((a) => !ids.has(a.id));
          return (
            <>
              <AssignedAgentList list={list} remove={remove} />
              {others.length > 0 && <AssignAgentForm others={others} assign={assign} />}
              {accessible.data?.length === 0 && (
                <p className="muted small">
                  No agents yet: <Link to="/agents">add one</Link>.
                </p>
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

/** The monitor's agents, the agents this person may assign, and the two changes. */
function useAssignedAgents(id: number) {
  const assigned = useQuery({
    queryKey: ['monitor', id, 'agents'],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/agents', { path: { id } }))).data,
  });
  const accessible = useQuery({
    queryKey: ['agents', 'accessible'],
    queryFn: async () => (await data(api.get('/api/v1/agents/accessible'))).data,
  });
  const params = (agentId: number) => ({ path: { id }, body: { agent_ids: [agentId] } });
  const assign = useAgentChange(id, 'Agent assigned', async (agentId) => data(api.post('/api/v1/monitors/{id}/agents', params(agentId))));
  const remove = useAgentChange(id, 'Agent removed', async (agentId) => data(api.delete('/api/v1/monitors/{id}/agents', params(agentId))));
  return { assigned, accessible, assign, remove };
}

/** One change to the monitor's agents: said in a notice, then the list is asked again. */
function useAgentChange(id: number, done: string, change: (agentId: number) => Promise<unknown>) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: change,
    onSuccess: () => {
      notices.success(done);
      void queryClient.invalidateQueries({ queryKey: ['monitor', id, 'agents'] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
}

function AssignedAgentList({ list, remove }: { list: Agent[]; remove: AgentChange }) {
  if (list.length === 0) {
    return <p className="muted">Checked by the check workers only. Assign an agent to check from its location too.</p>;
  }
  return (
    <ul className="plain-list">
      {list.map((a) => (
        <li key={a.id} className="row-between">
          <span>
            <StatusBadge status={a.status} /> {a.name} <span className="muted">· {a.location}</span>
          </span>
          <button type="button" className="button small ghost" onClick={() => remove.mutate(a.id)} disabled={remove.isPending}>
            Remove {a.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

function AssignAgentForm({ others, assign }: { others: Agent[]; assign: AgentChange }) {
  return (
    <form
      className="row-wrap"
      onSubmit={(e) => {
        e.preventDefault();
        const value = new FormData(e.currentTarget).get('agent');
        if (value) assign.mutate(Number(value));
      }}
    >
      <label className="inline-label">
        Agent
        <select name="agent">
          {others.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.location})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button small" disabled={assign.isPending}>
        Assign agent
      </button>
    </form>
  );
}
