import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';

let h: ApiHarness;
let auth: string;
let otherAuth: string;

beforeAll(async () => {
  h = await startApiHarness({ MIN_CHECK_INTERVAL_SECONDS: '30' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.reset();
  ({ auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put' | 'post', path: string, as = auth) => request(h.app)[method](`/api/v1${path}`).set('Authorization', as);
const DEFAULTS = { timezone: 'UTC', email_notifications: true, default_check_interval: 300, default_timeout: 30, default_locations: [], theme: 'system' };

describe('GET|PUT /preferences', () => {
  it('answers the defaults before anything is saved', async () => {
    const res = await api('get', '/preferences');
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(res.body.data).toEqual(DEFAULTS);
  });

  it('saves a partial body, keeps the other keys, and is per user', async () => {
    const res = await api('put', '/preferences').send({ timezone: 'Europe/Berlin', theme: 'dark' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...DEFAULTS, timezone: 'Europe/Berlin', theme: 'dark' });
    const again = await api('put', '/preferences').send({ email_notifications: false, default_locations: ['eu-west', 'us-east', 'eu-west'] });
    expect(again.body.data).toEqual({ ...DEFAULTS, timezone: 'Europe/Berlin', theme: 'dark', email_notifications: false, default_locations: ['eu-west', 'us-east'] });
    expect((await api('get', '/preferences')).body.data).toEqual(again.body.data);
    expect((await api('get', '/preferences', otherAuth)).body.data).toEqual(DEFAULTS);
  });

  it.each([
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ timezone: '+02:00' }, 'timezone'],
    [{ timezone: 5 }, 'timezone'],
    [{ default_check_interval: 29 }, 'default_check_interval'],
    [{ default_check_interval: 86401 }, 'default_check_interval'],
    [{ default_timeout: 4 }, 'default_timeout'],
    [{ default_timeout: 301 }, 'default_timeout'],
    [{ theme: 'blue' }, 'theme'],
    [{ email_notifications: 'no' }, 'email_notifications'],
    [{ default_locations: [''] }, 'default_locations'],
    [{ language: 'de' }, 'language'],
    [{ theme: null }, 'theme'],
  ])('refuses %j and saves nothing', async (body, field) => {
    const res = await api('put', '/preferences').send({ theme: 'light', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toContain(field);
    expect((await api('get', '/preferences')).body.data).toEqual(DEFAULTS);
  });

  it('stores the canonical name of a time zone', async () => {
    const res = await api('put', '/preferences').send({ timezone: 'america/new_york' });
    expect(res.status).toBe(200);
    expect(res.body.data.timezone).toBe('America/New_York');
  });

  it("gives new monitors the caller's default interval, timeout and locations", async () => {
    await api('put', '/preferences').send({ default_check_interval: 60, default_timeout: 10, default_locations: ['eu-west'] });
    const created = await api('post', '/monitors').send({ name: 'Shop', url: 'https://shop.example/', type: 'http' });
    expect(created.status).toBe(201);
    const [row] = await h.ds.query('SELECT check_interval, timeout, locations FROM monitors WHERE id = $1', [created.body.data.id]);
    expect(row).toEqual({ check_interval: 60, timeout: 10, locations: ['eu-west'] });
    const explicit = await api('post', '/monitors').send({ name: 'Shop', url: 'https://shop.example/', type: 'http', check_interval: 120, timeout: 20, locations: [] });
    const [row2] = await h.ds.query('SELECT check_interval, timeout, locations FROM monitors WHERE id = $1', [explicit.body.data.id]);
    expect(row2).toEqual({ check_interval: 120, timeout: 20, locations: [] });
    const others = await api('post', '/monitors', otherAuth).send({ name: 'Shop', url: 'https://shop.example/', type: 'http' });
    const [row3] = await h.ds.query('SELECT check_interval, timeout FROM monitors WHERE id = $1', [others.body.data.id]);
    expect(row3).toEqual({ check_interval: 300, timeout: 30 });
  });
});
