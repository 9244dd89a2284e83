import type { ProbeResult } from '@uptime/probe';
import { localLocationOutcome, overallResult, tallyLocations, type LocationOutcome, type LocationStatus } from './location-vote';

const AT = new Date('2026-11-22T10:00:00.000Z');

function probe(ok: boolean, statusCode: number | null = ok ? 200 : 500): ProbeResult {
  return {
    ok,
    statusCode,
    responseTime: ok ? 40 : 90,
    error: ok ? null : `Expected status 2xx, got ${statusCode}`,
    checkedAt: AT,
    attempts: 1,
  };
}

function agent(
  location: string,
  status: LocationStatus,
  statusCode: number | null = status === 'up' ? 200 : status === 'down' ? 503 : null,
): LocationOutcome {
  return {
    location,
    agentId: location.length,
    status,
    statusCode,
    responseTime: status === 'error' ? null : 70,
    error: status === 'up' ? null : status === 'down' ? `Expected status 2xx, got ${statusCode}` : 'agent unreachable: connection refused',
    checkedAt: AT,
    observedAt: AT,
    latencyMs: status === 'error' ? null : 15,
    agentVersion: status === 'error' ? null : '0.1.0',
  };
}

const verdict = (local: ProbeResult, ...agents: LocationOutcome[]) =>
  overallResult(local, 'local', [localLocationOutcome('local', local), ...agents]);

describe('majority of answering locations (docs/agent-protocol.md)', () => {
  it('fails only when more than half of the answering locations fail', () => {
    expect(verdict(probe(true), agent('eu', 'down')).ok).toBe(true); // 1 of 2
    expect(verdict(probe(false), agent('eu', 'up')).ok).toBe(true); // 1 of 2
    expect(verdict(probe(true), agent('eu', 'down'), agent('us', 'up')).ok).toBe(true); // 1 of 3
    expect(verdict(probe(true), agent('eu', 'down'), agent('us', 'down')).ok).toBe(false); // 2 of 3
    expect(verdict(probe(false), agent('eu', 'down'), agent('us', 'up'), agent('ap', 'up')).ok).toBe(true); // 2 of 4
  });

  it('leaves agents that did not answer out of the vote', () => {
    expect(tallyLocations([localLocationOutcome('local', probe(true)), agent('eu', 'error'), agent('us', 'error')])).toEqual({
      answering: 1,
      failing: 0,
      ok: true,
    });
    expect(verdict(probe(true), agent('eu', 'error'), agent('us', 'down')).ok).toBe(true); // 1 of 2 answering
    expect(verdict(probe(false), agent('eu', 'error'), agent('us', 'error')).ok).toBe(false); // the local one alone
  });

  it('takes status code and response time from a location agreeing with the verdict, the local one first', () => {
    expect(verdict(probe(true), agent('eu', 'down'))).toMatchObject({ ok: true, statusCode: 200, responseTime: 40, error: null });
    expect(verdict(probe(false, 500), agent('eu', 'up'))).toMatchObject({ ok: true, statusCode: 200, responseTime: 70, error: null });
    expect(verdict(probe(true), agent('eu', 'down', 503), agent('us', 'down', 502))).toMatchObject({
      ok: false,
      statusCode: 503,
      responseTime: 70,
      error: 'Down in 2 of 3 locations: eu: Expected status 2xx, got 503; us: Expected status 2xx, got 502',
      checkedAt: AT,
    });
  });
});

describe("a dns check's answer across locations", () => {
  const answer = (values: string[]) => ({ responseCode: 'NOERROR', values, minTtl: 60 });

  it('keeps the answer of the location agreeing with the verdict, the local one first', () => {
    const local: ProbeResult = { ...probe(true, null), dns: answer(['192.0.2.1']) };
    const eu: LocationOutcome = { ...agent('eu', 'up', null), dns: answer(['192.0.2.2']) };
    expect(verdict(local, eu).dns).toEqual(answer(['192.0.2.1']));
    // Down here, up at two agents: the first agreeing agent's answer is the check's.
    const failing: ProbeResult = { ...probe(false, null), error: 'DNS response code SERVFAIL', dns: { responseCode: 'SERVFAIL', values: [], minTtl: null } };
    expect(verdict(failing, eu, { ...agent('us', 'up', null), dns: answer(['192.0.2.3']) }).dns).toEqual(answer(['192.0.2.2']));
    // An agent of protocol 2 sends no answer: none is recorded rather than another location's.
    expect(verdict(failing, agent('eu', 'up', null), agent('us', 'up', null))).not.toHaveProperty('dns');
  });
});
