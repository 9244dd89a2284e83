import { useQuery } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useEffect } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { rememberNext, useUser } from '../../app/session';
import { usePageTitle } from '../../components/usePageTitle';

const PROVIDERS = { github: 'GitHub', google: 'Google' } as const;

const ERRORS: Record<string, string> = {
  invalid_link:
    'This sign-in link is invalid: it has expired, has already been used, or was never issued. Ask for a new link and open it within 15 minutes.',
};

/** Provider buttons for the configured providers, and why a sign-in link did not work. */
export function SignInPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const next = params.get('next');
  const error = params.get('error');
  const user = useUser();
  const providers = useAuthProviders();

  // Whichever way the sign-in goes (a provider, a one-time link), the app comes back to `next`.
  useEffect(() => {
    rememberNext(next);
    document.documentElement.dataset.theme ??= 'system';
  }, [next]);

  // A refused link is explained even to someone still signed in; otherwise there is nothing to do here.
  if (user.data && !error) return <Navigate to={next && next.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;

  return (
    <main className="sign-in" id="main">
      <section className="card sign-in-card" aria-labelledby="sign-in-title">
        <div className="brand big">
          <img src="/favicon.svg" alt="" width="40" height="40" />
          <span>Uptime</span>
        </div>
        <h1 id="sign-in-title">Sign in</h1>
        <p className="muted">Watch your sites and APIs, and hear about it when they go down.</p>
        {error && (
          <div className="error-box" role="alert">
            {ERRORS[error] ?? `Signing in did not work (${error}). Please try again.`}
          </div>
        )}
        {next && !error && <p className="info-box">Your session has ended. Sign in to continue where you were.</p>}
        <SignInChoice user={user.data} providers={providers} />
        <p className="muted small">
          {providers.data?.length === 0 ? 'No sign-in provider is configured. ' : 'No account with these providers? '}
          An administrator can give you a one-time link: <code>pnpm cli login-link --email you@example.com</code>
        </p>
      </section>
    </main>
  );
}

function useAuthProviders() {
  return useQuery({
    queryKey: ['auth-providers'],
    queryFn: async () => (await data(api.get('/api/v1/auth/providers'))).data.providers,
    staleTime: Infinity,
  });
}

/** Someone still signed in is pointed back to the app; anyone else gets a button per provider. */
function SignInChoice({ user, providers }: { user: Schema<'User'> | undefined; providers: ReturnType<typeof useAuthProviders> }) {
  const start = (provider: keyof typeof PROVIDERS) => {
    window.location.assign(`/api/v1/auth/${provider}/login`);
  };
  if (user) {
    return (
      <p>
        You are still signed in as {user.email}. <Link to="/">Go to the dashboard</Link>
      </p>
    );
  }
  if (providers.isPending) {
    return (
      <p className="muted" role="status">
        Loading sign-in options…
      </p>
    );
  }
  if (providers.isError) {
    return (
      <div className="error-box" role="alert">
        {errorMessage(providers.error)}
      </div>
    );
  }
  return (
    <div className="provider-buttons">
      {providers.data.map((p) => (
        <button key={p} type="button" className={`button provider provider-${p}`} onClick={() => start(p)}>
          Sign in with {PROVIDERS[p]}
        </button>
      ))}
    </div>
  );
}
