import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisConnection, JobName, QueueName } from '@uptime/queues';
import { freePort, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

jest.setTimeout(90_000);

/** The promise of docs/reliability.md: a notifier killed at any point delays an email by at most this. */
const MAX_DELAY_MS = 30_000;
/**
 * The production lease (the send timeout + 10 s: 20 s) scaled down, as the check-worker's fault
 * test scales its lock (DELIVERY_LEASE_MS, docs/configuration.md): the restarted notifier's sweep
 * (every 5 s) takes the email over 3 s after the kill instead of 20 s, by the same code path.
 */
const LEASE_MS = 3_000;

describe('a notifier killed with SIGKILL while SendGrid holds its request open', () => {
  const bed = useTestbed();
  let connection: Redis;
  let queue: Queue;
  const processes: ServiceProcess[] = [];

  beforeAll(() => {
    connection = createRedisConnection(bed.config.redis.url, 'notifier-kill-test');
    queue = new Queue(QueueName.statusChanges, { connection, prefix: bed.config.redis.queuePrefix });
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
  });

  const startNotifierProcess = async (): Promise<ServiceProcess> => {
    const notifier = startServiceProcess('notifier', {
      SENDGRID_API_KEY: bed.sendgrid.apiKey,
      SENDGRID_API_URL: bed.sendgrid.url,
      HEALTH_PORT: String(await freePort()),
      DELIVERY_LEASE_MS: String(LEASE_MS),
      LOG_LEVEL: 'info',
    });
    processes.push(notifier);
    await waitFor(() => notifier.logs.some((l) => l.msg === 'notifier started'), { timeoutMs: 30_000, what: 'the notifier to start' });
    return notifier;
  };

  it('loses no email: a restarted notifier sends it again within 30 s, marked as a possible duplicate', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    bed.sendgrid.setMode({ kind: 'hang' });
    const first = await startNotifierProcess();

    await queue.add(JobName.statusChanged, down.offline.data, { jobId: down.offline.id, attempts: 10, backoff: { type: 'exponential', delay: 1000 } });
    await waitFor(() => bed.sendgrid.openRequests === 1, { timeoutMs: 20_000, what: 'SendGrid to hold the request' });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const killedAt = Date.now();
    bed.sendgrid.setMode({ kind: 'accept' });

    await startNotifierProcess();
    const [sent] = await waitFor(
      async () => {
        const rows = await deliveriesOf(bed.ds, down.incident.id);
        return rows[0]?.status === 'sent' ? rows : null;
      },
      { timeoutMs: MAX_DELAY_MS + 5_000, intervalMs: 250, what: 'the email to be sent again' },
    );

    expect(sent.sent_at!.getTime() - killedAt).toBeLessThanOrEqual(MAX_DELAY_MS);
    expect(sent).toMatchObject({ attempts: 2, possible_duplicate: true, recipient: 'owner@example.test' });
    // The held request and the one sent again: SendGrid may deliver both, and the record says so.
    expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['owner@example.test', 'owner@example.test']);
    expect((await notificationsOf(bed.ds, down.incident.id))[0].email_sent_at).toBeInstanceOf(Date);
  });
});
