import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createLogger } from '@uptime/logger';
import { createServiceMetrics } from '@uptime/observability';
import { createRedisConnection, readCheckStats } from '@uptime/queues';
import { metricValue, resetRedis, testConfig, waitFor } from '@uptime/testing';
import { startCheckLagReporter, type CheckLagReporter } from '../src/check-lag';

/** A job as BullMQ hands it to the processor: scheduled ones carry their scheduler's `every`. */
const aJob = (plannedAt: number, { everyMs, attemptsMade = 0 }: { everyMs?: number; attemptsMade?: number } = {}): Job =>
  ({
    id: everyMs ? `repeat:monitor-1:${plannedAt}` : `now-1-${plannedAt}`,
    timestamp: plannedAt,
    attemptsMade,
    opts: everyMs ? { repeat: { every: everyMs } } : {},
  }) as unknown as Job;

describe('check lag reporter', () => {
  const config = testConfig();
  const prefix = config.redis.queuePrefix;
  const logger = createLogger({ level: config.logLevel, service: 'check-lag-test' });
  let redis: Redis;
  let reporter: CheckLagReporter | undefined;

  beforeAll(async () => {
    await resetRedis();
    redis = createRedisConnection(config.redis.url, 'check-lag-test');
  });
  afterEach(async () => {
    await reporter?.stop();
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('publishes late checks, warns once a minute, and withdraws its figures when stopped', async () => {
    const warn = jest.spyOn(logger, 'warn');
    const metrics = createServiceMetrics();
    reporter = startCheckLagReporter({ metrics, redis, prefix, logger, publishEveryMs: 30 });
    const now = Date.now();
    // 5 s late on a 2 s interval; the retry is late by design and is left out.
    for (let i = 0; i < 10; i++) reporter.observe(aJob(now - 5_000, { everyMs: 2_000 }), now);
    reporter.observe(aJob(now - 600_000, { everyMs: 2_000, attemptsMade: 1 }), now);

    const stats = await waitFor(async () => {
      const s = await readCheckStats(redis, prefix);
      return s.late ? s : null;
    });
    expect(stats.workers).toBe(1);
    expect(stats.lagP99Seconds).toBeGreaterThanOrEqual(5);
    expect(stats.lagP99Seconds).toBeLessThan(5.5);
    expect(metricValue(await metrics.registry.metrics(), 'uptime_check_lag_seconds_count')).toBe(10);

    // Five more publications later (each one re-reads the late window), still one warning.
    const seenAt = new Set<string>();
    await waitFor(async () => {
      seenAt.add((await redis.hvals(`${prefix}:check-stats`)).join());
      return seenAt.size >= 6;
    }, { intervalMs: 20 });
    const lateWarnings = warn.mock.calls.filter(([, msg]) => typeof msg === 'string' && msg.startsWith('checks are running late'));
    expect(lateWarnings).toHaveLength(1);
    expect(lateWarnings[0][0]).toMatchObject({ lag_p99_seconds: stats.lagP99Seconds });

    await reporter.stop();
    reporter = undefined;
    expect((await readCheckStats(redis, prefix)).workers).toBe(0);
  });

  it('does not call checks late when they start on time, nor count one-off checks against an interval', async () => {
    const warn = jest.spyOn(logger, 'warn');
    reporter = startCheckLagReporter({ metrics: createServiceMetrics(), redis, prefix, logger, publishEveryMs: 30 });
    const now = Date.now();
    for (let i = 0; i < 50; i++) reporter.observe(aJob(now - 50, { everyMs: 30_000 }), now);
    // A "check now" queued a minute ago has no interval to be late against.
    reporter.observe(aJob(now - 60_000), now);
    const stats = await waitFor(async () => {
      const s = await readCheckStats(redis, prefix);
      return s.workers === 1 ? s : null;
    });
    expect(stats.late).toBe(false);
    expect(stats.lagP99Seconds).toBeGreaterThanOrEqual(60);
    expect(warn).not.toHaveBeenCalled();
  });
});
