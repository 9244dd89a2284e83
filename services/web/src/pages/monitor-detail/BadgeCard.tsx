import { useViewerReason } from '../../app/organizations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useFormat } from '../../app/format';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SecretOnce } from '../../components/SecretOnce';

/** Markdown for a README: the two badges, as an image each. */
export const badgeMarkdown = (badge: Schema<'BadgeCreated'>): string =>
  `![status](${badge.status_url}) ![uptime](${badge.uptime_url})`;

/**
 * The monitor's badge: create or replace its token (the token and its URLs are shown this once:
 * only a hash is stored, docs/status-pages.md "Badges"), and revoke it, offered only while the
 * monitor has one.
 */
export function BadgeCard({ id }: { id: number }) {
  const viewer = useViewerReason();
  const notices = useNotices();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const [badge, setBadge] = useState<Schema<'BadgeCreated'> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const stateKey = ['monitor', id, 'badge'];
  const state = useQuery({
    queryKey: stateKey,
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/badge', { path: { id } }))).data,
  });
  const create = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/badge', { path: { id } }))).data,
    onSuccess: (b) => {
      setBadge(b);
      notices.success('Badge created: any earlier badge address no longer works');
      void queryClient.invalidateQueries({ queryKey: stateKey });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const revoke = useMutation({
    mutationFn: async () => data(api.delete('/api/v1/monitors/{id}/badge', { path: { id } })),
    onSuccess: (answer) => {
      setBadge(null);
      setConfirming(false);
      notices.success(answer.message);
      queryClient.setQueryData<Schema<'BadgeState'>>(stateKey, { exists: false, created_at: null });
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const exists = state.data?.exists === true;
  return (
    <section className="card" aria-labelledby="badge-title">
      <h2 id="badge-title">Badge</h2>
      <p className="muted">
        Images of this monitor&apos;s status and uptime for a README or a web page. A new badge replaces the old one, whose address stops
        working at once.
      </p>
      {state.data && (
        <p>{exists ? `This monitor has a badge, made ${fmt.dateTime(state.data.created_at)}.` : 'This monitor has no badge.'}</p>
      )}
      <div className="row-wrap">
        <button type="button" className="button" onClick={() => create.mutate()} disabled={create.isPending || viewer !== null} title={viewer ?? undefined}>
          {exists ? 'Replace badge' : 'Create badge'}
        </button>
        {exists && (
          <button type="button" className="button danger" onClick={() => setConfirming(true)} disabled={revoke.isPending || viewer !== null} title={viewer ?? undefined}>
            Revoke badge
          </button>
        )}
      </div>
      {badge && (
        <>
          <SecretOnce label="Badge token" value={badge.badge_token} note="Shown this once: only its hash is kept." />
          <SecretOnce label="Status badge URL" value={badge.status_url} />
          <SecretOnce label="Uptime badge URL" value={badge.uptime_url} note="Add ?period=24h, 7d, 30d or 90d (30d by default)." />
          <SecretOnce label="Markdown for a README" value={badgeMarkdown(badge)} />
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title="Revoke the badge?"
          onConfirm={() => revoke.mutate()}
          onCancel={() => setConfirming(false)}
          busy={revoke.isPending}
        >
          Pages showing it will show &quot;badge: not found&quot; instead.
        </ConfirmDialog>
      )}
    </section>
  );
}
