import type { Job } from 'bullmq';
import { createLogger } from '@uptime/logger';
import { runProbe } from '@uptime/probe';
import { createRedisConnection } from '@uptime/queues';
import { aCheckConfig, answer, startFakeHttpServer } from '@uptime/testing';
import type { Redis } from 'ioredis';
import { CheckLock } from '../src/check-lock';
import type { CheckOutcome } from '../src/check-outcome';
import { ResultBatcher } from '../src/result-batcher';
import { createRunCheckProcessor } from '../src/run-check.processor';
import { logRedisCommands, type RedisCommandLog } from './support/redis-command-log';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('check lock', () => {
  let redis: Redis;
  let commands: RedisCommandLog;
  let prefix: string;
  let run = 0;
  beforeAll(() => {
    redis = createRedisConnection(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });
  beforeEach(async () => {
    // A prefix per test: a lock left by one (a killed holder's) never meets the next.
    prefix = `${process.env.QUEUE_PREFIX}:check-lock-test-${(run += 1)}`;
    commands = await logRedisCommands(redis, prefix);
  });
  afterEach(() => commands.close());

  const key = (monitorId: number) => `${prefix}:check-lock:${monitorId}`;
  const acquireAll = async (lock: CheckLock, ids: number[]) => {
    const releases = await Promise.all(ids.map((id) => lock.acquire(id)));
    expect(releases.every((r) => typeof r === 'function')).toBe(true);
    return releases as (() => Promise<void>)[];
  };

  it('releases the locks released in one turn with one Redis command, each call resolving once its key is gone', async () => {
    const lock = new CheckLock(redis, prefix);
    const releases = await acquireAll(lock, range(20));
    await commands.clear();
    // Each release's promise settles after Redis ran the delete: a key read then is gone.
    const leftAfterRelease = await Promise.all(releases.map((release, i) => release().then(() => redis.exists(key(i + 1)))));
    expect(leftAfterRelease).toEqual(range(20).map(() => 0));
    const sent = (await commands.settled()).filter((c) => c[0] !== 'exists');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.slice(0, 1)).toEqual(['eval']);
    expect(sent[0]![2]).toBe('20');
    expect(sent[0]!.slice(3, 23)).toEqual(range(20).map(key));
  });

  it('leaves a lock that lapsed and was taken by another worker, releasing the others of the same call', async () => {
    const lock = new CheckLock(redis, prefix);
    const [releaseA, releaseB] = await acquireAll(lock, [1, 2]);
    // Monitor 1's lock lapsed and another worker holds it now.
    await redis.set(key(1), 'another-worker', 'PX', 60_000);
    await Promise.all([releaseA!(), releaseB!()]);
    expect(await redis.get(key(1))).toBe('another-worker');
    expect(await redis.exists(key(2))).toBe(0);
    expect((await commands.settled()).filter((c) => c[0] === 'eval')).toHaveLength(1);
  });

  it('runs a release and a later acquire of the same monitor in the same turn in that order', async () => {
    const lock = new CheckLock(redis, prefix);
    const [release] = await acquireAll(lock, [5]);
    const released = release!();
    const next = await lock.acquire(5);
    await released;
    expect(next).toEqual(expect.any(Function));
    expect(await redis.exists(key(5))).toBe(1);
    await next!();
    expect(await redis.exists(key(5))).toBe(0);
  });

  it('renews every held lock past its lifetime with one call per pass, and stops once they are released', async () => {
    const ttlMs = 600;
    const lock = new CheckLock(redis, prefix, ttlMs);
    const releases = await acquireAll(lock, range(5));
    await commands.clear();
    // Two and a half lifetimes: only renewals keep the locks.
    await sleep(ttlMs * 2.5);
    for (const id of range(5)) expect(Number(await redis.pttl(key(id)))).toBeGreaterThan(0);
    const renewals = (await commands.settled()).filter((c) => c[0] !== 'pttl');
    expect(renewals.length).toBeGreaterThan(0);
    for (const renewal of renewals) {
      expect(renewal[0]).toBe('eval');
      // One call names all five locks (KEYS), then the lifetime and their tokens.
      expect(renewal[2]).toBe('5');
      expect(renewal.slice(3, 8)).toEqual(range(5).map(key));
      expect(renewal[8]).toBe(String(ttlMs));
    }
    await Promise.all(releases.map((release) => release()));
    await commands.clear();
    // Two renewal periods (a third of the lifetime each) with nothing held: no pass runs.
    await sleep((ttlMs / 3) * 2);
    expect(await commands.settled()).toEqual([]);
    for (const id of range(5)) expect(await redis.exists(key(id))).toBe(0);
  });

  it('lets the lock of a holder that died expire within its lifetime', async () => {
    const ttlMs = 600;
    const holderConnection = createRedisConnection(REDIS_URL);
    const holder = new CheckLock(holderConnection, prefix, ttlMs);
    const other = new CheckLock(redis, prefix, ttlMs);
    expect(await holder.acquire(9)).toEqual(expect.any(Function));
    expect(await other.acquire(9)).toBeNull();
    // The holder's process is gone: no release, and its renewals no longer reach Redis.
    holderConnection.disconnect();
    // Its lifetime, and a little more.
    await sleep(ttlMs + 100);
    const next = await other.acquire(9);
    expect(next).toEqual(expect.any(Function));
    await next!();
  });

  it('releases every lock held with one command when a forced stop releases them all', async () => {
    const lock = new CheckLock(redis, prefix);
    await acquireAll(lock, range(8));
    await commands.clear();
    await lock.releaseAll();
    for (const id of range(8)) expect(await redis.exists(key(id))).toBe(0);
    const sent = (await commands.settled()).filter((c) => c[0] !== 'exists');
    expect(sent.map((c) => [c[0], c[2]])).toEqual([['eval', '8']]);
  });

  it('releases the locks of the checks of one result batch with one Redis command', async () => {
    const target = await startFakeHttpServer(answer(200, 'ok'));
    try {
      const checks = 10;
      // The batch is written when its tenth check arrives; the write itself is not under test.
      const batcher = new ResultBatcher<CheckOutcome>(async () => undefined, { maxBatch: checks, maxDelayMs: 10_000 });
      const runCheck = createRunCheckProcessor({
        probe: runProbe,
        probeOptions: { allowPrivateTargets: true },
        lock: new CheckLock(redis, prefix),
        record: (outcome) => batcher.add(outcome),
        logger: createLogger({ level: 'silent', service: 'test' }),
      });
      const job = (monitorId: number) =>
        ({ id: `now-${monitorId}-1795000000000`, data: { monitorId, configVersion: 1, check: aCheckConfig(target.url) }, timestamp: Date.now(), opts: {} }) as unknown as Job;
      const outcomes = await Promise.all(range(checks).map((id) => runCheck(job(id))));
      expect(outcomes).toEqual(range(checks).map(() => 'recorded'));
      const sent = await commands.settled();
      expect(sent.filter((c) => c[0] === 'set')).toHaveLength(checks);
      expect(sent.filter((c) => c[0] === 'eval').map((c) => c[2])).toEqual([String(checks)]);
      for (const id of range(checks)) expect(await redis.exists(key(id))).toBe(0);
    } finally {
      await target.close();
    }
  });
});
