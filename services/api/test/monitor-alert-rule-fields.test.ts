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
