import request from 'supertest';
import { scheduleOffsetMs } from '@uptime/queues';
import { aCaller, resetRedis } from '@uptime/testing';
import { reconcileSchedules } from '../src/schedule-reconciler';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

async function createMonitor(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await request(h.app)
    .post('/api/v1/monitors')
    .set('Authorization', auth)
    .send({ name: 'm', url: 'https://m.example/', type: 'http', ...extra });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const schedulerOf = (id: number) => h.scheduler.scheduleOf(id);

describe('reconcileSchedules', () => {
  it('brings back the schedules of active monitors after Redis was wiped', async () => {
    const a = await createMonitor({ check_interval: 60 });
    const b = await createMonitor({ check_interval: 120, expected_content: 'ok' });
    const expectedB = (await schedulerOf(b))?.template;
    await resetRedis(h.config.redis.queuePrefix);
    expect((await h.scheduler.scheduledVersions()).size).toBe(0);

    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 2, updated: 0, removed: 0, moved: 0 });
    const versions = await h.scheduler.scheduledVersions();
    expect(new Map(versions)).toEqual(
      new Map([
        [a, '1:60'],
        [b, '1:120'],
      ]),
    );
    expect((await schedulerOf(a))?.every).toBe(60_000);
    const restored = await schedulerOf(b);
    expect(restored?.every).toBe(120_000);
    expect(restored?.template).toEqual(expectedB);
  });

  it('changes nothing when Redis already agrees', async () => {
    await createMonitor();
    await createMonitor();
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 0, removed: 0, moved: 0 });
  });

  it('removes the schedule of a paused monitor', async () => {
    const active = await createMonitor();
    const paused = await createMonitor();
    await h.ds.query(`UPDATE monitors SET status = 'paused', paused_at = now() WHERE id = $1`, [paused]);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 0, removed: 1, moved: 0 });
    expect([...(await h.scheduler.scheduledVersions()).keys()]).toEqual([active]);
    expect(await schedulerOf(paused)).toBeUndefined();
    expect(await schedulerOf(active)).toMatchObject({ jobId: expect.stringMatching(new RegExp(`^m-${active}-`)) });
  });

  it('does not bring back a paused monitor after Redis was wiped', async () => {
    const paused = await createMonitor();
    await h.ds.query(`UPDATE monitors SET status = 'paused' WHERE id = $1`, [paused]);
    await resetRedis(h.config.redis.queuePrefix);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 0, removed: 0, moved: 0 });
    expect(await schedulerOf(paused)).toBeUndefined();
  });

  it('removes the schedule of a monitor deleted behind its back', async () => {
    const kept = await createMonitor();
    const gone = await createMonitor();
    await h.ds.query('DELETE FROM monitors WHERE id = $1', [gone]);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 0, removed: 1, moved: 0 });
    expect([...(await h.scheduler.scheduledVersions()).keys()]).toEqual([kept]);
    expect(await schedulerOf(gone)).toBeUndefined();
  });

  it('rewrites a schedule built from a stale config version', async () => {
    const id = await createMonitor({ check_interval: 300 });
    await h.ds.query(`UPDATE monitors SET config_version = 5, url = 'https://moved.example/', check_interval = 90 WHERE id = $1`, [id]);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 1, removed: 0, moved: 0 });
    expect((await h.scheduler.scheduledVersions()).get(id)).toBe('5:90');
    const scheduler = await schedulerOf(id);
    expect(scheduler?.every).toBe(90_000);
    expect(scheduler?.template).toMatchObject({ monitorId: id, configVersion: 5, check: { url: 'https://moved.example/' } });
  });

  it('gives a monitor a new job when its schedule entry is missing', async () => {
    const id = await createMonitor();
    const orphan = await schedulerOf(id);
    await h.redis.hdel(h.scheduler.entriesKey, String(id));
    expect((await h.scheduler.scheduledVersions()).has(id)).toBe(false);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 1, updated: 0, removed: 0, moved: 0 });
    expect((await h.scheduler.scheduledVersions()).get(id)).toBe('1:300');
    // The job no entry names is left to end itself after its next check (monitor-job-cycle.ts).
    expect((await schedulerOf(id))?.jobId).not.toBe(orphan?.jobId);
  });

  it('gives a monitor a new job when its job is gone or failed', async () => {
    const gone = await createMonitor();
    const failed = await createMonitor();
    await h.scheduler.queue.remove((await schedulerOf(gone))!.jobId);
    await h.redis.hset(h.scheduler.queue.toKey((await schedulerOf(failed))!.jobId), 'finishedOn', Date.now());
    expect([...(await h.scheduler.scheduledVersions()).keys()]).toEqual([]);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 2, updated: 0, removed: 0, moved: 0 });
    expect(await schedulerOf(gone)).toMatchObject({ every: 300_000 });
    expect(await schedulerOf(failed)).toMatchObject({ every: 300_000 });
  });

  it('replaces the job schedulers an earlier version made with jobs of their own', async () => {
    const id = await createMonitor({ check_interval: 60 });
    // What an earlier version left: a job scheduler and an entry holding the version alone.
    await h.scheduler.unschedule(id);
    await h.scheduler.queue.upsertJobScheduler(`monitor-${id}`, { every: 60_000, startDate: Date.now() + 60_000 }, { name: 'run-check', data: { monitorId: id, configVersion: 1, check: {} } });
    await h.redis.hset(h.scheduler.entriesKey, String(id), '1:60');
    expect(await h.scheduler.queue.getJobSchedulersCount()).toBe(1);

    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 1, updated: 0, removed: 0, moved: 0 });
    expect(await h.scheduler.queue.getJobSchedulersCount()).toBe(0);
    expect((await h.scheduler.queue.getJobs(['delayed', 'waiting'])).filter((j) => j.id?.startsWith('repeat:'))).toEqual([]);
    expect(await schedulerOf(id)).toMatchObject({ every: 60_000, template: { monitorId: id, configVersion: 1 } });
  });
});

describe('scheduleOffsetMs', () => {
  it('spreads 10,000 monitors over a 60 s interval with no second holding more than 2.5%', () => {
    const intervalMs = 60_000;
    const perSecond = new Array<number>(60).fill(0);
    for (let id = 1; id <= 10_000; id += 1) {
      const offset = scheduleOffsetMs(id, intervalMs);
      expect(Number.isInteger(offset)).toBe(true);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(intervalMs);
      perSecond[Math.floor(offset / 1000)] += 1;
    }
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(250);
    expect(Math.min(...perSecond)).toBeGreaterThan(0);
  });

  it('is stable for an id and differs between neighbours', () => {
    expect(scheduleOffsetMs(42, 30_000)).toBe(scheduleOffsetMs(42, 30_000));
    expect(scheduleOffsetMs(42, 30_000)).not.toBe(scheduleOffsetMs(43, 30_000));
  });
});
