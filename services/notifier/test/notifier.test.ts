import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisConnection, JobName, QueueName } from '@uptime/queues';
import { waitFor } from '@uptime/testing';
import type { EmailChannel } from '../src/channels/email-channel';
import { EmailSendError } from '../src/channels/email-channel';
import { startNotifier, type Notifier } from '../src/notifier';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('notifier worker', () => {
  const bed = useTestbed();
  let connection: Redis;
  let queue: Queue;
  let notifier: Notifier | undefined;

  beforeAll(() => {
    connection = createRedisConnection(bed.config.redis.url, 'notifier-test');
    queue = new Queue(QueueName.statusChanges, { connection, prefix: bed.config.redis.queuePrefix });
  });
  afterEach(async () => {
    await notifier?.close();
    notifier = undefined;
    await queue.obliterate({ force: true });
  });
  afterAll(async () => {
    await queue.close();
    await connection.quit();
  });

  const jobState = async (id: string) => (await queue.getJob(id))?.getState();

  it('consumes a status-changed job published by the check-worker and emails the downtime', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    notifier = await startNotifier({ config: bed.config, dataSource: bed.ds, logger: bed.logger });

    await queue.add(JobName.statusChanged, down.offline.data, { jobId: down.offline.id, attempts: 3 });

    await waitFor(async () => (await jobState(down.offline.id)) === 'completed', { timeoutMs: 5000, what: 'the job to complete' });
    expect(bed.sendgrid.mails).toEqual([expect.objectContaining({ to: 'owner@example.test', subject: '[DOWN] Shop is down' })]);
    expect(await notificationsOf(bed.ds, down.incident.id)).toEqual([expect.objectContaining({ type: 'downtime', status: 'active' })]);
  });

  it('retries a job whose email failed transiently until it is sent', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const sendGrid = bed.sendGridAt(bed.sendgrid);
    let calls = 0;
    const flaky: EmailChannel = {
      send: async (mail) => {
        calls += 1;
        if (calls === 1) throw new EmailSendError('connection reset', false);
        await sendGrid.send(mail);
      },
    };
    notifier = await startNotifier({ config: bed.config, dataSource: bed.ds, logger: bed.logger, connection, emailChannel: flaky });

    await queue.add(JobName.statusChanged, down.offline.data, { jobId: down.offline.id, attempts: 3, backoff: { type: 'fixed', delay: 50 } });

    await waitFor(async () => (await jobState(down.offline.id)) === 'completed', { timeoutMs: 5000, what: 'the job to complete' });
    expect((await queue.getJob(down.offline.id))?.attemptsMade).toBe(2);
    expect(bed.sendgrid.mails).toHaveLength(1);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
  });

  it('fails a job it has no handler for without retrying it', async () => {
    notifier = await startNotifier({ config: bed.config, dataSource: bed.ds, logger: bed.logger, connection });

    await queue.add('status-exploded', { eventId: '1' }, { jobId: 'unknown-1', attempts: 3 });

    await waitFor(async () => (await jobState('unknown-1')) === 'failed', { timeoutMs: 5000, what: 'the job to fail' });
    const job = await queue.getJob('unknown-1');
    expect(job?.failedReason).toBe('no handler for job "status-exploded" on queue status-changes');
    expect(job?.attemptsMade).toBe(1);
  });

  it('finishes the job in flight before close() resolves', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const sendGrid = bed.sendGridAt(bed.sendgrid);
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const slow: EmailChannel = {
      send: async (mail) => {
        markStarted();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sendGrid.send(mail);
      },
    };
    const running = await startNotifier({ config: bed.config, dataSource: bed.ds, logger: bed.logger, connection, emailChannel: slow });
    await queue.add(JobName.statusChanged, down.offline.data, { jobId: down.offline.id });
    await started;

    await running.close();

    expect(bed.sendgrid.mails).toHaveLength(1);
    expect(await jobState(down.offline.id)).toBe('completed');
    expect(connection.status).toBe('ready'); // a shared connection stays open
  });
});
