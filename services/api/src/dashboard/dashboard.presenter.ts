import { toNotificationResponse } from '../notifications/notification.presenter';
import type { Dashboard } from './dashboard.service';

/** `data` of GET /dashboard, exactly the fields of docs/dashboard.md. */
export function toDashboardResponse(d: Dashboard) {
  return {
    monitors: d.monitors,
    uptime: d.uptime,
    response_time_avg_24h: d.responseTimeAvg24h,
    active_incidents: d.activeIncidents,
    down_monitors: d.downMonitors.map((m) => ({ id: m.id, name: m.name, url: m.url, since: m.since ? m.since.toISOString() : null, in_maintenance: m.in_maintenance })),
    recent_notifications: d.recentNotifications.map(toNotificationResponse),
    checks: { per_second: d.checks.perSecond, lag_p99_seconds: d.checks.lagP99Seconds, late: d.checks.late },
  };
}
