import request from 'supertest';
import { aCaller, resetRedis } from '@uptime/testing';
import { reconcileHeartbeatDeadlines } from '../src/schedule-reconciler';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

const api = (method: 'post' | 'patch' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const createHeartbeat = (extra: Record<string, unknown> = {}) => api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', ...extra });

function expectFieldErrors(res: request.Response, fields: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
}

const TOKEN_URL = /^http:\/\/localhost:3000\/ping\/([A-Za-z0-9_-]{43})$/;

describe('heartbeat monitors: fields, address, rotation', () => {
  it('creates a heartbeat with a period: no url, pending, the default grace, a ping URL of a 256-bit token, and no probe schedule', async () => {
    const res = await createHeartbeat({ heartbeat_period: 60 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'heartbeat',
      url: null,
      method: null,
      timeout: null,
      status: 'pending',
      heartbeat_period: 60,
      heartbeat_cron: null,
      heartbeat_timezone: null,
      heartbeat_grace: 300,
    });
    expect(res.body.data.heartbeat_url).toMatch(TOKEN_URL);
    expect(await h.scheduler.scheduleOf(res.body.data.id)).toBeUndefined();
    const again = await api('get', `/monitors/${res.body.data.id}`);
    expect(again.body.data.heartbeat_url).toBe(res.body.data.heartbeat_url);
    const listed = await api('get', '/monitors');
    expect(listed.body.data[0].heartbeat_url).toBe(res.body.data.heartbeat_url);
  });

  it('creates one with a cron, UTC unless a zone is given', async () => {
    const utc = await createHeartbeat({ heartbeat_cron: '30 2 * * *', heartbeat_grace: 600 });
    expect(utc.body.data).toMatchObject({ heartbeat_cron: '30 2 * * *', heartbeat_timezone: 'UTC', heartbeat_period: null, heartbeat_grace: 600 });
    const berlin = await createHeartbeat({ heartbeat_cron: '0 * * * 1-5', heartbeat_timezone: 'Europe/Berlin' });
    expect(berlin.body.data.heartbeat_timezone).toBe('Europe/Berlin');
  });

  it('gives each monitor its own token', async () => {
    const a = (await createHeartbeat({ heartbeat_period: 60 })).body.data.heartbeat_url;
    const b = (await createHeartbeat({ heartbeat_period: 60 })).body.data.heartbeat_url;
    expect(a).not.toBe(b);
  });

  it.each([
    [{}, ['heartbeat_period']],
    [{ heartbeat_period: 60, heartbeat_cron: '* * * * *' }, ['heartbeat_cron']],
    [{ heartbeat_period: 29 }, ['heartbeat_period']],
    [{ heartbeat_period: 365 * 86400 + 1 }, ['heartbeat_period']],
    [{ heartbeat_period: 60, heartbeat_grace: 29 }, ['heartbeat_grace']],
    [{ heartbeat_period: 60, heartbeat_grace: 30 * 86400 + 1 }, ['heartbeat_grace']],
    [{ heartbeat_cron: '* * * *' }, ['heartbeat_cron']],
    [{ heartbeat_cron: '0 0 * * * *' }, ['heartbeat_cron']],
    [{ heartbeat_cron: '61 * * * *' }, ['heartbeat_cron']],
    [{ heartbeat_cron: '0 2 * * *', heartbeat_timezone: 'Mars/Olympus' }, ['heartbeat_timezone']],
    [{ heartbeat_period: 60, heartbeat_timezone: 'Europe/Berlin' }, ['heartbeat_timezone']],
    [{ heartbeat_period: 60, url: 'https://example.com/' }, ['url']],
    [{ heartbeat_period: 60, method: 'POST', timeout: 5 }, ['method', 'timeout']],
  ])('refuses %j naming %j', async (body, fields) => {
    expectFieldErrors(await createHeartbeat(body), fields);
  });

  it("refuses a heartbeat's fields on another type, and a change to or from heartbeat", async () => {
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/', heartbeat_period: 60 }), ['heartbeat_period']);
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expect(http).toMatchObject({ heartbeat_url: null, heartbeat_period: null, heartbeat_grace: null });
    expectFieldErrors(await api('patch', `/monitors/${http.id}`).send({ type: 'heartbeat', heartbeat_period: 60 }), ['type']);
    const hb = (await createHeartbeat({ heartbeat_period: 60 })).body.data;
    expectFieldErrors(await api('patch', `/monitors/${hb.id}`).send({ type: 'http', url: 'https://example.com/' }), ['type']);
  });

  it('updates the schedule: a period becomes a cron (UTC) and back (no zone)', async () => {
    const { id } = (await createHeartbeat({ heartbeat_period: 60 })).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ heartbeat_cron: '0 3 * * *' }), ['heartbeat_cron']);
    const cron = await api('patch', `/monitors/${id}`).send({ heartbeat_period: null, heartbeat_cron: '0 3 * * *' });
    expect(cron.body.data).toMatchObject({ heartbeat_period: null, heartbeat_cron: '0 3 * * *', heartbeat_timezone: 'UTC' });
    const zoned = await api('patch', `/monitors/${id}`).send({ heartbeat_timezone: 'America/New_York' });
    expect(zoned.body.data.heartbeat_timezone).toBe('America/New_York');
    const period = await api('patch', `/monitors/${id}`).send({ heartbeat_cron: null, heartbeat_period: 3600 });
    expect(period.body.data).toMatchObject({ heartbeat_period: 3600, heartbeat_cron: null, heartbeat_timezone: null });
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ heartbeat_period: null }), ['heartbeat_period']);
  });

  it("counts a pending heartbeat's first wait from its creation (or resume) with the new period when its schedule is edited", async () => {
    const { id } = (await createHeartbeat({ heartbeat_period: 3600 })).body.data;
    // Created 30 minutes ago, still waiting for its first ping.
    const created = new Date(Date.now() - 1800_000);
    await h.ds.query(`UPDATE monitors SET created_at = $2, heartbeat_due_at = $3 WHERE id = $1`, [id, created, new Date(created.getTime() + 3600_000)]);
    const dueAt = async (): Promise<number> => (await h.ds.query(`SELECT heartbeat_due_at FROM monitors WHERE id = $1`, [id]))[0].heartbeat_due_at.getTime();
    expect((await api('patch', `/monitors/${id}`).send({ heartbeat_period: 7200 })).status).toBe(200);
    expect(await dueAt()).toBe(created.getTime() + 7200_000);
    expect((await api('patch', `/monitors/${id}`).send({ heartbeat_period: null, heartbeat_cron: '0 * * * *' })).status).toBe(200);
    expect(await dueAt()).toBe(Math.floor(created.getTime() / 3600_000) * 3600_000 + 3600_000);

    // Paused and resumed, it waits again from the resume.
    await api('post', `/monitors/${id}/pause`).send({});
    const before = Date.now();
    await api('post', `/monitors/${id}/resume`).send({});
    const after = Date.now();
    await api('patch', `/monitors/${id}`).send({ heartbeat_cron: null, heartbeat_period: 600 });
    expect(await dueAt()).toBeGreaterThanOrEqual(before + 600_000);
    expect(await dueAt()).toBeLessThanOrEqual(after + 600_000);
  });

  it('rotates the token: a new URL, recorded in the audit log; another type has none to rotate', async () => {
    const hb = (await createHeartbeat({ heartbeat_period: 60 })).body.data;
    const res = await api('post', `/monitors/${hb.id}/heartbeat/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Heartbeat URL rotated');
    expect(res.body.data.heartbeat_url).toMatch(TOKEN_URL);
    expect(res.body.data.heartbeat_url).not.toBe(hb.heartbeat_url);
    const [entry] = await h.ds.query(`SELECT action, changed_fields FROM audit_log WHERE resource_id = $1 AND action = 'monitor.heartbeat_rotate'`, [String(hb.id)]);
    expect(entry).toEqual({ action: 'monitor.heartbeat_rotate', changed_fields: ['heartbeat_url'] });
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    const refused = await api('post', `/monitors/${http.id}/heartbeat/rotate`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    expect((await api('post', '/monitors/999999/heartbeat/rotate')).status).toBe(404);
  });

  it('gives a new heartbeat its deadline, one period + grace away, and the reconciler gives it back after Redis was wiped', async () => {
    const before = Date.now();
    const { id } = (await createHeartbeat({ heartbeat_period: 60, heartbeat_grace: 30 })).body.data;
    const deadline = (await h.scheduler.heartbeats.of(id))!.getTime();
    expect(deadline).toBeGreaterThanOrEqual(before + 90_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 90_000);
    await resetRedis(h.config.redis.queuePrefix);
    expect(await h.scheduler.heartbeats.of(id)).toBeUndefined();
    expect(await reconcileHeartbeatDeadlines(h.ds, h.scheduler)).toBe(1);
    expect((await h.scheduler.heartbeats.of(id))?.getTime()).toBe(deadline);
    expect(await reconcileHeartbeatDeadlines(h.ds, h.scheduler)).toBe(0);
    // Paused: no deadline, and the reconciler gives none.
    await api('post', `/monitors/${id}/pause`);
    expect(await h.scheduler.heartbeats.of(id)).toBeUndefined();
    expect(await reconcileHeartbeatDeadlines(h.ds, h.scheduler)).toBe(0);
  });

  it('lists a down heartbeat on the dashboard without a url', async () => {
    const { id } = (await createHeartbeat({ heartbeat_period: 60 })).body.data;
    await h.ds.query(`UPDATE monitors SET status = 'offline', last_failure = now() WHERE id = $1`, [id]);
    const res = await api('get', '/dashboard');
    expect(res.status).toBe(200);
    expect(res.body.data.down_monitors).toEqual([expect.objectContaining({ id, name: 'Backup', url: null })]);
  });

  it('has no test check and takes no agents', async () => {
    const hb = (await createHeartbeat({ heartbeat_period: 60 })).body.data;
    const test = await api('post', `/monitors/${hb.id}/test`);
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe('INVALID_STATE');
    const agents = await api('post', `/monitors/${hb.id}/agents`).send({ agent_ids: [1] });
    expectFieldErrors(agents, ['agent_ids']);
  });
});
