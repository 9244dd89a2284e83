import { decodeOutcome, encodeOutcome } from './outcome-codec';
import type { CheckOutcome } from './check-outcome';

describe('outcome codec', () => {
  it('gives back the same outcome, times as Dates, with and without locations', () => {
    const at = new Date('2026-11-22T10:00:00.123Z');
    const plain: CheckOutcome = {
      monitorId: 7,
      configVersion: 3,
      scheduledAt: at,
      result: { ok: false, statusCode: 503, responseTime: 40, error: 'Expected status 2xx, got 503', checkedAt: new Date(at.getTime() + 12), attempts: 2, timings: { dns: 1, connect: 2, tls: null, firstByte: 30 } },
    };
    expect(decodeOutcome(encodeOutcome(plain))).toEqual(plain);
    const withLocations: CheckOutcome = {
      ...plain,
      locations: [
        { location: 'local', agentId: null, status: 'down', statusCode: 503, responseTime: 40, error: 'x', checkedAt: at, observedAt: at, latencyMs: null, agentVersion: null },
      ],
    };
    expect(decodeOutcome(encodeOutcome(withLocations))).toEqual(withLocations);
  });

  it('gives back the certificate expiry as a Date, and null as null', () => {
    const at = new Date('2026-11-22T10:00:00.123Z');
    const base: CheckOutcome = { monitorId: 7, configVersion: 1, scheduledAt: at, result: { ok: true, statusCode: 200, responseTime: 40, error: null, checkedAt: at, attempts: 1 } };
    for (const certificateExpiresAt of [new Date('2026-11-25T10:00:00.000Z'), null]) {
      const outcome: CheckOutcome = { ...base, result: { ...base.result, certificateExpiresAt } };
      expect(decodeOutcome(encodeOutcome(outcome))).toEqual(outcome);
    }
  });

  it("gives back a dns check's type and answer, kept while the database is away", () => {
    const at = new Date('2026-11-22T10:00:00.123Z');
    const dns: CheckOutcome = {
      monitorId: 9,
      configVersion: 1,
      scheduledAt: at,
      type: 'dns',
      result: { ok: false, statusCode: null, responseTime: 3, error: 'DNS response code SERVFAIL', checkedAt: at, attempts: 1, dns: { responseCode: 'SERVFAIL', values: [], minTtl: null } },
    };
    expect(decodeOutcome(encodeOutcome(dns))).toEqual(dns);
  });
});
