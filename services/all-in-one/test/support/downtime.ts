import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import { createRedisConnection, enqueue, JOBS, openQueue, QueueName } from '@uptime/queues';

/**
 * What the check-worker leaves when a monitor goes down (docs/architecture.md, steps 3 and 4):
 * its incident open, the monitor offline, the status event published and its `status-changed`
 * job queued, so the notifier takes it from there without a check being run. Resolves with the
 * incident's id.
 */
export async function queueDowntime(ds: DataSource, config: Config, monitorId: number): Promise<number> {
  const [incident] = (await ds.query(
    `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error) VALUES ($1, now(), 503, 120, 'HTTP 503 Service Unavailable') RETURNING id`,
    [monitorId],
  )) as { id: number }[];
  await ds.query(`UPDATE monitors SET status = 'offline', consecutive_failures = 1, open_incident_id = $2 WHERE id = $1`, [monitorId, incident!.id]);
  const [event] = (await ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at) VALUES ($1, 'online', 'offline', $2, now()) RETURNING id`,
    [monitorId, incident!.id],
  )) as { id: string }[];
  const connection = createRedisConnection(config.redis.url, 'test-downtime');
  const queue = openQueue(QueueName.statusChanges, { connection, prefix: config.redis.queuePrefix });
  try {
    await enqueue(queue, JOBS.statusChanged, { eventId: String(event!.id), monitorId, from: 'online', to: 'offline', incidentId: incident!.id });
  } finally {
    await queue.close();
    await connection.quit();
  }
  return incident!.id;
}
