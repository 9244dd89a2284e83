import { UnrecoverableError } from 'bullmq';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { describeAlert, type AlertRef } from './alert';
import { loadAlert } from './alert.repository';
import { deliverAlert, type DeliverAlertDeps } from './deliveries/deliver-alert';
import { recordAlertNotifications } from './notification.repository';
import { publishLiveNotifications, type LiveNotificationsTarget } from './live-notifications';

export interface NotifyAlertDeps {
  dataSource: DataSource;
  delivery: DeliverAlertDeps;
  metrics?: Pick<ServiceMetrics, 'notificationsCreated'>;
  /** Where open pages hear of new notifications; none: they are not told. */
  live?: LiveNotificationsTarget;
}

/**
 * The part of a `status-changed` event about one alert it opened or closed, of whatever kind:
 * brings the alert's notifications in line with its row (recordAlertNotifications()), then sends
 * what is due (deliverAlert()). Idempotent: a redelivered event finds everything done, so
 * duplicates, retries, concurrent notifiers and out-of-order events all end in one state.
 */
export async function notifyAlert(deps: NotifyAlertDeps, ref: AlertRef, monitorId: number, log: Logger): Promise<void> {
  const alert = await loadAlert(deps.dataSource.manager, ref);
  if (!alert) {
    // Deleting a monitor deletes its alerts: nobody is left to notify.
    log.info({ alert: describeAlert(ref) }, 'alert no longer exists; nothing to notify');
    return;
  }
  if (alert.monitorId !== monitorId) {
    throw new UnrecoverableError(`${describeAlert(ref, alert.kind)} belongs to monitor ${alert.monitorId}, not ${monitorId}`);
  }
  const recorded = await recordAlertNotifications(deps.dataSource, alert);
  for (const { type } of recorded) deps.metrics?.notificationsCreated.inc({ type });
  if (recorded.length > 0) log.info({ alert: describeAlert(ref, alert.kind), kind: alert.kind, notifications: recorded }, 'notifications recorded');
  if (deps.live) await publishLiveNotifications(deps.live, deps.dataSource, monitorId, recorded, log);
  await deliverAlert(deps.delivery, alert);
}
