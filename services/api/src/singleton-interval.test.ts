import type { Redis } from 'ioredis';
import { createLogger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import { resetRedis } from '@uptime/testing';
import { startSingletonInterval, type SingletonInterval } from './singleton-interval';

const logger = createLogger({ level: 'silent', service: 'test' });

describe('startSingletonInterval', () => {
  let redis: Redis;
  const prefix = `${process.env.QUEUE_PREFIX}:singleton-test`;
  const started: SingletonInterval<unknown>[] = [];

  beforeAll(() => {
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  beforeEach(() => resetRedis(prefix));
  afterEach(() => {
    for (const s of started.splice(0)) s.stop();
  });
  afterAll(() => redis.quit());

  it('runs a round on one instance only while the lock is held, and at once on start', async () => {
    const runs: string[] = [];
    const start = (name: string): SingletonInterval<string> => {
      const s = startSingletonInterval({ redis, lockKey: `${prefix}:lock`, intervalMs: 60_000, logger, failure: 'failed', run: async () => (runs.push(name), name) });
      started.push(s);
      return s;
    };
    const a = start('a');
    await new Promise((r) => setTimeout(r, 100));
    const b = start('b');
    await new Promise((r) => setTimeout(r, 100));
    expect(runs).toEqual(['a']);
    expect(await b.runOnce()).toBeNull();
    expect(await a.runOnce()).toBeNull();
    await redis.del(`${prefix}:lock`);
    expect(await b.runOnce()).toBe('b');
    expect(runs).toEqual(['a', 'b']);
  });

  it('logs a failed round and runs again the next one', async () => {
    let calls = 0;
    const warnings: unknown[] = [];
    const s = startSingletonInterval({
      redis,
      lockKey: `${prefix}:flaky`,
      // The lock is held at least 5 s: the test frees it between rounds.
      intervalMs: 200,
      logger: { ...logger, warn: (obj: unknown) => warnings.push(obj) } as unknown as typeof logger,
      failure: 'failed; retrying',
      run: async () => {
        calls += 1;
        await redis.del(`${prefix}:flaky`);
        if (calls === 1) throw new Error('boom');
        return calls;
      },
    });
    started.push(s);
    await new Promise((r) => setTimeout(r, 500));
    expect(warnings).toHaveLength(1);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
