import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let otherAuth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const bulk = (body: unknown, as = auth) => request(h.app).post('/api/v1/monitors/bulk').set('Authorization', as).send(body as object);

async function createMonitor(as = auth): Promise<number> {
  const res = await request(h.app).post('/api/v1/monitors').set('Authorization', as).send({ name: 'Shop', url: 'https://shop.example/health', type: 'http' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const statusOf = async (id: number): Promise<string | undefined> => (await h.ds.query('SELECT status FROM monitors WHERE id = $1', [id]))[0]?.status;
const notFound = (id: number) => ({ id, error: { code: 'MONITOR_NOT_FOUND', message: `Monitor ${id} not found` } });

describe('POST /monitors/bulk', () => {
  it('pauses own monitors and reports foreign and missing ids as MONITOR_NOT_FOUND', async () => {
    const [a, b] = [await createMonitor(), await createMonitor()];
    const foreign = await createMonitor(otherAuth);
    const res = await bulk({ action: 'pause', monitor_ids: [a, foreign, b, 999999, a], reason: 'Maintenance window' });
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'meta']);
    expect(res.body.message).toBe('2 monitor(s) paused, 2 failed');
    expect(res.body.data).toEqual({ succeeded: [a, b], failed: [notFound(foreign), notFound(999999)] });
    const rows = await h.ds.query('SELECT id, status, pause_reason FROM monitors ORDER BY id');
    expect(rows).toEqual([
      { id: a, status: 'paused', pause_reason: 'Maintenance window' },
      { id: b, status: 'paused', pause_reason: 'Maintenance window' },
      { id: foreign, status: 'pending', pause_reason: null },
    ]);
    const scheduled = await h.scheduler.scheduledVersions();
    expect([scheduled.has(a), scheduled.has(b), scheduled.has(foreign)]).toEqual([false, false, true]);
  });

  it('resumes paused monitors', async () => {
    const a = await createMonitor();
    await bulk({ action: 'pause', monitor_ids: [a] });
    const res = await bulk({ action: 'resume', monitor_ids: [a, 424242] });
    expect(res.body.data).toEqual({ succeeded: [a], failed: [notFound(424242)] });
    expect(await statusOf(a)).toBe('pending');
    expect((await h.scheduler.scheduledVersions()).has(a)).toBe(true);
  });

  it('deletes own monitors only', async () => {
    const a = await createMonitor();
    const foreign = await createMonitor(otherAuth);
    const res = await bulk({ action: 'delete', monitor_ids: [a, foreign] });
    expect(res.body.data).toEqual({ succeeded: [a], failed: [notFound(foreign)] });
    expect(await statusOf(a)).toBeUndefined();
    expect(await statusOf(foreign)).toBe('pending');
  });

  it('applies settings to each own monitor like PATCH', async () => {
    const [a, b] = [await createMonitor(), await createMonitor()];
    const foreign = await createMonitor(otherAuth);
    const res = await bulk({ action: 'update', monitor_ids: [a, b, foreign], settings: { check_interval: 60, tags: ['prod'] } });
    expect(res.body.data).toEqual({ succeeded: [a, b], failed: [notFound(foreign)] });
    const rows = await h.ds.query('SELECT id, check_interval, tags, config_version FROM monitors ORDER BY id');
    expect(rows).toEqual([
      { id: a, check_interval: 60, tags: ['prod'], config_version: 2 },
      { id: b, check_interval: 60, tags: ['prod'], config_version: 2 },
      { id: foreign, check_interval: 300, tags: [], config_version: 1 },
    ]);
    expect((await h.scheduler.scheduleOf(a))?.every).toBe(60_000);
  });

  it.each([
    [{ settings: { timeout: 1 } }, 'settings.timeout'],
    [{ settings: { check_interval: 60, status: 'online' } }, 'settings.status'],
    [{ settings: { url: 'not a url' } }, 'settings.url'],
    [{ settings: {} }, 'settings'],
    [{}, 'settings'],
  ])('refuses invalid settings %j before touching any monitor', async (extra, field) => {
    const a = await createMonitor();
    const res = await bulk({ action: 'update', monitor_ids: [a], ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
    expect((await h.ds.query('SELECT config_version FROM monitors WHERE id = $1', [a]))[0].config_version).toBe(1);
  });

  it('answers INVALID_MONITOR_TYPE for an unsupported type in settings', async () => {
    const a = await createMonitor();
    const res = await bulk({ action: 'update', monitor_ids: [a], settings: { type: 'smtp' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_MONITOR_TYPE');
  });

  it.each([
    [{ action: 'archive', monitor_ids: [1] }, 'action'],
    [{ monitor_ids: [1] }, 'action'],
    [{ action: 'pause', monitor_ids: [] }, 'monitor_ids'],
    [{ action: 'pause' }, 'monitor_ids'],
    [{ action: 'pause', monitor_ids: Array.from({ length: 101 }, (_v, i) => i + 1) }, 'monitor_ids'],
    [{ action: 'pause', monitor_ids: ['1'] }, 'monitor_ids'],
    [{ action: 'pause', monitor_ids: [0] }, 'monitor_ids'],
    [{ action: 'resume', monitor_ids: [1], reason: 'x' }, 'reason'],
    [{ action: 'pause', monitor_ids: [1], reason: 'x'.repeat(501) }, 'reason'],
    [{ action: 'delete', monitor_ids: [1], settings: { name: 'x' } }, 'settings'],
    [{ action: 'pause', monitor_ids: [1], force: true }, 'force'],
  ])('refuses %j', async (body, field) => {
    const res = await bulk(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
  });
});
