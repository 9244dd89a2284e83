import type { Job } from 'bullmq';
import { createLogger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import { runProbe } from '@uptime/probe';
import { aCheckConfig, answer, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import type { Redis } from 'ioredis';
import { CheckLock } from '../src/check-lock';
import { createRunCheckProcessor, plannedTimeOf } from '../src/run-check.processor';
import type { CheckOutcome } from '../src/check-outcome';

const logger = createLogger({ level: 'silent', service: 'test' });


function aJob(id: string, data: unknown): Job {
  return { id, data, timestamp: Date.now(), opts: {} } as unknown as Job;
}

describe('run-check processor', () => {
  let redis: Redis;
  let target: FakeHttpServer;
  beforeAll(async () => {
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    target = await startFakeHttpServer(answer(503, 'down'));
  });
  afterAll(async () => {
    await target.close();
    await redis.quit();
  });

  const prefix = `${process.env.QUEUE_PREFIX}:processor-test`;

  it('reads the planned time from scheduler and one-off job ids', () => {
    expect(plannedTimeOf({ id: 'repeat:monitor-5:1795000000123', timestamp: 1, opts: {} }).getTime()).toBe(1795000000123);
    expect(plannedTimeOf({ id: 'now-5-1795000000456', timestamp: 1, opts: {} }).getTime()).toBe(1795000000456);
    expect(plannedTimeOf({ id: 'custom', timestamp: 1000, opts: { delay: 500 } }).getTime()).toBe(1500);
  });

  it('probes with the job configuration and records the failure of the target', async () => {
    const recorded: CheckOutcome[] = [];
    const run = createRunCheckProcessor({
      probe: runProbe,
      probeOptions: { allowPrivateTargets: true },
      lock: new CheckLock(redis, prefix),
      record: async (o) => {
        recorded.push(o);
      },
      logger,
    });
    await expect(run(aJob('now-41-1795000000000', { monitorId: 41, configVersion: 3, check: aCheckConfig(target.url) }))).resolves.toBe('recorded');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ monitorId: 41, configVersion: 3, result: { ok: false, statusCode: 503 } });
    expect(recorded[0]!.scheduledAt.getTime()).toBe(1795000000000);
  });

  it('skips a check while another check of the same monitor holds the lock', async () => {
    const lock = new CheckLock(redis, prefix);
    const release = await lock.acquire(42);
    expect(release).toEqual(expect.any(Function));
    const record = jest.fn(async () => undefined);
    const run = createRunCheckProcessor({ probe: runProbe, probeOptions: { allowPrivateTargets: true }, lock, record, logger });
    await expect(run(aJob('now-42-1795000000000', { monitorId: 42, configVersion: 1, check: aCheckConfig(target.url) }))).resolves.toBe('skipped');
    expect(record).not.toHaveBeenCalled();
    await release!();
    await expect(run(aJob('now-42-1795000001000', { monitorId: 42, configVersion: 1, check: aCheckConfig(target.url) }))).resolves.toBe('recorded');
  });

  it('keeps a short lock alive while its owner runs, and lets it lapse by itself otherwise', async () => {
    const lock = new CheckLock(redis, prefix, 300);
    const release = await lock.acquire(45);
    // Three lifetimes later the owner's renewals still hold it.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(await lock.acquire(45)).toBeNull();
    expect(Number(await redis.pttl(`${prefix}:check-lock:45`))).toBeGreaterThan(0);
    await release!();
    expect(await redis.exists(`${prefix}:check-lock:45`)).toBe(0);
    // A lock nobody renews (its owner was killed) is gone within its lifetime.
    await redis.set(`${prefix}:check-lock:46`, 'dead-owner', 'PX', 300);
    expect(await lock.acquire(46)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const next = await lock.acquire(46);
    expect(next).toEqual(expect.any(Function));
    await next!();
  });

  it('fails the job, recording nothing, when writing the result fails on our side', async () => {
    const run = createRunCheckProcessor({
      probe: runProbe,
      probeOptions: { allowPrivateTargets: true },
      lock: new CheckLock(redis, prefix),
      record: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
      logger,
    });
    await expect(run(aJob('now-43-1795000000000', { monitorId: 43, configVersion: 1, check: aCheckConfig(target.url) }))).rejects.toThrow('ECONNREFUSED');
    // The lock was released: the next check is not skipped.
    expect(await redis.exists(`${prefix}:check-lock:43`)).toBe(0);
  });

  it('refuses a malformed payload without probing', async () => {
    const probe = jest.fn(runProbe);
    const run = createRunCheckProcessor({ probe, probeOptions: { allowPrivateTargets: true }, lock: new CheckLock(redis, prefix), record: jest.fn(), logger });
    const before = target.requests.length;
    await expect(run(aJob('now-44-1', { monitorId: 'x' }))).rejects.toThrow(/invalid RunCheckJob payload/);
    expect(probe).not.toHaveBeenCalled();
    expect(target.requests.length).toBe(before);
  });
});
