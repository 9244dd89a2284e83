import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { AgentsPage } from '../pages/agents/AgentsPage';
import { AuditLogPage } from '../pages/audit-log/AuditLogPage';
import { ChannelsPage } from '../pages/channels/ChannelsPage';
import { DashboardPage } from '../pages/dashboard/DashboardPage';
import { MonitorDetailPage } from '../pages/monitor-detail/MonitorDetailPage';
import { MonitorFormPage } from '../pages/monitor-form/MonitorFormPage';
import { MonitorsPage } from '../pages/monitors/MonitorsPage';
import { NotificationsPage } from '../pages/notifications/NotificationsPage';
import { SettingsPage } from '../pages/settings/SettingsPage';
import { SignInPage } from '../pages/sign-in/SignInPage';
import { setOrganizationLostListener, setUnauthorizedListener } from './api';
import { Layout } from './Layout';
import { NotFoundPage } from './NotFoundPage';
import { MembersPage } from '../pages/organization/MembersPage';
import { InvitationPage } from '../pages/organization/InvitationPage';
import { keys, signInPath } from './session';

// Loaded on first visit: the first load stays small (docs/web.md, "Build, develop, serve").
const StatusPagesPage = lazy(() => import('../pages/status-pages/StatusPagesPage').then((m) => ({ default: m.StatusPagesPage })));
const MaintenancePage = lazy(() => import('../pages/maintenance/MaintenancePage').then((m) => ({ default: m.MaintenancePage })));
const loadingPage = (
  <p className="muted" role="status">
    Loading…
  </p>
);

export function App() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  // A 401 anywhere: the session expired. Go to sign-in, remembering where we were.
  useEffect(() => {
    setUnauthorizedListener(() => {
      const here = `${window.location.pathname}${window.location.search}`;
      if (window.location.pathname.startsWith('/sign-in')) return;
      queryClient.removeQueries({ queryKey: keys.user });
      navigate(signInPath(here), { replace: true });
    });
    // The organization chosen is gone (deleted, or the user was removed): all in the personal one again.
    setOrganizationLostListener(() => void queryClient.resetQueries());
  }, [navigate, queryClient]);

  return (
    <Routes location={location}>
      <Route path="/sign-in" element={<SignInPage />} />
      <Route element={<Layout />}>
        <Route index element={<DashboardPage />} />
        <Route path="monitors" element={<MonitorsPage />} />
        <Route path="monitors/new" element={<MonitorFormPage />} />
        <Route path="monitors/:id" element={<MonitorDetailPage />} />
        <Route path="monitors/:id/edit" element={<MonitorFormPage />} />
        <Route path="notifications" element={<NotificationsPage />} />
        <Route path="channels" element={<ChannelsPage />} />
        <Route path="agents" element={<AgentsPage />} />
        <Route
          path="status-pages"
          element={
            <Suspense fallback={loadingPage}>
              <StatusPagesPage />
            </Suspense>
          }
        />
        <Route
          path="maintenance"
          element={
            <Suspense fallback={loadingPage}>
              <MaintenancePage />
            </Suspense>
          }
        />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="organization/audit-log" element={<AuditLogPage />} />
        <Route path="organization/members" element={<MembersPage />} />
        <Route path="invitations/:token" element={<InvitationPage />} />
        <Route path="dashboard" element={<Navigate to="/" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
