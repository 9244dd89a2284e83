import { runCapacity } from './run-capacity';

jest.setTimeout(180_000);

/**
 * Keeps the capacity harness from rotting: a small run of the same code path as
 * `pnpm bench:capacity` (real processes, real Postgres and Redis), asserting only correctness.
 */
describe('capacity harness, small run', () => {
  it('checks every monitor on schedule with no check lost or doubled (api + 2 check-workers + notifier)', async () => {
    const report = await runCapacity({
      monitors: 200,
      intervalSeconds: 2,
      workers: 2,
      windowSeconds: 20,
      checkConcurrency: 50,
      createConcurrency: 16,
      baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    });
    expect(report.mismatches).toEqual([]);
    expect(report.neverChecked).toBe(0);
    expect(report.doubled).toBe(0);
    expect(report.lost).toBe(0);
    expect(report.resultsTotal).toBe(report.hitsTotal);
    expect(report.hitsTotal).toBeGreaterThanOrEqual(200 * 10);
    // Sizes are read across the daily partitions (the partitioned parent itself has no storage).
    expect(report.bytesPerResult).toBeGreaterThan(40);
    expect(report.bytesPerResultCompacted).toBeLessThanOrEqual(report.bytesPerResult!);
    expect(Object.values(report.exitCodes).every((code) => code === 0)).toBe(true);
  });
});
