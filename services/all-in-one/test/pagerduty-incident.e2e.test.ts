import { successOf } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { createRedisConnection, enqueue, JOBS, openQueue, QueueName, type StatusChangedJob } from '@uptime/queues';
import { aCaller, aMonitor, FAKE_PAGERDUTY_ROUTING_KEY, startFakePagerDuty, waitFor, type FakePagerDuty } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(120_000);

/**
 * A PagerDuty channel follows one downtime through its life (docs/channels.md, "PagerDuty"):
 * trigger on down, acknowledge when the notification is acknowledged here, resolve on recovery,
 * all under one dedup_key; api and notifier in one process, PagerDuty a local fake.
 */
describe('PagerDuty: one incident per downtime', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let pagerduty: FakePagerDuty;

  beforeAll(async () => {
    pagerduty = await startFakePagerDuty();
    stack = await startInProcessStack({ checkWorker: false, env: { PAGERDUTY_EVENTS_URL: pagerduty.url } });
    ds = stack.ds;
  });

  afterAll(async () => {
    await stack?.close();
    await pagerduty?.close();
  });

  /** Queues a status event as the check-worker publishes it. */
  async function publish(data: Omit<StatusChangedJob, 'eventId'>): Promise<void> {
    const [event] = (await ds.query(
      `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at) VALUES ($1, $2, $3, $4, now()) RETURNING id`,
      [data.monitorId, data.from, data.to, data.incidentId],
    )) as { id: string }[];
    const connection = createRedisConnection(stack.config.redis.url, 'pagerduty-e2e');
    const queue = openQueue(QueueName.statusChanges, { connection, prefix: stack.config.redis.queuePrefix });
    try {
      await enqueue(queue, JOBS.statusChanged, { ...data, eventId: String(event!.id) });
    } finally {
      await queue.close();
      await connection.quit();
    }
  }

  const actions = async (count: number, what: string) =>
    waitFor(() => (pagerduty.received.length >= count ? pagerduty.received.map((e) => [e.action, e.dedupKey]) : null), { what, timeoutMs: 20_000 });

  it('triggers on down, acknowledges on acknowledge, resolves on recovery, all with one dedup_key, once each', async () => {
    const { auth, user } = await aCaller(ds, { email: 'pd-owner@example.test' });
    const monitor = await aMonitor(ds, user, { name: 'Checkout', url: 'https://checkout.example.test/' });
    const client = await contractCheckedClient(stack.api.url, auth);
    const channel = successOf(
      await client.post('/api/v1/channels', { body: { name: 'On-call', type: 'pagerduty', config: { routing_key: FAKE_PAGERDUTY_ROUTING_KEY } } }),
    ).data;
    successOf(await client.put('/api/v1/monitors/{id}/alerts', { path: { id: monitor.id }, body: { email_enabled: false, channel_ids: [channel.id] } }));

    const [incident] = (await ds.query(
      `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error) VALUES ($1, now(), 503, 120, 'HTTP 503 Service Unavailable') RETURNING id`,
      [monitor.id],
    )) as { id: number }[];
    await ds.query(`UPDATE monitors SET status = 'offline', consecutive_failures = 1, open_incident_id = $2 WHERE id = $1`, [monitor.id, incident!.id]);
    await publish({ monitorId: monitor.id, from: 'online', to: 'offline', incidentId: incident!.id });
    const key = `uptime-alert-${incident!.id}`;
    expect(await actions(1, 'the trigger')).toEqual([['trigger', key]]);

    const [notification] = (await ds.query(`SELECT id FROM notifications WHERE incident_id = $1 AND type = 'downtime'`, [incident!.id])) as { id: number }[];
    for (let i = 0; i < 2; i += 1) successOf(await client.post('/api/v1/notifications/{id}/acknowledge', { path: { id: notification!.id } }));
    expect(await actions(2, 'the acknowledge')).toEqual([
      ['trigger', key],
      ['acknowledge', key],
    ]);
    expect(pagerduty.incidents.get(key)).toBe('acknowledged');

    await ds.query(`UPDATE incidents SET resolved_at = now(), duration = 60 WHERE id = $1`, [incident!.id]);
    await ds.query(`UPDATE monitors SET status = 'online', consecutive_failures = 0, open_incident_id = NULL WHERE id = $1`, [monitor.id]);
    await publish({ monitorId: monitor.id, from: 'offline', to: 'online', incidentId: incident!.id });
    expect(await actions(3, 'the resolve')).toEqual([
      ['trigger', key],
      ['acknowledge', key],
      ['resolve', key],
    ]);
    expect(pagerduty.incidents.get(key)).toBe('resolved');
    expect(pagerduty.refused).toEqual([]);

    // Each message once: the deliveries of the three phases, all sent, none sent twice.
    const { deliveries } = successOf(await client.get('/api/v1/notifications/{id}', { path: { id: notification!.id } })).data;
    expect(deliveries.map((d) => [d.channel, d.phase, d.status, d.attempts])).toEqual([
      ['pagerduty', 'opened', 'sent', 1],
      ['pagerduty', 'acknowledged', 'sent', 1],
    ]);
    await new Promise((r) => setTimeout(r, 500));
    expect(pagerduty.received).toHaveLength(3);
  });
});
