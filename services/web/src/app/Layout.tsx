import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { errorMessage, isUnauthorized } from './errors';
import { useApiReachable } from './connection';
import { useLiveState, useLiveUpdates } from './live';
import { useNotices, type Notices } from './notices';
import { signInPath, signOut, takeNext, usePreferences, useUser } from './session';
import { applyTheme } from './theme';
import { chosenOrganization } from './api';
import { useOrganizations, useSwitchOrganization } from './organizations';

const UNREACHABLE_RETRY_MS = 5_000;

const NAV = [
  { to: '/', label: 'Dashboard', end: true },
  { to: '/monitors', label: 'Monitors', end: false },
  { to: '/notifications', label: 'Notifications', end: false },
  { to: '/channels', label: 'Channels', end: false },
  { to: '/status-pages', label: 'Status pages', end: false },
  { to: '/maintenance', label: 'Maintenance', end: false },
  { to: '/agents', label: 'Agents', end: false },
  { to: '/organization/members', label: 'Members', end: false },
  { to: '/organization/audit-log', label: 'Audit log', end: false },
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
  useLiveUpdates(queryClient, user.data?.organization.id);
  const live = useLiveState();

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
  // A layout effect: in the commit that shows the new page. Navigations are transitions, whose
  // passive effects run after a paint, so the new page would show with focus still on the link.
  // The focus must not scroll: Chromium brings a focused element taller than the window to the
  // window's top edge, which put the page's heading under the sticky top bar (a saved monitor's).
  const firstPath = useRef(location.pathname);
  useLayoutEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    window.scrollTo(0, 0);
    document.getElementById('main')?.focus({ preventScroll: true });
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

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar user={user.data} onSignOut={() => void signOutAndLeave(queryClient, navigate, notices)} />
      {!reachable && <UnreachableBanner onRetry={retryNow} />}
      {reachable && live === 'down' && <LiveDownNotice />}
      <main id="main" tabIndex={-1}>
        {/* The page loads alongside the user, not after it: a missing session answers 401 to both. */}
        {user.isError && <SessionError error={user.error} />}
        <Outlet />
      </main>
    </div>
  );
}

/** Signs out and leaves for the sign-in page; a failure stays on this page, said in a notice. */
async function signOutAndLeave(queryClient: QueryClient, navigate: NavigateFunction, notices: Notices) {
  try {
    await signOut(queryClient);
    navigate('/sign-in', { replace: true });
  } catch (err) {
    notices.error(errorMessage(err));
  }
}

/** The navigation bar, with who is signed in and the way out. */
function TopBar({ user, onSignOut }: { user: Schema<'User'> | undefined; onSignOut: () => void }) {
  return (
    <header className="topbar">
      <MainNav />
      <div className="account">
        {user && <OrganizationSwitcher current={user.organization.id} />}
        {user && <span className="muted account-name">{user.name ?? user.email}</span>}
        <button type="button" className="button ghost" onClick={onSignOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}

/**
 * The main menu. Under 720 px (src/styles/phone.css) the links fold behind a "Menu" button that
 * says whether they are open; they close again when one is followed, and on Escape (focus back on
 * the button). On a wider screen the button is not displayed and the links always are.
 */
function MainNav() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <nav className={open ? 'nav open' : 'nav'} aria-label="Main" onKeyDown={closeOnEscape}>
      <NavLink to="/" className="brand" end aria-label="Uptime home" onClick={() => setOpen(false)}>
        <img src="/favicon.svg" alt="" width="24" height="24" />
        <span>Uptime</span>
      </NavLink>
      <button
        ref={button}
        type="button"
        className="button ghost menu-button"
        aria-expanded={open}
        aria-controls="main-menu"
        onClick={() => setOpen((was) => !was)}
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
          <path d={open ? 'M3 3l10 10M13 3L3 13' : 'M2 4h12M2 8h12M2 12h12'} stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        Menu
      </button>
      <ul id="main-menu">
        {NAV.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} onClick={() => setOpen(false)}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Which organization the app acts in (docs/web.md, "Organizations"): the choice is sent as
 * X-Organization-Id on every request, and every page reloads in the new one.
 */
function OrganizationSwitcher({ current }: { current: number }) {
  const organizations = useOrganizations();
  const switchTo = useSwitchOrganization();
  const list = organizations.data ?? [];
  // A stored choice the user is no longer in: the API answers in the personal one meanwhile.
  const chosen = chosenOrganization();
  const value = list.some((o) => o.id === chosen) ? chosen : current;
  if (list.length === 0) return null;
  return (
    <label className="organization-switcher">
      <span className="visually-hidden">Organization</span>
      <select value={value ?? current} onChange={(e) => switchTo(Number(e.target.value))}>
        {list.map((o) => (
          <option key={o.id} value={o.id}>
            {o.personal ? `${o.name} (personal)` : o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function SessionError({ error }: { error: Error }) {
  return (
    <div className="card error-box" role="alert">
      {errorMessage(error)}
    </div>
  );
}

function UnreachableBanner({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="banner" role="alert">
      The API cannot be reached right now. What you see may be out of date; the page keeps trying.{' '}
      <button type="button" className="button small" onClick={onRetry}>
        Retry now
      </button>
    </div>
  );
}

/** The live stream dropped: the pages poll meanwhile (src/app/live.ts). */
function LiveDownNotice() {
  return (
    <div className="banner live-down" role="status">
      Live updates are interrupted: this page refreshes every few seconds until they are back.
    </div>
  );
}
