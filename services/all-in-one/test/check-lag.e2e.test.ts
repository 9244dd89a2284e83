import type { RunningApi } from '@uptime/api';
import type { DataSource } from '@uptime/db';
import { createServiceMetrics } from '@uptime/observability';
import { aCaller, answer, metricValue, sleep, startFakeHttpServer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(60_000);

interface DashboardChecks {
  per_second: number;
  lag_p99_seconds: number | null;
  late: boolean;
}

describe('a check backlog is never silent', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let target: FakeHttpServer;
  let api: RunningApi;

  beforeAll(async () => {
    target = await startFakeHttpServer(answer(200, 'ok'));
    stack = await startInProcessStack({ checkWorker: false, notifier: false });
    ({ ds, api } = stack);
  });

  afterAll(async () => {
    await stack?.close();
    await target?.close();
  });

  it('reports the lag of checks held back while no check-worker ran, in the metric and on the dashboard', async () => {
    const { auth } = await aCaller(ds);
    const dashboardChecks = async (): Promise<DashboardChecks> => {
      const res = await fetch(`${api.url}/api/v1/dashboard`, { headers: { Authorization: auth } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { checks: DashboardChecks } }).data.checks;
    };
    const created = await fetch(`${api.url}/api/v1/monitors`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Held back', url: `${target.url}/up`, type: 'http', check_interval: 2, timeout: 5 }),
    });
    expect(created.status).toBe(201);

    // No check-worker: the first check and the first scheduled slots wait in the queue.
    expect(await dashboardChecks()).toEqual({ per_second: 0, lag_p99_seconds: null, late: true });
    await sleep(6_000);

    const metrics = createServiceMetrics();
    await stack.startCheckWorker({ metrics, checkStatsPublishMs: 200 });
    const checks = await waitFor(
      async () => {
        const c = await dashboardChecks();
        return c.per_second > 0 && c.late ? c : null;
      },
      { what: 'the dashboard to report late checks' },
    );
    // The held-back checks started at least 4 s after their planned time, on a 2 s interval.
    expect(checks.lag_p99_seconds).toBeGreaterThanOrEqual(4);

    const text = await metrics.registry.metrics();
    expect(metricValue(text, 'uptime_check_lag_seconds_count')).toBeGreaterThanOrEqual(2);
    // At least two checks (the first one and the first slot) fell past the 2.5 s bucket.
    const fast = metricValue(text, 'uptime_check_lag_seconds_bucket', { le: '2.5' })!;
    expect(metricValue(text, 'uptime_check_lag_seconds_count')! - fast).toBeGreaterThanOrEqual(2);
  });
});
