import request from 'supertest';
import type { Monitor, User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let user: User;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put' | 'post', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);

describe('alert settings alert_on_slow and certificate_expiry_days (docs/alert-rules.md)', () => {
  it('saves both and answers them, and keeps the other settings', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send({ alert_on_slow: true, certificate_expiry_days: 30 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ alert_on_slow: true, certificate_expiry_days: 30, alert_on_recovery: true, alert_threshold: 1 });
    const [row] = await h.ds.query('SELECT alert_on_slow, certificate_expiry_days FROM monitors WHERE id = $1', [m.id]);
    expect(row).toEqual({ alert_on_slow: true, certificate_expiry_days: 30 });

    for (const days of [0, 1, 365]) {
      expect((await api('put', `/monitors/${m.id}/alerts`).send({ certificate_expiry_days: days })).body.data.certificate_expiry_days).toBe(
        days,
      );
    }
    expect((await api('get', `/monitors/${m.id}/alerts`)).body.data).toMatchObject({ alert_on_slow: true, certificate_expiry_days: 365 });
  });

  it.each([
    [{ certificate_expiry_days: -1 }, 'certificate_expiry_days'],
    [{ certificate_expiry_days: 366 }, 'certificate_expiry_days'],
    [{ certificate_expiry_days: 1.5 }, 'certificate_expiry_days'],
    [{ certificate_expiry_days: '14' }, 'certificate_expiry_days'],
    [{ certificate_expiry_days: null }, 'certificate_expiry_days'],
    [{ alert_on_slow: 'yes' }, 'alert_on_slow'],
    [{ alert_on_slow: null }, 'alert_on_slow'],
    [{ alert_on_slow: 1 }, 'alert_on_slow'],
  ])('refuses %j with a VALIDATION_ERROR naming the field and changes nothing', async (body, field) => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
    expect((await api('get', `/monitors/${m.id}/alerts`)).body.data).toMatchObject({ alert_on_slow: false, certificate_expiry_days: 14 });
  });
});

describe('slow and certificate notifications in the API (docs/notifications.md)', () => {
  /** A notification of an alert episode, as the notifier records it (episode_id set, no incident). */
  async function anEpisodeNotification(monitor: Monitor, kind: 'slow' | 'certificate', startedAt: string): Promise<number> {
    const [episode] = await h.ds.query(`INSERT INTO alert_episodes (monitor_id, kind, started_at) VALUES ($1, $2, $3) RETURNING id`, [
      monitor.id,
      kind,
      startedAt,
    ]);
    const [n] = await h.ds.query(
      `INSERT INTO notifications (user_id, monitor_id, episode_id, type, status, message, started_at)
       VALUES ($1, $2, $3, $4, 'active', $5, $6) RETURNING id`,
      [user.id, monitor.id, episode.id, kind, `${monitor.name}: ${kind}`, startedAt],
    );
    return n.id;
  }

  it('lists them, filters by type=slow and type=certificate, and refuses an unknown type', async () => {
    const m = await aMonitor(h.ds, user, { name: 'Shop' });
    const slow = await anEpisodeNotification(m, 'slow', '2026-11-22T10:00:00Z');
    const cert = await anEpisodeNotification(m, 'certificate', '2026-11-22T11:00:00Z');

    const all = await api('get', '/notifications');
    expect(all.status).toBe(200);
    expect(all.body.data.map((n: { id: number; type: string }) => [n.id, n.type])).toEqual([
      [cert, 'certificate'],
      [slow, 'slow'],
    ]);
    expect((await api('get', '/notifications?type=slow')).body.data.map((n: { id: number }) => n.id)).toEqual([slow]);
    expect((await api('get', '/notifications?type=certificate')).body.data.map((n: { id: number }) => n.id)).toEqual([cert]);
    expect((await api('get', '/notifications/active')).body.meta.count).toBe(2);

    const bad = await api('get', '/notifications?type=fast');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.type).toEqual(['type must be one of downtime, recovery, slow, certificate']);
  });

  it('acknowledges and resolves a slow notification by hand, and shows its deliveries with their phase', async () => {
    const m = await aMonitor(h.ds, user);
    const id = await anEpisodeNotification(m, 'slow', '2026-11-22T10:00:00Z');
    await h.ds.query(
      `INSERT INTO notification_deliveries (notification_id, channel, recipient, phase, status, attempts)
       VALUES ($1, 'email', 'ops@example.test', 'resolved', 'pending', 0), ($1, 'email', 'ops@example.test', 'opened', 'sent', 1)`,
      [id],
    );

    expect((await api('post', `/notifications/${id}/acknowledge`)).body.data).toMatchObject({ id, acknowledged: true });
    expect((await api('post', `/notifications/${id}/resolve`)).body.data).toMatchObject({ id, status: 'resolved' });
    const detail = await api('get', `/notifications/${id}`);
    expect(detail.body.data).toMatchObject({ type: 'slow', status: 'resolved', acknowledged: true });
    // The start's message before the end's.
    expect(detail.body.data.deliveries.map((d: { phase: string; status: string }) => [d.phase, d.status])).toEqual([
      ['opened', 'sent'],
      ['resolved', 'pending'],
    ]);
  });
});
