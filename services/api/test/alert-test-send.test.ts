import { Queue } from 'bullmq';
import request from 'supertest';
import { QueueName } from '@uptime/queues';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

jest.setTimeout(40_000);

const h = useApiHarness();

describe('POST /monitors/:id/alerts/test without a notifier', () => {
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
});
