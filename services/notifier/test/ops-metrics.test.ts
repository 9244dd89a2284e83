import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createServiceMetrics, type ServiceMetrics } from '@uptime/observability';
import { createRedisConnection, JobName, QueueName } from '@uptime/queues';
import { answer, metricValue, waitFor } from '@uptime/testing';
import { startNotifier, type Notifier } from '../src/notifier';
import { aMonitorThatWentDown, deliveriesOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('notifier metrics', () => {
  const bed = useTestbed();
  let connection: Redis;
  let queue: Queue;
  let metrics: ServiceMetrics;
  let notifier: Notifier;

  beforeAll(async () => {
    connection = createRedisConnection(bed.config.redis.url, 'notifier-metrics-test');
    queue = new Queue(QueueName.statusChanges, { connection, prefix: bed.config.redis.queuePrefix });
    metrics = createServiceMetrics();
    notifier = await startNotifier({
      config: bed.config,
      dataSource: bed.ds,
      logger: bed.logger,
      emailChannel: bed.sendGridAt(bed.sendgrid),
      metrics,
    });
  });
  afterAll(async () => {
    await notifier?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    await connection?.quit();
  });

  const completed = async (jobId: string): Promise<boolean> => (await (await queue.getJob(jobId))?.getState()) === 'completed';

  it('counts notifications created and emails sent or refused', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    await queue.add(JobName.statusChanged, down.offline.data, { jobId: down.offline.id });
    await waitFor(() => completed(down.offline.id), { what: 'the downtime job' });
    // A redelivered event creates nothing and sends nothing: the counters say so too.
    await queue.add(JobName.statusChanged, down.offline.data, { jobId: `${down.offline.id}-again` });
    await waitFor(() => completed(`${down.offline.id}-again`), { what: 'the redelivered job' });

    let text = await metrics.render();
    expect(metricValue(text, 'notifications_created_total', { type: 'downtime' })).toBe(1);
    expect(metricValue(text, 'emails_sent_total')).toBe(1);
    expect(bed.sendgrid.mails).toHaveLength(1);

    const up = await theMonitorRecovers(bed.ds, down);
    await queue.add(JobName.statusChanged, up.data, { jobId: up.id });
    await waitFor(() => completed(up.id), { what: 'the recovery job' });
    text = await metrics.render();
    expect(metricValue(text, 'notifications_created_total', { type: 'recovery' })).toBe(1);
    expect(metricValue(text, 'emails_sent_total')).toBe(2);

    // SendGrid refuses the address: a permanent failure, counted once and not retried.
    bed.sendgrid.server.respond(
      answer(400, JSON.stringify({ errors: [{ message: 'Does not contain a valid address.' }] }), { 'content-type': 'application/json' }),
    );
    const refused = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['not-an-address'] } });
    await queue.add(JobName.statusChanged, refused.offline.data, { jobId: refused.offline.id });
    await waitFor(() => completed(refused.offline.id), { what: 'the refused job' });
    expect(await deliveriesOf(bed.ds, refused.incident.id)).toEqual([expect.objectContaining({ status: 'failed' })]);
    text = await metrics.render();
    expect(metricValue(text, 'emails_failed_total', { reason: 'permanent' })).toBe(1);
    expect(metricValue(text, 'emails_sent_total')).toBe(2);
    expect(metricValue(text, 'notifications_created_total', { type: 'downtime' })).toBe(2);
    expect(metricValue(text, 'queue_jobs', { queue: 'status-changes', state: 'waiting' })).toBe(0);
  });
});
