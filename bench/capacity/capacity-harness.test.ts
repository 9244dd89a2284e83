import { runCapacity } from './run-capacity';

jest.setTimeout(180_000);

/**
 * Keeps the capacity harness from rotting: a small run of the same code path as
 * `pnpm bench:capacity` (real processes, real Postgres and Redis), asserting only correctness.
 */
describe('capacity harness, small run', () => {
  it('checks every monitor on schedule with no check lost or doubled (api + 2 check-workers + notifier)', async () => {
    // At the product's defaults: each worker sizes its own concurrency (no CHECK_CONCURRENCY).
    // Five slots of every monitor in the window: enough to see a check lost, doubled or late.
    const size = { monitors: 200, intervalSeconds: 2, windowSeconds: 10 };
    const report = await runCapacity({
      ...size,
      workers: 2,
      createConcurrency: 16,
      baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      templateDatabase: process.env.TEST_TEMPLATE_DATABASE,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    });
    expect(report.mismatches).toEqual([]);
    expect(report.neverChecked).toBe(0);
    expect(report.doubled).toBe(0);
    expect(report.lost).toBe(0);
    expect(report.requeuedAtStop).toBe(0);
    expect(report.resultsTotal).toBe(report.hitsTotal);
    expect(report.hitsTotal).toBeGreaterThanOrEqual((size.monitors * size.windowSeconds) / size.intervalSeconds);
    // Sizes are read across the daily partitions (the partitioned parent itself has no storage).
    expect(report.bytesPerResult).toBeGreaterThan(40);
    expect(report.bytesPerResultCompacted).toBeLessThanOrEqual(report.bytesPerResult!);
    // Where the server's autovacuum is off (CI's), the harness vacuumed and analysed in its stead.
    expect(report.vacuum.autovacuum === 'on' ? report.vacuum.rounds === 0 : report.vacuum.rounds >= 1).toBe(true);
    expect(Object.values(report.exitCodes).every((code) => code === 0)).toBe(true);
  });

  it('probes HTTPS with a fresh handshake per check, verify_ssl both ways, and records the hanging 5 % down', async () => {
    // A hanging check gives up after 5 s, the shortest timeout, inside the 7 s interval; the
    // window holds at least one slot of every monitor.
    const report = await runCapacity({
      monitors: 100,
      intervalSeconds: 7,
      workers: 1,
      windowSeconds: 10,
      createConcurrency: 16,
      mix: { protocol: 'https', hangPercent: 5 },
      baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      templateDatabase: process.env.TEST_TEMPLATE_DATABASE,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    });
    expect(report.mismatches).toEqual([]);
    expect(report.neverChecked).toBe(0);
    expect(report.doubled).toBe(0);
    expect(report.lost).toBe(0);
    expect(report.requeuedAtStop).toBe(0);
    expect(report.gapMsByKind.hang?.monitors).toBe(5);
    // Monitors that verify trust the harness's certificate, the others skip verification: every
    // fast one is up; only the hanging targets' timeouts are down.
    // Counted by monitor over the whole run (a hanging check at the window's edge is still its own
    // monitor's): every down result is a hanging target's, none a fast monitor's.
    expect(report.downResultsByKind).toEqual({ hang: report.downResults });
    expect(report.downResults).toBeGreaterThan(0);
    // ... and each for the reason a hanging target gives: the check's own timeout.
    expect(report.downErrors.map((e) => e.error)).toEqual([expect.stringMatching(/^Timeout after \d+s$/)]);
    expect(report.tlsHandshakes?.resumed).toBe(0);
    expect(report.tlsHandshakes?.full).toBeGreaterThanOrEqual(report.hitsTotal);
    expect(Object.values(report.exitCodes).every((code) => code === 0)).toBe(true);
  });
});
