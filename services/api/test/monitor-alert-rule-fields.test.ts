import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'patch' | 'post', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const create = (extra: Record<string, unknown> = {}) => api('post', '/monitors').send({ name: 'Shop', url: 'https://shop.example/health', type: 'http', ...extra });

describe('response_time_threshold and recovery_threshold', () => {
  it('default to off and 1, and a new monitor reads no status_reason', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ response_time_threshold: null, recovery_threshold: 1, status_reason: null });
  });

  it('are stored on create and on update, and null turns the slow threshold off again', async () => {
    const created = await create({ response_time_threshold: 1500, recovery_threshold: 3 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ response_time_threshold: 1500, recovery_threshold: 3 });
    const id = created.body.data.id as number;
    const updated = await api('patch', `/monitors/${id}`).send({ response_time_threshold: 300000, recovery_threshold: 100 });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ response_time_threshold: 300000, recovery_threshold: 100 });
    const cleared = await api('patch', `/monitors/${id}`).send({ response_time_threshold: null });
    expect(cleared.body.data.response_time_threshold).toBeNull();
    expect((await api('get', `/monitors/${id}`)).body.data).toMatchObject({ response_time_threshold: null, recovery_threshold: 100 });
  });

  it.each([
    ['response_time_threshold', 0],
    ['response_time_threshold', 300001],
    ['response_time_threshold', 2.5],
    ['response_time_threshold', '100'],
    ['recovery_threshold', 0],
    ['recovery_threshold', 101],
    ['recovery_threshold', null],
  ])('refuses %s = %p with a 400 naming the field', async (field, value) => {
    const res = await create({ [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
  });

  it('reads status_reason from the stored reason only while the monitor is in warning', async () => {
    const { id } = (await create()).body.data as { id: number };
    await h.ds.query(`UPDATE monitors SET status = 'warning', status_reason = 'slow' WHERE id = $1`, [id]);
    expect((await api('get', `/monitors/${id}`)).body.data).toMatchObject({ status: 'warning', status_reason: 'slow' });
    await h.ds.query(`UPDATE monitors SET status = 'paused' WHERE id = $1`, [id]);
    expect((await api('get', `/monitors/${id}`)).body.data).toMatchObject({ status: 'paused', status_reason: null });
  });
});

describe('depends_on', () => {
  const idOf = async (extra: Record<string, unknown> = {}): Promise<number> => {
    const res = await create(extra);
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const expectRefused = (res: request.Response, message: RegExp): void => {
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual(['depends_on']);
    expect(res.body.error.details.depends_on.join(' ')).toMatch(message);
  };

  it('defaults to none and stores the caller’s other monitors, once each', async () => {
    const db = await idOf();
    const cache = await idOf();
    expect((await create()).body.data.depends_on).toEqual([]);
    const res = await create({ depends_on: [db, cache, db] });
    expect(res.status).toBe(201);
    expect(res.body.data.depends_on).toEqual([db, cache]);
  });

  it('refuses a cycle, direct or through other monitors, and a monitor depending on itself', async () => {
    const a = await idOf();
    const b = await idOf({ depends_on: [a] });
    const c = await idOf({ depends_on: [b] });
    expectRefused(await api('patch', `/monitors/${a}`).send({ depends_on: [c] }), /cycle/);
    expectRefused(await api('patch', `/monitors/${a}`).send({ depends_on: [b] }), /cycle/);
    expectRefused(await api('patch', `/monitors/${a}`).send({ depends_on: [a] }), /itself/);
    expect((await api('get', `/monitors/${a}`)).body.data.depends_on).toEqual([]);
    // Not a cycle: a diamond.
    const d = await idOf({ depends_on: [b, c] });
    expect((await api('get', `/monitors/${d}`)).body.data.depends_on).toEqual([b, c]);
  });

  it("refuses another user's monitor and an unknown id, naming them", async () => {
    const { auth: otherAuth } = await aCaller(h.ds);
    const theirs = await request(h.app).post('/api/v1/monitors').set('Authorization', otherAuth).send({ name: 'Theirs', url: 'https://theirs.example/', type: 'http' });
    const theirId = theirs.body.data.id as number;
    expectRefused(await create({ depends_on: [theirId] }), new RegExp(String(theirId)));
    const mine = await idOf();
    expectRefused(await api('patch', `/monitors/${mine}`).send({ depends_on: [999999] }), /999999/);
  });

  it.each([[Array.from({ length: 21 }, (_, i) => i + 1)], [[0]], [['1']], [null]])('refuses depends_on = %p', async (value) => {
    const res = await create({ depends_on: value });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.details)).toEqual(['depends_on']);
  });

  it('drops a deleted monitor from its dependents', async () => {
    const parent = await idOf();
    const child = await idOf({ depends_on: [parent] });
    expect((await request(h.app).delete(`/api/v1/monitors/${parent}`).set('Authorization', auth)).status).toBe(200);
    expect((await api('get', `/monitors/${child}`)).body.data.depends_on).toEqual([]);
  });
});

describe('certificate_expires_at', () => {
  it('reads what the checks recorded for https, and null for http or before any certificate', async () => {
    const https = (await create()).body.data as { id: number; certificate_expires_at: string | null };
    expect(https.certificate_expires_at).toBeNull();
    await h.ds.query(`UPDATE monitors SET certificate_expires_at = '2026-11-25T10:00:00Z' WHERE id = $1`, [https.id]);
    expect((await api('get', `/monitors/${https.id}`)).body.data.certificate_expires_at).toBe('2026-11-25T10:00:00.000Z');
    const patched = await api('patch', `/monitors/${https.id}`).send({ url: 'http://shop.example/health' });
    expect(patched.body.data.certificate_expires_at).toBeNull();
  });
});
