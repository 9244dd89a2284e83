import { aMonitor, aUser, type MonitorOverrides } from '@uptime/testing';
import { statusChangedJobId, type StatusChangedJob } from '@uptime/queues';
import type { DataSource, Monitor, User } from '@uptime/db';
import type { PublishedEvent } from './incident-fixtures';

export interface EpisodeScenario {
  owner: User;
  monitor: Monitor;
  episodeId: number;
  /** The status event of the check that opened the episode. */
  opened: PublishedEvent;
}

export interface EpisodeOptions {
  owner?: Partial<User>;
  monitor?: MonitorOverrides;
  startedAt?: Date;
  /** certificate: its notAfter. */
  certificateExpiresAt?: Date;
}

async function publish(
  ds: DataSource,
  monitorId: number,
  from: StatusChangedJob['to'],
  to: StatusChangedJob['to'],
  episodeId: number,
): Promise<PublishedEvent> {
  const [row] = (await ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, episode_ids, published_at) VALUES ($1, $2, $3, $4, now()) RETURNING id`,
    [monitorId, from, to, [episodeId]],
  )) as { id: string }[];
  const data: StatusChangedJob = { eventId: String(row!.id), monitorId, from, to, incidentId: null, episodeIds: [episodeId] };
  return { id: statusChangedJobId(data.eventId), data };
}

/**
 * What the check-worker leaves when a monitor becomes slow (alert_on_slow on): the monitor in
 * warning (slow) with its open slow episode, and the status event that names it.
 */
export async function aMonitorThatBecameSlow(ds: DataSource, options: EpisodeOptions = {}): Promise<EpisodeScenario> {
  const owner = await aUser(ds, options.owner);
  const monitor = await aMonitor(ds, owner, {
    name: 'Shop',
    url: 'https://shop.example.test/health',
    responseTimeThreshold: 800,
    alertOnSlow: true,
    ...options.monitor,
  });
  const [episode] = (await ds.query(
    `INSERT INTO alert_episodes (monitor_id, kind, started_at, response_time, response_time_threshold) VALUES ($1, 'slow', $2, 1450, 800) RETURNING id`,
    [monitor.id, options.startedAt ?? new Date('2026-11-22T10:00:00.000Z')],
  )) as { id: number }[];
  await ds.query(`UPDATE monitors SET status = 'warning', status_reason = 'slow', open_slow_episode_id = $2 WHERE id = $1`, [
    monitor.id,
    episode!.id,
  ]);
  return { owner, monitor, episodeId: episode!.id, opened: await publish(ds, monitor.id, 'online', 'warning', episode!.id) };
}

/**
 * What the check-worker leaves when an https monitor's certificate falls under
 * certificate_expiry_days: its open certificate episode, and the status event that names it.
 */
export async function aCertificateUnderTheLimit(ds: DataSource, options: EpisodeOptions = {}): Promise<EpisodeScenario> {
  const owner = await aUser(ds, options.owner);
  const monitor = await aMonitor(ds, owner, { name: 'Shop', url: 'https://shop.example.test/health', ...options.monitor });
  const startedAt = options.startedAt ?? new Date('2026-11-22T10:00:00.000Z');
  const notAfter = options.certificateExpiresAt ?? new Date(startedAt.getTime() + 3 * 86_400_000);
  const [episode] = (await ds.query(
    `INSERT INTO alert_episodes (monitor_id, kind, started_at, certificate_expires_at, certificate_expiry_days) VALUES ($1, 'certificate', $2, $3, 14) RETURNING id`,
    [monitor.id, startedAt, notAfter],
  )) as { id: number }[];
  await ds.query(`UPDATE monitors SET status = 'online', certificate_expires_at = $3, open_certificate_episode_id = $2 WHERE id = $1`, [
    monitor.id,
    episode!.id,
    notAfter,
  ]);
  return { owner, monitor, episodeId: episode!.id, opened: await publish(ds, monitor.id, 'pending', 'online', episode!.id) };
}

/** What the check-worker leaves when the episode ends (fast again; certificate changed), and its event. */
export async function theEpisodeEnds(ds: DataSource, s: EpisodeScenario, afterSeconds = 192): Promise<PublishedEvent> {
  await ds.query(`UPDATE alert_episodes SET resolved_at = started_at + $2 * interval '1 second' WHERE id = $1`, [
    s.episodeId,
    afterSeconds,
  ]);
  await ds.query(
    `UPDATE monitors SET status = 'online', status_reason = NULL, open_slow_episode_id = NULL, open_certificate_episode_id = NULL WHERE id = $1`,
    [s.monitor.id],
  );
  return publish(ds, s.monitor.id, s.opened.data.to, 'online', s.episodeId);
}

export interface EpisodeNotificationRow {
  id: number;
  type: string;
  status: string;
  message: string;
  incident_id: number | null;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  email_sent_at: Date | null;
}

export const episodeNotificationsOf = (ds: DataSource, episodeId: number): Promise<EpisodeNotificationRow[]> =>
  ds.query(`SELECT * FROM notifications WHERE episode_id = $1 ORDER BY id`, [episodeId]);

export const episodeDeliveriesOf = (
  ds: DataSource,
  episodeId: number,
): Promise<{ channel: string; phase: string; recipient: string; status: string }[]> =>
  ds.query(
    `SELECT d.channel, d.phase, d.recipient, d.status FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
      WHERE n.episode_id = $1 ORDER BY d.id`,
    [episodeId],
  );
