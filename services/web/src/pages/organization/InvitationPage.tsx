import { useMutation } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { useSwitchOrganization } from '../../app/organizations';
import { useUser } from '../../app/session';
import { usePageTitle } from '../../components/usePageTitle';

/**
 * `/invitations/:token`, the link of an invitation email. It sits in the signed-in frame: without a
 * session the app sends the user to sign in and back here. Accepting joins the organization and
 * switches the app to it.
 */
export function InvitationPage() {
  usePageTitle('Invitation');
  const { token = '' } = useParams();
  const user = useUser().data;
  const navigate = useNavigate();
  const notices = useNotices();
  const switchTo = useSwitchOrganization();
  const accept = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/invitations/accept', { body: { token } }))).data,
    onSuccess: (organization) => {
      notices.success(`You joined ${organization.name} as ${organization.role}`);
      switchTo(organization.id);
      navigate('/monitors', { replace: true });
    },
  });
  return (
    <>
      <div className="page-head">
        <h1>Invitation</h1>
      </div>
      <section className="card">
        <p>You were invited to join an organization. Accepting adds {user ? <strong>{user.email}</strong> : 'your account'} to it.</p>
        <p className="muted">The invitation must have been sent to this address; the link works once.</p>
        {accept.error && (
          <div className="error-box" role="alert">
            {errorMessage(accept.error)}
          </div>
        )}
        <button type="button" className="button primary" disabled={accept.isPending || !user} onClick={() => accept.mutate()}>
          Accept invitation
        </button>
      </section>
    </>
  );
}
