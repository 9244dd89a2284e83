import { runHeartbeats } from './run-heartbeats';

jest.setTimeout(60_000);

/**
 * Keeps `pnpm bench:heartbeats` from rotting: the same code path at a tiny scale (real api,
 * check-worker and notifier processes on the real Postgres and Redis), asserting the report's
 * shape and correctness only, never a timing (docs/capacity.md, "Heartbeats").
 */
describe('heartbeats bench harness, small run', () => {
  it('pings 198 heartbeats with none falsely offline, and sees the 2 never pinged go offline', async () => {
    // Short schedules so that 10 s hold two pings of each monitor and the silent ones' deadline
    // (the product takes any period from the database; the API's 30 s minimum is for users). A
    // grace of 10 s: a pinged monitor would have to miss two pings in a row, which a slow answer
    // on a busy machine does not make it do; a false offline here is the product's.
    const report = await runHeartbeats({
      monitors: 200,
      seconds: 10,
      periodSeconds: 4,
      graceSeconds: 10,
      latePeriodSeconds: 2,
      lateGraceSeconds: 2,
      workers: 1,
      baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      templateDatabase: process.env.TEST_TEMPLATE_DATABASE,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    });
    expect(report).toMatchObject({ monitors: 200, pinged: 198, late: 2, falseOffline: 0, lateSeenOffline: 2 });
    expect(report.pingsSent).toBeGreaterThanOrEqual(198 * 2);
    // Every token is known: no 404; a ping answered 200 was recorded (a 503 of a loaded machine was not).
    expect(report.pingErrorsBy['404']).toBeUndefined();
    expect(report.pingsRecorded).toBe(report.pingsSent - report.pingErrors);
    for (const f of [report.pingLatencyMs, report.lateOfflineMs, report.generatorLagMs]) {
      expect(Object.values(f).every((v) => typeof v === 'number')).toBe(true);
    }
    // Offline after due + grace, never before it.
    expect(report.lateOfflineMs.p50).toBeGreaterThanOrEqual(0);
    expect(report.redis.deadlinesBytesPerMonitor).toBeGreaterThan(0);
    expect(report.redis.keysByKind['heartbeat:deadlines']?.keys).toBe(1);
    expect(report.postgres.monitorsBytesPerMonitor).toBeGreaterThan(0);
    expect(report.postgres.pingsBytesPerPing).toBeGreaterThan(0);
    expect(Object.values(report.exitCodes).every((code) => code === 0)).toBe(true);
  });
});
