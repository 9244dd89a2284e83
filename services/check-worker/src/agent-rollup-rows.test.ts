import type { LocationOutcome } from './location-vote';
import { agentRollupRows, latestSightings } from './agent-rollup-rows';

const T = Date.parse('2026-11-22T10:59:59.000Z');

function call(
  agentId: number | null,
  status: 'up' | 'down' | 'error',
  atMs: number,
  latencyMs: number | null = status === 'error' ? null : 30,
): LocationOutcome {
  const at = new Date(atMs);
  return {
    location: `l${agentId}`,
    agentId,
    status,
    statusCode: null,
    responseTime: null,
    error: null,
    checkedAt: at,
    observedAt: at,
    latencyMs,
    agentVersion: status === 'error' ? null : '1.2.3',
  };
}

describe('agent activity of a batch', () => {
  it('counts calls, agent errors and failures per agent and hour, skipping the local location', () => {
    const rows = agentRollupRows([
      call(2, 'up', T, 30),
      call(1, 'error', T),
      call(2, 'down', T, 400),
      call(null, 'down', T),
      call(2, 'up', T + 2000, 10),
    ]);
    expect(
      rows.map((r) => ({
        agent: r.agentId,
        bucket: r.bucket.toISOString(),
        checks: r.checks,
        errors: r.errors,
        failures: r.failures,
        n: r.latencyCount,
        sum: r.latencySum,
      })),
    ).toEqual([
      { agent: 1, bucket: '2026-11-22T10:00:00.000Z', checks: 1, errors: 1, failures: 0, n: 0, sum: 0 },
      { agent: 2, bucket: '2026-11-22T10:00:00.000Z', checks: 2, errors: 0, failures: 1, n: 2, sum: 430 },
      { agent: 2, bucket: '2026-11-22T11:00:00.000Z', checks: 1, errors: 0, failures: 0, n: 1, sum: 10 },
    ]);
    expect(rows[1]!.hist.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('keeps the latest sighting of each agent', () => {
    expect(
      latestSightings([call(3, 'up', T), call(3, 'error', T + 10), call(1, 'error', T + 5), call(1, 'up', T), call(null, 'up', T)]),
    ).toEqual([
      { agentId: 1, answered: false, at: new Date(T + 5), version: null },
      { agentId: 3, answered: false, at: new Date(T + 10), version: null },
    ]);
  });
});
