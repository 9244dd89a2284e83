import type { ProbeResult } from '@uptime/probe';
import { aMonitor, aUser } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';
import { useBatchDatabase } from './support/batch-database';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const DAY_MS = 86_400_000;

function outcome(monitorId: number, second: number, result: Partial<ProbeResult> = {}): CheckOutcome {
  const at = new Date(T0 + second * 1000);
  return {
    monitorId,
    configVersion: 1,
    scheduledAt: at,
    result: {
      ok: true,
      statusCode: 200,
      responseTime: 100,
      error: null,
      checkedAt: at,
      attempts: 1,
      certificateExpiresAt: null,
      ...result,
    },
  };
}

const slow = { responseTime: 900 };
const failed = { ok: false, statusCode: 503, error: 'Expected status 2xx, got 503' };
const cert = (daysAfterT0: number) => ({ certificateExpiresAt: new Date(T0 + daysAfterT0 * DAY_MS) });

describe('alert episodes: slow periods and certificates under the limit (docs/alert-rules.md)', () => {
  const db = useBatchDatabase();
  const { reload } = db;
  const episodes = (
    id: number,
  ): Promise<{ id: number; kind: string; started_at: Date; resolved_at: Date | null; response_time: number | null }[]> =>
    db.ds.query('SELECT id, kind, started_at, resolved_at, response_time FROM alert_episodes WHERE monitor_id = $1 ORDER BY id', [id]);

  describe('slow', () => {
    it('opens one episode when the monitor becomes slow and closes it when it is fast again, each step an event', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { responseTimeThreshold: 500, alertOnSlow: true });
      await recordCheckBatch(db.ds, [outcome(m.id, 0)]);
      const becameSlow = await recordCheckBatch(db.ds, [outcome(m.id, 30, slow)]);
      const [episode] = await episodes(m.id);
      expect(episode).toMatchObject({ kind: 'slow', started_at: new Date(T0 + 30_000), resolved_at: null, response_time: 900 });
      expect(becameSlow).toEqual([expect.objectContaining({ from: 'online', to: 'warning', incidentId: null, episodeIds: [episode!.id] })]);
      expect((await reload(m.id)).openSlowEpisodeId).toBe(episode!.id);

      // Still slow: the same episode, and no news.
      expect(await recordCheckBatch(db.ds, [outcome(m.id, 60, slow)])).toEqual([]);
      // Redelivered: a no-op.
      expect(await recordCheckBatch(db.ds, [outcome(m.id, 60, slow)])).toEqual([]);

      const fast = await recordCheckBatch(db.ds, [outcome(m.id, 90)]);
      expect(fast).toEqual([expect.objectContaining({ from: 'warning', to: 'online', episodeIds: [episode!.id] })]);
      expect(await episodes(m.id)).toEqual([expect.objectContaining({ id: episode!.id, resolved_at: new Date(T0 + 90_000) })]);
      expect((await reload(m.id)).openSlowEpisodeId).toBeNull();
    });

    it('opens none while alert_on_slow is off, and one at the next slow check once it is on', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { responseTimeThreshold: 500 });
      const becameSlow = await recordCheckBatch(db.ds, [outcome(m.id, 0, slow)]);
      expect(becameSlow).toEqual([expect.objectContaining({ to: 'warning', episodeIds: [] })]);
      expect(await episodes(m.id)).toEqual([]);

      await db.ds.query('UPDATE monitors SET alert_on_slow = true WHERE id = $1', [m.id]);
      const [event] = await recordCheckBatch(db.ds, [outcome(m.id, 30, slow)]);
      // No status change (warning to warning), yet news: the slow period is now announced.
      expect(event).toMatchObject({ from: 'warning', to: 'warning', episodeIds: [(await episodes(m.id))[0]!.id] });
    });

    it('ends the slow period at a failed check, and a downtime opening at once ends it in the same event', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { responseTimeThreshold: 500, alertOnSlow: true });
      await recordCheckBatch(db.ds, [outcome(m.id, 0, slow)]);
      const [episode] = await episodes(m.id);
      const [down] = await recordCheckBatch(db.ds, [outcome(m.id, 30, failed)]);
      expect(down).toMatchObject({ from: 'warning', to: 'offline', incidentId: expect.any(Number), episodeIds: [episode!.id] });
      expect((await episodes(m.id))[0]!.resolved_at).toEqual(new Date(T0 + 30_000));
    });

    it('opens no slow period during a maintenance window, and one at the first slow check after it', async () => {
      const owner = await aUser(db.ds);
      const m = await aMonitor(db.ds, owner, { responseTimeThreshold: 500, alertOnSlow: true });
      const [w]: { id: number }[] = await db.ds.query(
        `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone) VALUES ($1, 'Deploy', $2, 10, 'none', 'UTC') RETURNING id`,
        [owner.id, new Date(T0)],
      );
      await db.ds.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)`, [w!.id, m.id]);
      await recordCheckBatch(db.ds, [outcome(m.id, 60, slow)]);
      expect(await reload(m.id)).toMatchObject({ status: 'warning', statusReason: 'slow', inMaintenance: true, openSlowEpisodeId: null });
      expect(await episodes(m.id)).toEqual([]);

      const [after] = await recordCheckBatch(db.ds, [outcome(m.id, 11 * 60, slow)]);
      expect(after).toMatchObject({ from: 'warning', to: 'warning', episodeIds: [expect.any(Number)] });
      expect(await episodes(m.id)).toEqual([expect.objectContaining({ kind: 'slow', started_at: new Date(T0 + 11 * 60_000) })]);
    });
  });

  describe('certificate', () => {
    it('opens one episode when the certificate falls under the limit, however many checks see it', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { url: 'https://shop.example.test/' });
      const first = await recordCheckBatch(db.ds, [outcome(m.id, 0, cert(3))]);
      const [episode] = await episodes(m.id);
      expect(episode).toMatchObject({ kind: 'certificate', resolved_at: null });
      expect(first).toEqual([expect.objectContaining({ from: 'pending', to: 'online', episodeIds: [episode!.id] })]);
      for (let i = 1; i <= 5; i += 1) expect(await recordCheckBatch(db.ds, [outcome(m.id, i * 30, cert(3))])).toEqual([]);
      // A check that received no certificate keeps it: not a change.
      expect(await recordCheckBatch(db.ds, [outcome(m.id, 200, { ...failed, certificateExpiresAt: null })])).toEqual([
        expect.objectContaining({ to: 'offline', episodeIds: [] }),
      ]);
      expect(await episodes(m.id)).toHaveLength(1);
    });

    it('closes the episode when the certificate changes, and opens a new one when the new one is under the limit too', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { url: 'https://shop.example.test/' });
      await recordCheckBatch(db.ds, [outcome(m.id, 0, cert(3))]);
      const [old] = await episodes(m.id);
      const [changed] = await recordCheckBatch(db.ds, [outcome(m.id, 30, cert(2))]);
      const [, renewed] = await episodes(m.id);
      expect(changed).toMatchObject({ from: 'online', to: 'online', episodeIds: [old!.id, renewed!.id] });
      expect((await episodes(m.id)).map((e) => e.resolved_at)).toEqual([new Date(T0 + 30_000), null]);

      // Renewed for 90 days: the episode ends and none opens.
      const [fine] = await recordCheckBatch(db.ds, [outcome(m.id, 60, cert(90))]);
      expect(fine).toMatchObject({ episodeIds: [renewed!.id] });
      expect((await reload(m.id)).openCertificateEpisodeId).toBeNull();
      expect(await recordCheckBatch(db.ds, [outcome(m.id, 90, cert(90))])).toEqual([]);
    });

    it('opens none with certificate_expiry_days 0, nor for a certificate with more days left than the limit', async () => {
      const off = await aMonitor(db.ds, await aUser(db.ds), { url: 'https://off.example.test/', certificateExpiryDays: 0 });
      const far = await aMonitor(db.ds, await aUser(db.ds), { url: 'https://far.example.test/', certificateExpiryDays: 14 });
      await recordCheckBatch(db.ds, [outcome(off.id, 0, cert(3)), outcome(far.id, 0, cert(14.01))]);
      expect(await episodes(off.id)).toEqual([]);
      expect(await episodes(far.id)).toEqual([]);
      // The limit is in the past for a certificate that expired already (verify_ssl off lets it through).
      const expired = await aMonitor(db.ds, await aUser(db.ds), { url: 'https://expired.example.test/', certificateExpiryDays: 1 });
      await recordCheckBatch(db.ds, [outcome(expired.id, 0, cert(-1))]);
      expect(await episodes(expired.id)).toHaveLength(1);
    });

    it('opens none for an http monitor', async () => {
      const m = await aMonitor(db.ds, await aUser(db.ds), { url: 'http://shop.example.test/' });
      await recordCheckBatch(db.ds, [outcome(m.id, 0, cert(3))]);
      expect(await episodes(m.id)).toEqual([]);
    });
  });
});
