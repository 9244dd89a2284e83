import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, type Schema } from '@uptime/client';
import { useSearchParams } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage, shouldRetry } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useUser } from '../../app/session';
import { Pagination } from '../../components/Pagination';
import { usePageTitle } from '../../components/usePageTitle';
import { actorLabel, AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, isAuditAction, isAuditResourceType, resourceLabel } from './audit-filters';

const PAGE_SIZE = 25;

/** The audit log of the organization the app acts in (docs/audit-log.md): owners and admins only. */
export function AuditLogPage() {
  usePageTitle('Audit log');
  const user = useUser();
  const organization = user.data?.organization;
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const action = params.get('action');
  const resourceType = params.get('resource_type');
  const filters = {
    ...(isAuditAction(action) ? { action } : {}),
    ...(isAuditResourceType(resourceType) ? { resource_type: resourceType } : {}),
  };
  const log = useQuery({
    queryKey: ['audit-log', organization?.id, page, filters],
    queryFn: () => data(api.get('/api/v1/organizations/{org_id}/audit-log', { path: { org_id: organization!.id }, query: { page, limit: PAGE_SIZE, ...filters } })),
    enabled: organization !== undefined,
    placeholderData: keepPreviousData,
    retry: shouldRetry,
  });

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };

  const refused = log.error instanceof ApiError && log.error.status === 403;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="muted">Who changed what{organization ? ` in ${organization.name}` : ''}, newest first. Entries are kept for 90 days by default.</p>
        </div>
      </div>
      {refused ? (
        <div className="card" role="alert">
          Only owners and admins can see the audit log.
        </div>
      ) : (
        <>
          <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
            <label>
              Action
              <select value={filters.action ?? ''} onChange={(e) => set({ action: e.target.value || null })}>
                <option value="">Any</option>
                {AUDIT_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Resource type
              <select value={filters.resource_type ?? ''} onChange={(e) => set({ resource_type: e.target.value || null })}>
                <option value="">Any</option>
                {AUDIT_RESOURCE_TYPES.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label}
                  </option>
                ))}
              </select>
            </label>
          </form>
          <section className="card" aria-label="Audit log entries">
            {log.data ? (
              <>
                {log.data.data.length === 0 ? <p className="muted">No entries match.</p> : <AuditTable entries={log.data.data} />}
                <Pagination pagination={log.data.pagination} label="Audit log" onPage={(p) => set({ page: String(p) })} />
              </>
            ) : log.error || user.error ? (
              <div className="error-box" role="alert">
                Could not load the audit log: {errorMessage(log.error ?? user.error)}
              </div>
            ) : (
              <p className="muted" role="status">
                Loading the audit log…
              </p>
            )}
          </section>
        </>
      )}
    </>
  );
}

function AuditTable({ entries }: { entries: Schema<'AuditEntry'>[] }) {
  const fmt = useFormat();
  return (
    <div className="table-scroll">
      <table className="stack-narrow">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Changed fields</th>
            <th scope="col">IP</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td data-label="When">
                <time dateTime={e.created_at} title={fmt.dateTime(e.created_at)}>
                  {fmt.dateTime(e.created_at)}
                </time>
              </td>
              <td data-label="Who">{actorLabel(e.actor)}</td>
              <td data-label="Action">
                <code>{e.action}</code>
              </td>
              <td data-label="Resource">{resourceLabel(e)}</td>
              <td data-label="Changed fields">{e.changed_fields.length > 0 ? e.changed_fields.join(', ') : '—'}</td>
              <td data-label="IP">{e.ip ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
