import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { refusalsByField } from '../../app/field-checks';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { FormSummary } from '../../components/FormSummary';
import { TextField } from '../../components/FormFields';
import { useFormProblems } from '../../components/useFormProblems';
import { checkTokenForm, TOKEN_FIELDS } from './token-form-checks';
import { QueryState } from '../../components/QueryState';
import { SecretOnce } from '../../components/SecretOnce';

/** API tokens: create (its value shown this once), list, revoke. */
export function TokensCard() {
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<Schema<'CreatedToken'> | null>(null);
  const tokens = useQuery({
    queryKey: ['tokens'],
    queryFn: async () => (await data(api.get('/api/v1/auth/tokens', { query: { limit: 100 } }))).data,
  });
  const problems = useFormProblems();
  const { create, revoke } = useTokenActions(
    { name, days },
    (err) => problems.refused(err, refusalsByField(err, { unitOf: (field) => (field === 'expires_in_days' ? 'days' : '') }), (field) => TOKEN_FIELDS.has(field)),
    (t) => {
      setCreated(t);
      setName('');
      setDays('');
    },
    (t) => setCreated((shown) => (shown?.id === t.id ? null : shown)),
  );
  const { errors } = problems;
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted">
        For scripts and the CLI: send it as <code>Authorization: Bearer …</code>. The app itself never uses one.
      </p>
      <FormSummary summary={problems.summary} summaryRef={problems.summaryRef} />
      <form
        className="row-wrap align-end"
        aria-label="New token"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problems.checked(checkTokenForm({ name, days }))) create.mutate();
        }}
      >
        <TextField id="token-name" label="Token name" value={name} onChange={setName} placeholder="deploy script" errors={errors.name} />
        <TextField
          id="token-days"
          label="Expires in days"
          inputMode="numeric"
          value={days}
          onChange={setDays}
          placeholder="never"
          errors={errors.expires_in_days}
        />
        <button type="submit" className="button primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {created && <SecretOnce label={`New token ${created.name}`} value={created.token} note="Copy it now: it is not shown again." />}
      <QueryState query={tokens} what="tokens">
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No tokens.</p>
          ) : (
            <TokenTable tokens={list} onRevoke={(t) => revoke.mutate(t)} revoking={revoke.isPending} />
          )
        }
      </QueryState>
    </section>
  );
}

/** The tokens, each with when it was made, expires and was last used, and a Revoke button. */
function TokenTable({
  tokens,
  onRevoke,
  revoking,
}: {
  tokens: Schema<'Token'>[];
  onRevoke: (token: Schema<'Token'>) => void;
  revoking: boolean;
}) {
  const fmt = useFormat();
  return (
    <div className="table-scroll">
      <table className="stack-narrow">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <td className="strong" data-label="Name">{t.name}</td>
              <td data-label="Created">{fmt.dateTime(t.created_at)}</td>
              <td data-label="Expires">{t.expires_at ? fmt.dateTime(t.expires_at) : 'Never'}</td>
              <td data-label="Last used">{t.last_used_at ? fmt.ago(t.last_used_at) : 'Never'}</td>
              <td className="num">
                <button
                  type="button"
                  className="button small danger"
                  onClick={() => onRevoke(t)}
                  disabled={revoking}
                  aria-label={`Revoke ${t.name}`}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Creating a token from the form's name and days (empty: never expires; a refusal to `onRefused`), and revoking one. */
function useTokenActions(
  { name, days }: { name: string; days: string },
  onRefused: (err: unknown) => void,
  onCreated: (token: Schema<'CreatedToken'>) => void,
  onRevoked: (token: Schema<'Token'>) => void,
) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const create = useMutation({
    mutationFn: async () =>
      (await data(api.post('/api/v1/auth/tokens', { body: { name: name.trim(), expires_in_days: days.trim() ? Number(days) : null } })))
        .data,
    onSuccess: (t) => {
      onCreated(t);
      notices.success(`Token "${t.name}" created`);
      void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
    onError: onRefused,
  });
  const revoke = useMutation({
    mutationFn: async (t: Schema<'Token'>) => data(api.delete('/api/v1/auth/tokens/{id}', { path: { id: t.id } })),
    onSuccess: (_r, t) => {
      onRevoked(t);
      notices.success(`Token "${t.name}" revoked`);
      void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return { create, revoke };
}
