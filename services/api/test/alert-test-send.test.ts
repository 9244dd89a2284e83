import { Queue } from 'bullmq';
import request from 'supertest';
import { createQueueWorker, createRedisConnection, JobName, QueueName, type AlertTestResult } from '@uptime/queues';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

jest.setTimeout(40_000);

const h = useApiHarness();

describe('POST /monitors/:id/alerts/test without a notifier, or with one that has not finished', () => {
  it("answers 404 for another user's monitor", async () => {
    const { user } = await aCaller(h.ds);
    const { auth: otherAuth } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user);

    const res = await request(h.app).post(`/api/v1/monitors/${m.id}/alerts/test`).set('Authorization', otherAuth);

    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('MONITOR_NOT_FOUND');
  });

  it('answers 503 after 15 s when no notifier took the test, and withdraws it so nothing is sent later', async () => {
    const { auth, user } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user);
    const queue = new Queue(QueueName.statusChanges, { connection: h.redis, prefix: h.config.redis.queuePrefix });
    try {
      const started = Date.now();
      const res = await request(h.app).post(`/api/v1/monitors/${m.id}/alerts/test`).set('Authorization', auth);

      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(Date.now() - started).toBeGreaterThanOrEqual(15_000);
      expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
    } finally {
      await queue.close();
    }
  });

  it('answers 200 after 15 s with the deliveries as they stand when a notifier took the test and has not finished', async () => {
    const { auth, user } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user);
    const asTheyStand: AlertTestResult = {
      deliveries: [
        {
          channel: 'email',
          recipient: 'owner@example.test',
          status: 'sent',
          attempts: 1,
          last_attempt_at: '2026-11-27T10:00:00.000Z',
          sent_at: '2026-11-27T10:00:00.200Z',
          error: null,
        },
        {
          channel: 'webhook',
          recipient: 'https://hooks.example.test/uptime',
          status: 'pending',
          attempts: 0,
          last_attempt_at: null,
          sent_at: null,
          error: null,
        },
      ],
    };
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const connection = createRedisConnection(h.config.redis.url, 'alert-test-slow-notifier');
    // A stand-in for a notifier that took the test, sent the email, and still waits on the webhook.
    const slowNotifier = createQueueWorker(
      QueueName.statusChanges,
      {
        [JobName.statusChanged]: () => Promise.reject(new Error('no status change is queued in this test')),
        [JobName.invitationEmail]: () => Promise.reject(new Error('no invitation is sent in this test')),
        [JobName.channelTest]: () => Promise.reject(new Error('no channel is tested in this test')),
        [JobName.statusPageEvent]: () => Promise.reject(new Error('no status page event is queued in this test')),
        [JobName.subscriptionConfirmation]: () => Promise.reject(new Error('no subscription is asked for in this test')),
        [JobName.alertTest]: async (job) => {
          await job.updateProgress(asTheyStand);
          await released;
          return { deliveries: [] };
        },
      },
      { connection, prefix: h.config.redis.queuePrefix },
    );
    try {
      const res = await request(h.app).post(`/api/v1/monitors/${m.id}/alerts/test`).set('Authorization', auth);

      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(asTheyStand);
    } finally {
      release();
      await slowNotifier.close();
      await connection.quit();
    }
  });
});
