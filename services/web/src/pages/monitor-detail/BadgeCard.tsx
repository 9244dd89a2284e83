import { useMutation } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SecretOnce } from '../../components/SecretOnce';

/** Markdown for a README: the two badges, as an image each. */
export const badgeMarkdown = (badge: Schema<'BadgeCreated'>): string =>
  `![status](${badge.status_url}) ![uptime](${badge.uptime_url})`;

/**
 * The monitor's badge: create or replace its token (the token and its URLs are shown this once:
 * only a hash is stored, docs/status-pages.md "Badges"), and revoke it.
 */
export function BadgeCard({ id }: { id: number }) {
  const notices = useNotices();
  const [badge, setBadge] = useState<Schema<'BadgeCreated'> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const create = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/badge', { path: { id } }))).data,
    onSuccess: (b) => {
      setBadge(b);
      notices.success('Badge created: any earlier badge address no longer works');
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const revoke = useMutation({
    mutationFn: async () => data(api.delete('/api/v1/monitors/{id}/badge', { path: { id } })),
    onSuccess: (answer) => {
      setBadge(null);
      setConfirming(false);
      notices.success(answer.message);
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return (
    <section className="card" aria-labelledby="badge-title">
      <h2 id="badge-title">Badge</h2>
      <p className="muted">
        Images of this monitor&apos;s status and uptime for a README or a web page. A new badge replaces the old one, whose address stops
        working at once.
      </p>
      <div className="row-wrap">
        <button type="button" className="button" onClick={() => create.mutate()} disabled={create.isPending}>
          Create or replace badge
        </button>
        <button type="button" className="button danger" onClick={() => setConfirming(true)} disabled={revoke.isPending}>
          Revoke badge
        </button>
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
