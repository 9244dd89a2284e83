import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { readOwnAlertSettings, type User } from '@uptime/db';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let user: User;
let otherAuth: string;
let other: User;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
  ({ auth: otherAuth, user: other } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put', path: string, as = auth) => request(h.app)[method](`/api/v1${path}`).set('Authorization', as);

describe('GET|PUT /monitors/:id/alerts', () => {
  it('answers the defaults of a new monitor', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await api('get', `/monitors/${m.id}/alerts`);
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(res.body.data).toEqual({ email_enabled: true, email_recipients: [], slack_enabled: false, slack_webhook_url: null, webhook_enabled: false, webhook_url: null, webhook_secret_set: false, channel_ids: [], alert_on_recovery: true, alert_threshold: 1, reminder_interval_minutes: null, escalation_recipients: [], escalation_channel_ids: [], escalation_after_minutes: null, alert_on_slow: false, certificate_expiry_days: 14 });
  });

  it('applies a partial body and answers every setting', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send({ email_recipients: ['ops@example.com', 'OPS@example.com', 'dev@example.com'], alert_threshold: 3 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      email_enabled: true,
      email_recipients: ['ops@example.com', 'dev@example.com'],
      slack_enabled: false,
      slack_webhook_url: null,
      webhook_enabled: false,
      webhook_url: null,
      webhook_secret_set: false,
      channel_ids: [],
      alert_on_recovery: true,
      alert_threshold: 3,
      reminder_interval_minutes: null,
      escalation_recipients: [],
      escalation_channel_ids: [],
      escalation_after_minutes: null,
      alert_on_slow: false,
      certificate_expiry_days: 14,
    });
    const again = await api('put', `/monitors/${m.id}/alerts`).send({
      email_enabled: false,
      alert_on_recovery: false,
      slack_enabled: true,
      slack_webhook_url: 'https://hooks.slack.com/services/T0/B0/abc',
    });
    expect(again.body.data).toEqual({
      email_enabled: false,
      email_recipients: ['ops@example.com', 'dev@example.com'],
      slack_enabled: true,
      slack_webhook_url: 'https://hooks.slack.com/services/T0/B0/abc',
      webhook_enabled: false,
      webhook_url: null,
      webhook_secret_set: false,
      channel_ids: [],
      alert_on_recovery: false,
      alert_threshold: 3,
      reminder_interval_minutes: null,
      escalation_recipients: [],
      escalation_channel_ids: [],
      escalation_after_minutes: null,
      alert_on_slow: false,
      certificate_expiry_days: 14,
    });
    const [row] = await h.ds.query('SELECT alert_on_recovery, alert_threshold FROM monitors WHERE id = $1', [m.id]);
    expect(row).toEqual({ alert_on_recovery: false, alert_threshold: 3 });
    // The email and Slack fields are the monitor's own channels (docs/channels.md): Slack's URL sealed, email detached.
    const own = await h.ds.query(
      `SELECT c.type, c.config, c.secret_fields, EXISTS (SELECT 1 FROM monitor_channels mc WHERE mc.channel_id = c.id) AS attached
         FROM channels c WHERE c.monitor_id = $1 ORDER BY c.type`,
      [m.id],
    );
    expect(own).toEqual([
      { type: 'email', config: { recipients: ['ops@example.com', 'dev@example.com'] }, secret_fields: [], attached: false },
      { type: 'slack', config: {}, secret_fields: ['webhook_url'], attached: true },
    ]);
    expect(JSON.stringify(await h.ds.query('SELECT * FROM channels WHERE monitor_id = $1', [m.id]))).not.toContain('hooks.slack.com');
    expect((await api('get', `/monitors/${m.id}/alerts`)).body.data).toEqual(again.body.data);
  });

  it.each([
    [{ email_recipients: ['not-an-email'] }, 'email_recipients'],
    [{ email_recipients: Array.from({ length: 21 }, (_v, i) => `u${i}@example.com`) }, 'email_recipients'],
    [{ email_recipients: 'ops@example.com' }, 'email_recipients'],
    [{ alert_threshold: 0 }, 'alert_threshold'],
    [{ alert_threshold: 101 }, 'alert_threshold'],
    [{ alert_threshold: 2.5 }, 'alert_threshold'],
    [{ email_enabled: 'yes' }, 'email_enabled'],
    [{ email_enabled: null }, 'email_enabled'],
    [{ webhook_url: 'ftp://hooks.example.com/' }, 'webhook_url'],
    [{ webhook_url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'webhook_url'],
    [{ slack_enabled: true }, 'slack_webhook_url'],
    [{ webhook_enabled: true }, 'webhook_url'],
    [{ slack_webhook_url: 'not a url' }, 'slack_webhook_url'],
    [{ webhook_enabled: 'yes' }, 'webhook_enabled'],
  ])('refuses %j with a VALIDATION_ERROR and changes nothing', async (body, field) => {
    const m = await aMonitor(h.ds, user);
    const res = await api('put', `/monitors/${m.id}/alerts`).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
    expect((await api('get', `/monitors/${m.id}/alerts`)).body.data.alert_threshold).toBe(1);
  });

  it("answers 404 for another user's monitor, read or written", async () => {
    const m = await aMonitor(h.ds, user);
    expect((await api('get', `/monitors/${m.id}/alerts`, otherAuth)).body.error.code).toBe('MONITOR_NOT_FOUND');
    const put = await api('put', `/monitors/${m.id}/alerts`, otherAuth).send({ alert_threshold: 5 });
    expect(put.status).toBe(404);
    expect(put.body.error.code).toBe('MONITOR_NOT_FOUND');
    expect((await api('get', `/monitors/${m.id}/alerts`)).body.data.alert_threshold).toBe(1);
  });
});

async function aNotification(owner: User, monitorId: number, startedAt: string, type: 'downtime' | 'recovery' = 'downtime'): Promise<number> {
  const [incident] = await h.ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, $2) RETURNING id`, [monitorId, startedAt]);
  const [n] = await h.ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
     VALUES ($1, $2, $3, $4, 'active', 'down', $5) RETURNING id`,
    [owner.id, monitorId, incident.id, type, startedAt],
  );
  return n.id;
}

describe('Slack and webhook settings', () => {
  it('generates the webhook secret when the webhook is first enabled, shows it once, and keeps it when re-enabled', async () => {
    const m = await aMonitor(h.ds, user);
    const enabled = await api('put', `/monitors/${m.id}/alerts`).send({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/uptime' });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/uptime', webhook_secret_set: true });
    expect(enabled.body.data.webhook_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const row = await readOwnAlertSettings(h.ds.manager, h.keyring, m.id);
    expect(row.webhookSecret).toBe(enabled.body.data.webhook_secret);

    const read = await api('get', `/monitors/${m.id}/alerts`);
    expect(read.body.data.webhook_secret_set).toBe(true);
    expect(read.body.data).not.toHaveProperty('webhook_secret');
    await api('put', `/monitors/${m.id}/alerts`).send({ webhook_enabled: false });
    const again = await api('put', `/monitors/${m.id}/alerts`).send({ webhook_enabled: true });
    expect(again.body.data).not.toHaveProperty('webhook_secret');
    expect((await readOwnAlertSettings(h.ds.manager, h.keyring, m.id)).webhookSecret).toBe(row.webhookSecret);
  });

  it('rotates the webhook secret and shows the new one once', async () => {
    const m = await aMonitor(h.ds, user);
    const first = (await api('put', `/monitors/${m.id}/alerts`).send({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/uptime' })).body.data.webhook_secret;

    const rotated = await request(h.app).post(`/api/v1/monitors/${m.id}/alerts/webhook-secret`).set('Authorization', auth);

    expect(rotated.status).toBe(200);
    expect(rotated.body.data.webhook_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.data.webhook_secret).not.toBe(first);
    expect((await readOwnAlertSettings(h.ds.manager, h.keyring, m.id)).webhookSecret).toBe(rotated.body.data.webhook_secret);
    const foreign = await request(h.app).post(`/api/v1/monitors/${m.id}/alerts/webhook-secret`).set('Authorization', otherAuth);
    expect(foreign.status).toBe(404);
  });

  it('keeps the Slack URL while Slack is off, and refuses to clear it while Slack is on', async () => {
    const m = await aMonitor(h.ds, user);
    await api('put', `/monitors/${m.id}/alerts`).send({ slack_enabled: true, slack_webhook_url: 'https://hooks.slack.com/services/T0/B0/abc' });
    await api('put', `/monitors/${m.id}/alerts`).send({ slack_enabled: false });
    const on = await api('put', `/monitors/${m.id}/alerts`).send({ slack_enabled: true });
    expect(on.status).toBe(200);
    const cleared = await api('put', `/monitors/${m.id}/alerts`).send({ slack_webhook_url: null });
    expect(cleared.status).toBe(400);
    expect(Object.keys(cleared.body.error.details)).toEqual(['slack_webhook_url']);
  });
});

describe('GET /alerts', () => {
  it("lists the caller's notifications newest first, since a time, limited", async () => {
    const m = await aMonitor(h.ds, user);
    const foreign = await aMonitor(h.ds, other);
    const a = await aNotification(user, m.id, '2026-01-01T00:00:00Z');
    const b = await aNotification(user, m.id, '2026-01-02T00:00:00Z', 'recovery');
    const c = await aNotification(user, m.id, '2026-01-03T00:00:00Z');
    await aNotification(other, foreign.id, '2026-01-04T00:00:00Z');

    const all = await api('get', '/alerts');
    expect(all.status).toBe(200);
    expectMeta(all);
    expect(all.body.data.map((n: { id: number }) => n.id)).toEqual([c, b, a]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, total: 3, pages: 1, has_next: false, has_prev: false });
    expect(all.body.data[1]).toMatchObject({ id: b, monitor_id: m.id, monitor_name: m.name, type: 'recovery', status: 'active', started_at: '2026-01-02T00:00:00.000Z' });

    const since = await api('get', '/alerts?since=2026-01-02T00:00:00Z&limit=1');
    expect(since.body.data.map((n: { id: number }) => n.id)).toEqual([c]);
    expect(since.body.pagination).toMatchObject({ limit: 1, total: 2, pages: 2, has_next: true });
  });

  it.each([
    ['since=last-week', 'since'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
  ])('refuses %s', async (query, field) => {
    const res = await api('get', `/alerts?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
  });
});
