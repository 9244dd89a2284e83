import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';

/** The agents that check this monitor from their locations; assign or remove them. */
export function AssignedAgentsCard({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const assigned = useQuery({
    queryKey: ['monitor', id, 'agents'],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/agents', { path: { id } }))).data,
  });
  const accessible = useQuery({
    queryKey: ['agents', 'accessible'],
    queryFn: async () => (await data(api.get('/api/v1/agents/accessible'))).data,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['monitor', id, 'agents'] });
  const assign = useMutation({
    mutationFn: async (agentId: number) => data(api.post('/api/v1/monitors/{id}/agents', { path: { id }, body: { agent_ids: [agentId] } })),
    onSuccess: () => {
      notices.success('Agent assigned');
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: async (agentId: number) =>
      data(api.delete('/api/v1/monitors/{id}/agents', { path: { id }, body: { agent_ids: [agentId] } })),
    onSuccess: () => {
      notices.success('Agent removed');
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return (
    <section className="card" aria-labelledby="agents-title">
      <h2 id="agents-title">Assigned agents</h2>
      <QueryState query={assigned} what="assigned agents">
        {(list) => {
          const ids = new Set(list.map((a) => a.id));
          const others = (accessible.data ?? []).filter((a) => !ids.has(a.id));
          return (
            <>
              {list.length === 0 ? (
                <p className="muted">Checked by the check workers only. Assign an agent to check from its location too.</p>
              ) : (
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
              )}
              {others.length > 0 && (
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
              )}
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
