import { Monitor, type DataSource } from '@uptime/db';
import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const NOT_AFTER = new Date('2026-11-25T10:00:00.000Z');

function outcome(monitorId: number, second: number, certificateExpiresAt: Date | null): CheckOutcome {
  const at = new Date(T0 + second * 1000);
  const ok = certificateExpiresAt !== null;
  return {
    monitorId,
    configVersion: 1,
    scheduledAt: at,
    result: { ok, statusCode: ok ? 200 : null, responseTime: ok ? 90 : null, error: ok ? null : 'Timeout after 30s', checkedAt: at, attempts: 1, certificateExpiresAt },
  };
}

describe('certificate_expires_at (docs/alert-rules.md)', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await openTestDatabase();
  });
  beforeEach(() => resetDatabase(ds));
  afterAll(() => ds.destroy());

  const expiryOf = async (id: number) => (await ds.getRepository(Monitor).findOneByOrFail({ id })).certificateExpiresAt?.toISOString() ?? null;

  it('stores what an https check received and keeps it through a check that received none', async () => {
    const m = await aMonitor(ds, await aUser(ds), { url: 'https://shop.example.test/' });
    await recordCheckBatch(ds, [outcome(m.id, 0, NOT_AFTER)]);
    expect(await expiryOf(m.id)).toBe(NOT_AFTER.toISOString());
    await recordCheckBatch(ds, [outcome(m.id, 30, null)]);
    expect(await expiryOf(m.id)).toBe(NOT_AFTER.toISOString());
    const renewed = new Date('2027-02-23T10:00:00.000Z');
    await recordCheckBatch(ds, [outcome(m.id, 60, renewed)]);
    expect(await expiryOf(m.id)).toBe(renewed.toISOString());
  });

  it('stores none for an http monitor', async () => {
    const m = await aMonitor(ds, await aUser(ds), { url: 'http://shop.example.test/' });
    await recordCheckBatch(ds, [outcome(m.id, 0, NOT_AFTER)]);
    expect(await expiryOf(m.id)).toBeNull();
  });
});
