import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { refusalsByField } from '../../app/field-checks';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { roleAtLeast, useCurrentOrganization, type OrganizationRole } from '../../app/organizations';
import { useUser } from '../../app/session';
import { TextField } from '../../components/FormFields';
import { FormSummary } from '../../components/FormSummary';
import { QueryState } from '../../components/QueryState';
import { usePageTitle } from '../../components/usePageTitle';
import { useFormProblems } from '../../components/useFormProblems';
import { checkInviteForm, INVITE_FIELDS } from './invite-form-checks';

const ROLES: OrganizationRole[] = ['viewer', 'member', 'admin', 'owner'];

/**
 * The members of the organization the app acts in, their roles, and its pending invitations
 * (docs/web.md, "Organizations"). Admins and owners manage them; only an owner makes an owner.
 * What the user may not do is disabled, with the reason shown.
 */
export function MembersPage() {
  usePageTitle('Members');
  const organization = useCurrentOrganization();
  if (!organization) return <p className="muted" role="status">Loading…</p>;
  const role = organization.role as OrganizationRole;
  const canManage = roleAtLeast(role, 'admin');
  return (
    <>
      <div className="page-head">
        <h1>Members</h1>
      </div>
      <p className="muted">
        Of <strong>{organization.name}</strong>, where you are {role === 'admin' || role === 'owner' ? 'an' : 'a'} {role}.
      </p>
      {!canManage && (
        <p className="muted" id="members-reason">
          Only admins and owners can invite, change or remove members.
        </p>
      )}
      <InviteCard orgId={organization.id} role={role} />
      <MembersCard orgId={organization.id} role={role} />
      {canManage && <InvitationsCard orgId={organization.id} />}
    </>
  );
}

function useRefresh(orgId: number) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['members', orgId] });
    void queryClient.invalidateQueries({ queryKey: ['invitations', orgId] });
  };
}

function InviteCard({ orgId, role }: { orgId: number; role: OrganizationRole }) {
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<OrganizationRole>('member');
  const notices = useNotices();
  const refresh = useRefresh(orgId);
  const canManage = roleAtLeast(role, 'admin');
  const problems = useFormProblems();
  const invite = useMutation({
    mutationFn: async () =>
      (await data(api.post('/api/v1/organizations/{org_id}/invitations', { path: { org_id: orgId }, body: { email: email.trim(), role: inviteRole } }))).data,
    onSuccess: (i) => {
      notices.success(`Invitation sent to ${i.email}`);
      setEmail('');
      refresh();
    },
    onError: (err) => problems.refused(err, refusalsByField(err), (field) => INVITE_FIELDS.has(field)),
  });
  const { errors } = problems;
  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <p className="muted">They get an email with a link that works once, for 7 days, for that address.</p>
      <FormSummary summary={problems.summary} summaryRef={problems.summaryRef} />
      <form
        className="row-wrap align-end"
        aria-label="Invite someone"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problems.checked(checkInviteForm({ email }))) invite.mutate();
        }}
      >
        <fieldset disabled={!canManage} className="row-wrap align-end plain" aria-describedby={canManage ? undefined : 'members-reason'}>
          <TextField id="invite-email" label="Email" value={email} onChange={setEmail} placeholder="name@example.com" errors={errors.email} />
          <div className="field">
            <label htmlFor="invite-role">Role</label>
            <select id="invite-role" value={inviteRole} onChange={(e) => setInviteRole(e.target.value as OrganizationRole)}>
              {ROLES.map((r) => (
                <option key={r} value={r} disabled={r === 'owner' && role !== 'owner'}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button primary" disabled={invite.isPending}>
            Invite
          </button>
        </fieldset>
      </form>
    </section>
  );
}

function MembersCard({ orgId, role }: { orgId: number; role: OrganizationRole }) {
  const me = useUser().data;
  const notices = useNotices();
  const refresh = useRefresh(orgId);
  const fmt = useFormat();
  const members = useQuery({
    queryKey: ['members', orgId],
    queryFn: async () => (await data(api.get('/api/v1/organizations/{org_id}/members', { path: { org_id: orgId }, query: { limit: 100 } }))).data,
    // Others join, leave and change roles: read afresh each time the page opens.
    staleTime: 0,
  });
  const change = useMutation({
    mutationFn: async ({ userId, body }: { userId: number; email: string; body: { role?: OrganizationRole; alerts?: boolean } }) =>
      data(api.patch('/api/v1/organizations/{org_id}/members/{user_id}', { path: { org_id: orgId, user_id: userId }, body })),
    onSuccess: (_r, v) => {
      notices.success(`${v.email} updated`);
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const remove = useMutation({
    mutationFn: async ({ userId }: { userId: number; email: string }) =>
      data(api.delete('/api/v1/organizations/{org_id}/members/{user_id}', { path: { org_id: orgId, user_id: userId } })),
    onSuccess: (_r, v) => {
      notices.success(`${v.email} removed`);
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const canManage = roleAtLeast(role, 'admin');
  return (
    <section className="card flush" aria-labelledby="members-title">
      <h2 id="members-title" className="pad">
        Members
      </h2>
      <QueryState query={members} what="members">
        {(list) => (
          <div className="table-scroll">
            <table className="stack-narrow">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">Alert emails</th>
                  <th scope="col">Joined</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((m) => {
                  const self = m.user_id === me?.id;
                  // Only an owner makes, changes or removes an owner (docs/organizations.md, "Roles").
                  const canChange = canManage && (m.role !== 'owner' || role === 'owner');
                  return (
                    <tr key={m.user_id}>
                      <td data-label="Member">
                        <span className="strong">{m.name ?? m.email}</span>
                        {m.name && <span className="muted"> {m.email}</span>}
                        {self && <span className="muted"> (you)</span>}
                      </td>
                      <td data-label="Role">
                        <select
                          aria-label={`Role of ${m.email}`}
                          value={m.role}
                          disabled={!canChange || change.isPending}
                          title={canChange ? undefined : canManage ? 'Only an owner can change an owner' : 'Only admins and owners can change roles'}
                          onChange={(e) => change.mutate({ userId: m.user_id, email: m.email, body: { role: e.target.value as OrganizationRole } })}
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r} disabled={r === 'owner' && role !== 'owner'}>
                              {r}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td data-label="Alert emails">
                        <input
                          type="checkbox"
                          aria-label={`Alert emails for ${m.email}`}
                          checked={m.alerts}
                          disabled={!(self || canManage) || change.isPending}
                          onChange={(e) => change.mutate({ userId: m.user_id, email: m.email, body: { alerts: e.target.checked } })}
                        />
                      </td>
                      <td data-label="Joined">{fmt.dateTime(m.joined_at)}</td>
                      <td className="num">
                        <button
                          type="button"
                          className="button small danger"
                          aria-label={self ? 'Leave the organization' : `Remove ${m.email}`}
                          disabled={!(self || canChange) || remove.isPending}
                          onClick={() => remove.mutate({ userId: m.user_id, email: m.email })}
                        >
                          {self ? 'Leave' : 'Remove'}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </section>
  );
}

function InvitationsCard({ orgId }: { orgId: number }) {
  const notices = useNotices();
  const refresh = useRefresh(orgId);
  const fmt = useFormat();
  const invitations = useQuery({
    queryKey: ['invitations', orgId],
    queryFn: async () => (await data(api.get('/api/v1/organizations/{org_id}/invitations', { path: { org_id: orgId }, query: { limit: 100 } }))).data,
    staleTime: 0,
  });
  const revoke = useMutation({
    mutationFn: async ({ id }: { id: number; email: string }) =>
      data(api.delete('/api/v1/organizations/{org_id}/invitations/{id}', { path: { org_id: orgId, id } })),
    onSuccess: (_r, v) => {
      notices.success(`Invitation of ${v.email} revoked`);
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Pending invitations</h2>
      <QueryState query={invitations} what="invitations">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No pending invitations.</p>
          ) : (
            <ul className="plain-list" aria-label="Pending invitations">
              {list.map((i) => (
                <li key={i.id} className="row-wrap">
                  <span className="strong">{i.email}</span> <span>{i.role}</span>{' '}
                  <span className="muted">expires {fmt.dateTime(i.expires_at)}</span>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={`Revoke invitation of ${i.email}`}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate({ id: i.id, email: i.email })}
                  >
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
