import { aMonitor, aUser, type MonitorOverrides } from '@uptime/testing';
import { statusChangedJobId, type StatusChangedJob } from '@uptime/queues';
import { Incident, type DataSource, type Monitor, type User } from '@uptime/db';

/** A status-changed job as the check-worker publishes it: id derived from the status_events row. */
export interface PublishedEvent {
  id: string;
  data: StatusChangedJob;
}

export interface DownScenario {
  owner: User;
  monitor: Monitor;
  incident: Incident;
  /** The offline event of the incident. */
  offline: PublishedEvent;
}

export interface DownOptions {
  owner?: Partial<User>;
  monitor?: MonitorOverrides;
  startedAt?: Date;
  statusCode?: number | null;
  responseTime?: number | null;
  error?: string | null;
}

type Status = StatusChangedJob['to'];

async function publish(ds: DataSource, monitorId: number, from: Status, to: Status, incidentId: number | null): Promise<PublishedEvent> {
  const [row] = (await ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at)
     VALUES ($1, $2, $3, $4, now()) RETURNING id`,
    [monitorId, from, to, incidentId],
  )) as { id: string }[];
  const data: StatusChangedJob = { eventId: String(row.id), monitorId, from, to, ...(incidentId === null ? {} : { incidentId }) };
  return { id: statusChangedJobId(data.eventId), data };
}

/**
 * What the check-worker leaves behind when a monitor goes offline: the monitor offline with its
 * open incident, the incident describing the failure, and the status_events row of the change.
 */
export async function aMonitorThatWentDown(ds: DataSource, options: DownOptions = {}): Promise<DownScenario> {
  const owner = await aUser(ds, options.owner);
  const monitor = await aMonitor(ds, owner, { name: 'Shop', url: 'https://shop.example.test/health', ...options.monitor });
  const [incident] = (await ds.query(
    `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      monitor.id,
      options.startedAt ?? new Date('2026-11-22T10:00:00.000Z'),
      options.statusCode === undefined ? 503 : options.statusCode,
      options.responseTime === undefined ? 1234 : options.responseTime,
      options.error === undefined ? 'HTTP 503 Service Unavailable' : options.error,
    ],
  )) as { id: number }[];
  await ds.query(`UPDATE monitors SET status = 'offline', consecutive_failures = 1, open_incident_id = $2 WHERE id = $1`, [
    monitor.id,
    incident.id,
  ]);
  const offline = await publish(ds, monitor.id, 'online', 'offline', incident.id);
  return { owner, monitor, incident: await ds.getRepository(Incident).findOneByOrFail({ id: incident.id }), offline };
}

/** What the check-worker leaves when the monitor comes back: the incident closed, the online event. */
export async function theMonitorRecovers(ds: DataSource, down: DownScenario, afterSeconds = 192): Promise<PublishedEvent> {
  await ds.query(
    `UPDATE incidents SET resolved_at = started_at + $2 * interval '1 second', duration = $2 WHERE id = $1`,
    [down.incident.id, afterSeconds],
  );
  await ds.query(`UPDATE monitors SET status = 'online', consecutive_failures = 0, open_incident_id = NULL WHERE id = $1`, [down.monitor.id]);
  return publish(ds, down.monitor.id, 'offline', 'online', down.incident.id);
}

/** Another change that notifies nobody (e.g. online → warning). */
export const aChangeWithoutIncident = (ds: DataSource, monitorId: number, from: Status, to: Status): Promise<PublishedEvent> =>
  publish(ds, monitorId, from, to, null);

export interface NotificationRow {
  id: number;
  type: string;
  status: string;
  message: string;
  user_id: number;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  resolved_manually: boolean;
  email_sent_at: Date | null;
  error_details: Record<string, unknown> | null;
}

export const notificationsOf = (ds: DataSource, incidentId: number): Promise<NotificationRow[]> =>
  ds.query(`SELECT * FROM notifications WHERE incident_id = $1 ORDER BY id`, [incidentId]);

export interface DeliveryRow {
  id: number;
  notification_id: number;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  next_attempt_at: Date;
  channel: string;
  /** The channel it goes through (docs/channels.md): the monitor's own settings are channels too. */
  channel_id: number | null;
  possible_duplicate: boolean;
  /** Sent to the log only: no mail transport. */
  logged_only: boolean;
  type: string;
  /** notice, reminder or escalation; round: the reminder's number (docs/alert-rules.md). */
  kind: string;
  round: number;
}

export const deliveriesOf = (ds: DataSource, incidentId: number): Promise<DeliveryRow[]> =>
  ds.query(
    `SELECT d.*, n.type FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
      WHERE n.incident_id = $1 ORDER BY d.id`,
    [incidentId],
  );
