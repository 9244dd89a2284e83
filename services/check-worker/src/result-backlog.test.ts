import { createLogger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import type { Redis } from 'ioredis';
import type { CheckOutcome } from './check-outcome';
import { ResultBacklog, type WriteWatch } from './result-backlog';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const outcomes = (n: number): CheckOutcome[] =>
  Array.from({ length: n }, (_, i) => ({
    monitorId: i + 1,
    configVersion: 1,
    scheduledAt: new Date(1_764_288_000_000),
    result: { ok: true, statusCode: 200, responseTime: 5, error: null, checkedAt: new Date(1_764_288_000_000), attempts: 1 },
  }));

let redis: Redis;
beforeAll(() => {
  redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'result-backlog-test');
});
afterAll(async () => {
  await redis.quit();
});

const key = `result-backlog-test:${process.pid}`;

function backlogWith(write: (batch: CheckOutcome[], watch: WriteWatch) => Promise<void>): ResultBacklog {
  return new ResultBacklog({
    write,
    redis,
    key,
    bounds: { memoryMax: 1000, redisMax: 1000 },
    logger: createLogger({ level: 'silent', service: 'test' }),
    writeDeadlineMs: 250,
  });
}

describe('ResultBacklog write deadline', () => {
  it('lets a write that keeps making progress run past the deadline (a slow worker is not a hung Postgres)', async () => {
    let aborted = false;
    const backlog = backlogWith(async (_batch, watch) => {
      // Six statements of 100 ms: 600 ms in all, more than twice the 250 ms deadline.
      for (let i = 0; i < 6; i++) {
        await sleep(100);
        aborted ||= watch.signal.aborted;
        watch.progress();
      }
    });
    await backlog.record(outcomes(3));
    expect(aborted).toBe(false);
    expect(backlog.inMemory).toBe(0);
  });

  it('gives up on a write that makes no progress for the deadline, and keeps its results', async () => {
    let signal: AbortSignal | undefined;
    const backlog = backlogWith(async (_batch, watch) => {
      signal = watch.signal;
      watch.progress();
      await sleep(400);
    });
    await backlog.record(outcomes(3));
    expect(signal?.aborted).toBe(true);
    expect(backlog.inMemory).toBe(3);
    // Stopping hands them to the Redis list for another worker.
    await backlog.stop();
    expect(await redis.llen(key)).toBe(3);
    await redis.del(key);
  });
});
