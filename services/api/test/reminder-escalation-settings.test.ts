import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import type { User } from '@uptime/db';
import { useApiHarness } from './support/api-harness';

/** Reminders and escalation in the alert settings, and their deliveries as the API lists them (docs/alert-rules.md). */
const h = useApiHarness();
let auth: string;
let user: User;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const OFF = { reminder_interval_minutes: null, escalation_recipients: [], escalation_after_minutes: null };
const followupsOf = (data: Record<string, unknown>) => ({
  reminder_interval_minutes: data.reminder_interval_minutes,
  escalation_recipients: data.escalation_recipients,
  escalation_after_minutes: data.escalation_after_minutes,
});

describe('reminder and escalation settings (PUT /monitors/:id/alerts)', () => {
  it('are off by default, saved as given, and read back', async () => {
    const m = await aMonitor(h.ds, user);
    expect(followupsOf((await api('get', `/monitors/${m.id}/alerts`)).body.data)).toEqual(OFF);

    const saved = await api('put', `/monitors/${m.id}/alerts`).send({
      reminder_interval_minutes: 15,
      escalation_recipients: ['lead@example.com', 'LEAD@example.com', 'cto@example.com'],
      escalation_after_minutes: 30,
    });
    expect(saved.status).toBe(200);
    const expected = { reminder_interval_minutes: 15, escalation_recipients: ['lead@example.com', 'cto@example.com'], escalation_after_minutes: 30 };
    expect(followupsOf(saved.body.data)).toEqual(expected);
    expect(followupsOf((await api('get', `/monitors/${m.id}/alerts`)).body.data)).toEqual(expected);
    const [row] = await h.ds.query('SELECT reminder_interval_minutes, escalation_recipients, escalation_after_minutes FROM monitors WHERE id = $1', [m.id]);
    expect(row).toEqual(expected);

    // Other settings leave them alone; null and an empty list turn them off again.
    expect(followupsOf((await api('put', `/monitors/${m.id}/alerts`).send({ alert_threshold: 2 })).body.data)).toEqual(expected);
    const off = await api('put', `/monitors/${m.id}/alerts`).send(OFF);
    expect(followupsOf(off.body.data)).toEqual(OFF);
  });

  it('accepts the bounds 5 and 1440', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send({ reminder_interval_minutes: 5, escalation_recipients: ['a@example.com'], escalation_after_minutes: 1440 });
    expect(res.status).toBe(200);
    expect(followupsOf(res.body.data)).toEqual({ reminder_interval_minutes: 5, escalation_recipients: ['a@example.com'], escalation_after_minutes: 1440 });
  });

  it.each([
    [{ reminder_interval_minutes: 4 }, 'reminder_interval_minutes'],
    [{ reminder_interval_minutes: 1441 }, 'reminder_interval_minutes'],
    [{ reminder_interval_minutes: 7.5 }, 'reminder_interval_minutes'],
    [{ reminder_interval_minutes: '15' }, 'reminder_interval_minutes'],
    [{ escalation_after_minutes: 4 }, 'escalation_after_minutes'],
    [{ escalation_after_minutes: 1441 }, 'escalation_after_minutes'],
    [{ escalation_recipients: ['not-an-email'], escalation_after_minutes: 30 }, 'escalation_recipients'],
    [{ escalation_recipients: 'lead@example.com', escalation_after_minutes: 30 }, 'escalation_recipients'],
    [{ escalation_recipients: Array.from({ length: 21 }, (_v, i) => `u${i}@example.com`), escalation_after_minutes: 30 }, 'escalation_recipients'],
    [{ escalation_recipients: null }, 'escalation_recipients'],
    [{ escalation_recipients: ['lead@example.com'] }, 'escalation_after_minutes'],
    [{ escalation_recipients: ['lead@example.com'], escalation_after_minutes: null }, 'escalation_after_minutes'],
  ])('refuses %j with a VALIDATION_ERROR naming the field, and changes nothing', async (body, field) => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
    expect(followupsOf((await api('get', `/monitors/${m.id}/alerts`)).body.data)).toEqual(OFF);
  });

  it('keeps escalation_after_minutes required while recipients remain', async () => {
    const m = await aMonitor(h.ds, user);
    await api('put', `/monitors/${m.id}/alerts`).send({ escalation_recipients: ['lead@example.com'], escalation_after_minutes: 30 }).expect(200);
    const res = await api('put', `/monitors/${m.id}/alerts`).send({ escalation_after_minutes: null });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ escalation_after_minutes: ['escalation_after_minutes is required when escalation_recipients or escalation_channel_ids is not empty'] });
    expect(followupsOf((await api('get', `/monitors/${m.id}/alerts`)).body.data).escalation_after_minutes).toBe(30);
  });
});

describe('the deliveries of a notification with reminders and an escalation (GET /notifications/:id)', () => {
  it('lists its own, the escalation and the latest reminder round, each with its kind', async () => {
    const m = await aMonitor(h.ds, user);
    const [incident] = await h.ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, '2026-11-22T10:00:00Z') RETURNING id`, [m.id]);
    const [n] = await h.ds.query(
      `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
       VALUES ($1, $2, $3, 'downtime', 'active', 'down', '2026-11-22T10:00:00Z') RETURNING id`,
      [user.id, m.id, incident.id],
    );
    await h.ds.query(
      `INSERT INTO notification_deliveries (notification_id, channel, recipient, kind, round, status, attempts)
       VALUES ($1, 'email', 'ops@example.com', 'notice', 0, 'sent', 1),
              ($1, 'email', 'ops@example.com', 'reminder', 1, 'sent', 1),
              ($1, 'email', 'lead@example.com', 'escalation', 1, 'sent', 1),
              ($1, 'email', 'ops@example.com', 'reminder', 2, 'cancelled', 0)`,
      [n.id],
    );
    const res = await api('get', `/notifications/${n.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries.map((d: { kind: string; reminder: number | null; recipient: string; status: string }) => [d.kind, d.reminder, d.recipient, d.status])).toEqual([
      ['notice', null, 'ops@example.com', 'sent'],
      ['escalation', null, 'lead@example.com', 'sent'],
      ['reminder', 2, 'ops@example.com', 'cancelled'],
    ]);
  });

  describe('escalation_channel_ids', () => {
    const channel = async (name: string, as = auth): Promise<number> => {
      const res = await request(h.app).post('/api/v1/channels').set('Authorization', as).send({ name, type: 'email', config: { recipients: [`${name.toLowerCase()}@example.com`] } });
      expect(res.status).toBe(201);
      return res.body.data.id as number;
    };

    it('are saved as given, read back in id order, kept apart from channel_ids, and leave with a deleted channel', async () => {
      const m = await aMonitor(h.ds, user);
      const [a, b] = [await channel('Oncall'), await channel('Lead')];
      const saved = await api('put', `/monitors/${m.id}/alerts`).send({ escalation_channel_ids: [b, a], escalation_after_minutes: 20 });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toMatchObject({ escalation_channel_ids: [a, b].sort((x, y) => x - y), escalation_after_minutes: 20, channel_ids: [] });
      expect((await api('get', `/monitors/${m.id}/alerts`)).body.data.escalation_channel_ids).toEqual([a, b].sort((x, y) => x - y));
      // A body without the field leaves them alone.
      expect((await api('put', `/monitors/${m.id}/alerts`).send({ alert_threshold: 2 })).body.data.escalation_channel_ids).toEqual([a, b].sort((x, y) => x - y));
      await request(h.app).delete(`/api/v1/channels/${a}`).set('Authorization', auth).expect(200);
      expect((await api('get', `/monitors/${m.id}/alerts`)).body.data.escalation_channel_ids).toEqual([b]);
      expect((await api('put', `/monitors/${m.id}/alerts`).send({ escalation_channel_ids: [] })).body.data.escalation_channel_ids).toEqual([]);
    });

    it.each([
      ['another organization’s channel', 'foreign'],
      ['a channel that does not exist', 'missing'],
      ["the monitor's own email channel", 'own'],
    ])('refuses %s with a VALIDATION_ERROR naming escalation_channel_ids, and saves nothing', async (_what, kind) => {
      const m = await aMonitor(h.ds, user);
      const mine = await channel('Mine');
      const other = (await aCaller(h.ds)).auth;
      const [own] = (await h.ds.query(`SELECT id FROM channels WHERE monitor_id = $1 AND type = 'email'`, [m.id])) as { id: number }[];
      const refusedId = kind === 'foreign' ? await channel('Foreign', other) : kind === 'missing' ? 2_000_000 : own!.id;
      const res = await api('put', `/monitors/${m.id}/alerts`).send({ escalation_channel_ids: [mine, refusedId], escalation_after_minutes: 20 });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual({ escalation_channel_ids: [expect.stringContaining(`not found: ${refusedId}`)] });
      expect((await api('get', `/monitors/${m.id}/alerts`)).body.data).toMatchObject({ escalation_channel_ids: [], escalation_after_minutes: null });
    });

    it('need escalation_after_minutes, as escalation recipients do', async () => {
      const m = await aMonitor(h.ds, user);
      const res = await api('put', `/monitors/${m.id}/alerts`).send({ escalation_channel_ids: [await channel('Oncall')] });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.details)).toEqual(['escalation_after_minutes']);
      const repeated = await api('put', `/monitors/${m.id}/alerts`).send({ escalation_channel_ids: [5, 5], escalation_after_minutes: 20 });
      expect(Object.keys(repeated.body.error.details)).toEqual(['escalation_channel_ids']);
    });
  });
});
