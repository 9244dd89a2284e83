import { UnrecoverableError, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { MONITOR_STATUSES } from '@uptime/db';
import { waitFor } from '@uptime/testing';
import {
  createQueueWorker,
  createRedisConnection,
  enqueue,
  enqueueBulk,
  JOBS,
  jobsOf,
  openQueue,
  parseJob,
  QueueName,
  StatusChangedJob,
  type CatalogQueue,
  type JobHandlers,
} from '../src';

const prefix = `${process.env.QUEUE_PREFIX ?? 'uptime_test'}_catalog`;
const handled = async (): Promise<string> => 'handled';

describe('queue catalog', () => {
  let connection: Redis;
  let statusChanges: CatalogQueue<typeof QueueName.statusChanges>;
  let blocking: Redis;
  let worker: Worker | undefined;

  beforeAll(() => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    connection = createRedisConnection(url, 'queue-catalog-test');
    // A worker's blocking reads get a connection of their own; BullMQ never closes one it is handed.
    blocking = createRedisConnection(url, 'queue-catalog-test-worker');
    statusChanges = openQueue(QueueName.statusChanges, { connection, prefix });
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await statusChanges.obliterate({ force: true });
  });
  afterAll(async () => {
    await statusChanges.close();
    await blocking.quit();
    await connection.quit();
  });

  it('keeps the queue names, job names and job ids that deployed workers and stored jobs depend on', () => {
    expect(Object.values(JOBS).map((job) => [job.queue, job.name])).toEqual([
      ['checks', 'run-check'],
      ['checks', 'heartbeat-ping'],
      ['status-changes', 'status-changed'],
      ['status-changes', 'alert-test'],
      ['status-changes', 'invitation-email'],
      ['status-changes', 'channel-test'],
      ['status-changes', 'status-page-event'],
      ['status-changes', 'subscription-confirmation'],
    ]);
    expect(JOBS.statusPageEvent.jobId?.({ eventId: 42 })).toBe('page-event-42');
    expect(JOBS.statusChanged.jobId?.({ eventId: '42', monitorId: 7, from: 'online', to: 'offline' })).toBe('status-event-42');
    expect(JOBS.runCheck.jobId?.({ monitorId: 7, configVersion: 1, check: { url: 'https://example.test', timeout: 30 } })).toMatch(
      /^now-7-\d{13}$/,
    );
    expect(JOBS.heartbeatPing.jobId?.({ monitorId: 7, pingId: '1234' })).toBe('hb-7-1234');
    expect(JOBS.alertTest.jobId).toBeUndefined();
    expect(jobsOf(QueueName.statusChanges).map((job) => job.name)).toEqual([
      'status-changed',
      'alert-test',
      'invitation-email',
      'channel-test',
      'status-page-event',
      'subscription-confirmation',
    ]);
  });

  it('queues a job with the id, retries and retention of its catalog entry', async () => {
    const job = await enqueue(statusChanges, JOBS.statusChanged, {
      eventId: '9',
      monitorId: 3,
      from: 'online',
      to: 'offline',
      incidentId: 5,
    });

    const stored = await statusChanges.getJob('status-event-9');
    expect(job.id).toBe('status-event-9');
    expect(stored?.name).toBe('status-changed');
    expect(stored?.data).toEqual({ eventId: '9', monitorId: 3, from: 'online', to: 'offline', incidentId: 5 });
    expect(stored?.opts).toMatchObject({
      attempts: 10,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 86_400 },
      removeOnFail: { age: 604_800 },
    });
  });

  it('queues a re-published event once: the job id comes from the event', async () => {
    const event = { eventId: '11', monitorId: 3, from: 'offline' as const, to: 'online' as const };
    await enqueueBulk(statusChanges, JOBS.statusChanged, [event, event]);
    await enqueue(statusChanges, JOBS.statusChanged, event);

    expect(await statusChanges.getJobCountByTypes('waiting')).toBe(1);
  });

  it('refuses a job that belongs to another queue', () => {
    const checks = statusChanges as unknown as CatalogQueue<typeof QueueName.checks>;
    expect(() =>
      enqueue(checks, JOBS.runCheck, { monitorId: 1, configVersion: 1, check: { url: 'https://example.test', timeout: 30 } }),
    ).toThrow('job "run-check" belongs to queue checks, not status-changes');
  });

  it('refuses to start a worker that lacks a handler for a job of its queue', () => {
    const incomplete = { [JOBS.statusChanged.name]: handled } as unknown as JobHandlers<typeof QueueName.statusChanges>;
    expect(() => createQueueWorker(QueueName.statusChanges, incomplete, { connection, prefix, autorun: false })).toThrow(
      'worker of queue status-changes has no handler for job "alert-test", "invitation-email", "channel-test", "status-page-event", "subscription-confirmation"',
    );
  });

  it('refuses to start a worker with a handler for a job its queue does not carry', () => {
    const extra = {
      'status-changed': handled,
      'alert-test': handled,
      'invitation-email': handled,
      'channel-test': handled,
      'status-page-event': handled,
      'subscription-confirmation': handled,
      'run-check': handled,
    } as unknown as JobHandlers<
      typeof QueueName.statusChanges
    >;
    expect(() => createQueueWorker(QueueName.statusChanges, extra, { connection, prefix, autorun: false })).toThrow(
      'worker of queue status-changes has handlers for jobs not on it: run-check',
    );
  });

  it('hands each job to the handler of its name and fails an unknown name at once, without retries', async () => {
    const seen: string[] = [];
    worker = createQueueWorker(
      QueueName.statusChanges,
      {
        'status-changed': async (job) => void seen.push(`${job.name}:${job.id}`),
        'alert-test': async () => ({ deliveries: [] }),
        'invitation-email': async () => undefined,
        'channel-test': async () => ({ deliveries: [] }),
        'status-page-event': async () => undefined,
        'subscription-confirmation': async () => undefined,
      },
      { connection: blocking, prefix },
    );
    const test = await enqueue(statusChanges, JOBS.alertTest, { monitorId: 4 });
    await enqueue(statusChanges, JOBS.statusChanged, { eventId: '12', monitorId: 4, from: 'online', to: 'offline' });
    await statusChanges.add('status-exploded', { eventId: '1' }, { jobId: 'unknown-1', attempts: 3 });

    await waitFor(async () => (await statusChanges.getJobState('unknown-1')) === 'failed', {
      what: 'the unknown job to fail',
      timeoutMs: 5000,
    });
    await waitFor(async () => (await statusChanges.getJobState('status-event-12')) === 'completed', {
      what: 'the event job',
      timeoutMs: 5000,
    });
    await waitFor(async () => (await statusChanges.getJobState(test.id!)) === 'completed', { what: 'the alert test job', timeoutMs: 5000 });
    const unknown = await statusChanges.getJob('unknown-1');
    expect(unknown?.failedReason).toBe('no handler for job "status-exploded" on queue status-changes');
    expect(unknown?.attemptsMade).toBe(1);
    expect(seen).toEqual(['status-changed:status-event-12']);
    expect((await statusChanges.getJob(test.id!))?.returnvalue).toEqual({ deliveries: [] });
  });

  it('validates a status change against the monitor statuses of the database', () => {
    for (const status of MONITOR_STATUSES) {
      expect(parseJob(StatusChangedJob, { eventId: '1', monitorId: 1, from: 'pending', to: status }).to).toBe(status);
    }
    expect(() => parseJob(StatusChangedJob, { eventId: '1', monitorId: 1, from: 'pending', to: 'down' })).toThrow(UnrecoverableError);
  });
});
