import { createLogger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import { waitFor } from '@uptime/testing';
import type { Redis } from 'ioredis';
import { LIVENESS_TTL_MS, WorkerLiveness } from '../src/worker-liveness';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Blocks this thread's event loop, as a loaded machine or a long garbage collection does. */
const stallEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

jest.setTimeout(60_000);

describe('worker liveness', () => {
  const logger = createLogger({ level: 'silent', service: 'worker-liveness-test' });
  const connections: Redis[] = [];
  const started: WorkerLiveness[] = [];
  let prefix: string;
  let run = 0;

  beforeEach(() => {
    prefix = `${process.env.QUEUE_PREFIX}:worker-liveness-test-${(run += 1)}`;
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((l) => l.stop()));
    await Promise.all(connections.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  });

  /** A process's liveness on its own connection, and what it was asked to do. */
  const aProcess = async (id: string) => {
    const redis = createRedisConnection(REDIS_URL, `liveness-${id}`);
    connections.push(redis);
    const reaped: string[] = [];
    let abandoned = 0;
    const liveness = new WorkerLiveness(
      redis,
      prefix,
      {
        reap: async (deadId) => {
          reaped.push(deadId);
        },
        abandon: async () => {
          abandoned += 1;
        },
      },
      logger,
    );
    await liveness.start(id);
    started.push(liveness);
    return { redis, liveness, reaped, abandoned: () => abandoned };
  };

  it('hands a process that stopped renewing to exactly one of its peers, within a TTL and a second', async () => {
    const [a, b, c] = [await aProcess('a'), await aProcess('b'), await aProcess('c')];
    // The peers judge only once their own renewals have gone through for a whole TTL.
    await sleep(LIVENESS_TTL_MS + 500);
    const diedAt = Date.now();
    c.redis.disconnect();
    await waitFor(() => a.reaped.length + b.reaped.length > 0, { timeoutMs: LIVENESS_TTL_MS + 3000, what: 'a peer to take c back' });
    expect(Date.now() - diedAt).toBeLessThan(LIVENESS_TTL_MS + 1000);
    await sleep(1000);
    expect([...a.reaped, ...b.reaped]).toEqual(['c']);
  });

  it('declares nobody dead after an event-loop stall longer than the TTL that every process shared', async () => {
    const [a, b] = [await aProcess('a'), await aProcess('b')];
    await sleep(LIVENESS_TTL_MS + 500);
    stallEventLoop(LIVENESS_TTL_MS + 1500);
    await sleep(LIVENESS_TTL_MS + 1000);
    expect([a.reaped, b.reaped, a.abandoned(), b.abandoned()]).toEqual([[], [], 0, 0]);
  });

  it('has a process its peers declared dead abandon its checks, then register again', async () => {
    const a = await aProcess('a');
    // What a peer's renewal does when it declares `a` dead.
    await a.redis.zrem(`${prefix}:check-workers`, 'a');
    await waitFor(() => a.abandoned() === 1, { timeoutMs: 5000, what: 'a to abandon its checks' });
    await sleep(500);
    expect(await a.redis.zscore(`${prefix}:check-workers`, 'a')).not.toBeNull();
    expect(a.abandoned()).toBe(1);
  });

  it('confirms at once while the last renewal is fresh, and waits for a renewal after a stall', async () => {
    const a = await aProcess('a');
    const fresh = Date.now();
    await a.liveness.confirm();
    expect(Date.now() - fresh).toBeLessThan(50);
    await a.redis.zrem(`${prefix}:check-workers`, 'a');
    stallEventLoop(LIVENESS_TTL_MS + 200);
    await a.liveness.confirm();
    expect(a.abandoned()).toBe(1);
  });
});
