import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { errorMessage, isUnauthorized } from './errors';
import { useApiReachable } from './connection';
import { useNotices } from './notices';
import { signInPath, signOut, takeNext, usePreferences, useUser } from './session';
import { applyTheme } from './theme';

const UNREACHABLE_RETRY_MS = 5_000;

const NAV = [
  { to: '/', label: 'Dashboard', end: true },
  { to: '/monitors', label: 'Monitors', end: false },
  { to: '/notifications', label: 'Notifications', end: false },
  { to: '/status-pages', label: 'Status pages', end: false },
  { to: '/agents', label: 'Agents', end: false },
  { to: '/settings', label: 'Settings', end: false },
];

/** The signed-in frame: navigation bar, "API unreachable" banner, and the page. */
export function Layout() {
  const user = useUser();
  const preferences = usePreferences();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notices = useNotices();
  const reachable = useApiReachable();

  useEffect(() => {
    if (preferences.data) applyTheme(preferences.data.theme);
  }, [preferences.data]);

  // While nothing answers, ask again every few seconds: the banner goes once the API is back.
  const retryNow = () => void queryClient.refetchQueries({ type: 'active' });
  useEffect(() => {
    if (reachable) return;
    const timer = setInterval(() => void queryClient.refetchQueries({ type: 'active' }), UNREACHABLE_RETRY_MS);
    return () => clearInterval(timer);
  }, [reachable, queryClient]);

  // A new page starts at its top, and the keyboard and screen reader continue from its content.
  const firstPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus();
  }, [location.pathname]);

  // Back to the page a sign-in started from (kept across the provider's round trip).
  useEffect(() => {
    if (!user.data) return;
    const next = takeNext();
    if (next && next !== `${location.pathname}${location.search}`) navigate(next, { replace: true });
  }, [user.data, location.pathname, location.search, navigate]);

  if (user.isError && isUnauthorized(user.error)) {
    return <Navigate to={signInPath(`${location.pathname}${location.search}`)} replace />;
  }

  const onSignOut = async () => {
    try {
      await signOut(queryClient);
      navigate('/sign-in', { replace: true });
    } catch (err) {
      notices.error(errorMessage(err));
    }
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <nav className="nav" aria-label="Main">
          <NavLink to="/" className="brand" end aria-label="Uptime home">
            <img src="/favicon.svg" alt="" width="24" height="24" />
            <span>Uptime</span>
          </NavLink>
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          {user.data && <span className="muted account-name">{user.data.name ?? user.data.email}</span>}
          <button type="button" className="button ghost" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      {!reachable && (
        <div className="banner" role="alert">
          The API cannot be reached right now. What you see may be out of date; the page keeps trying.{' '}
          <button type="button" className="button small" onClick={retryNow}>
            Retry now
          </button>
        </div>
      )}
      <main id="main" tabIndex={-1}>
        {/* The page loads alongside the user, not after it: a missing session answers 401 to both. */}
        {user.isError && (
          <div className="card error-box" role="alert">
            {errorMessage(user.error)}
          </div>
        )}
        <Outlet />
      </main>
    </div>
  );
}
