import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let user: User;
let auth: string;
let otherAuth: string;
let other: User;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ user: other, auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, as = auth) =>
  request(h.app)[method](`/api/v1/maintenance-windows${path}`).set('Authorization', as);

const HOUR = 3_600_000;
const body = (monitorIds: number[], extra: Record<string, unknown> = {}) => ({
  name: 'Database upgrade',
  monitor_ids: monitorIds,
  starts_at: '2026-11-28T01:00:00Z',
  duration_minutes: 90,
  repeat: 'weekly',
  weekdays: [6],
  timezone: 'Europe/Paris',
  ...extra,
});

async function createWindow(payload: Record<string, unknown>, as = auth) {
  const res = await api('post', '', as).send(payload);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; monitor_ids: number[]; repeat: string; weekdays: number[] };
}

describe('POST /maintenance-windows', () => {
  it('answers 201 with the window', async () => {
    const a = await aMonitor(h.ds, user);
    const b = await aMonitor(h.ds, user);
    const res = await api('post', '').send(body([b.id, a.id]));
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Database upgrade',
      monitor_ids: [a.id, b.id].sort((x, y) => x - y),
      starts_at: '2026-11-28T01:00:00.000Z',
      duration_minutes: 90,
      repeat: 'weekly',
      weekdays: [6],
      timezone: 'Europe/Paris',
      key: null,
      managed_by: null,
      // A weekly window always has a next Saturday; which one depends on today.
      next_occurrence: { starts_at: expect.stringMatching(/Z$/), ends_at: expect.stringMatching(/Z$/) },
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('gives the occurrence in progress or the next one, and null once a one-off window is over', async () => {
    const m = await aMonitor(h.ds, user);
    const now = Date.now();
    const at = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
    const ongoing = await api('post', '').send(body([m.id], { repeat: 'none', weekdays: [], starts_at: at(now - HOUR), duration_minutes: 120 }));
    expect(ongoing.body.data.next_occurrence).toEqual({ starts_at: at(now - HOUR), ends_at: at(now + HOUR) });
    const later = await api('post', '').send(body([m.id], { repeat: 'none', weekdays: [], starts_at: at(now + 2 * HOUR), duration_minutes: 30 }));
    expect(later.body.data.next_occurrence).toEqual({ starts_at: at(now + 2 * HOUR), ends_at: at(now + 2 * HOUR + 30 * 60_000) });
    const over = await api('post', '').send(body([m.id], { repeat: 'none', weekdays: [], starts_at: at(now - 3 * HOUR), duration_minutes: 60 }));
    expect(over.body.data.next_occurrence).toBeNull();
    const listed = await api('get', '');
    expect(listed.body.data.map((w: { next_occurrence: unknown }) => w.next_occurrence)).toEqual([
      ongoing.body.data.next_occurrence,
      later.body.data.next_occurrence,
      null,
    ]);
  });

  it('names every missing and invalid field in one 400', async () => {
    const res = await api('post', '').send({ name: '', duration_minutes: 10_081, repeat: 'monthly', weekdays: [0, 8], timezone: 'Mars/Olympus', starts_at: 'soon' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['duration_minutes', 'monitor_ids', 'name', 'repeat', 'starts_at', 'timezone', 'weekdays']);
    expect(res.body.error.details.monitor_ids).toEqual(['monitor_ids is required']);
  });

  it("refuses another user's monitor, naming monitor_ids, and weekdays on a daily window", async () => {
    const mine = await aMonitor(h.ds, user);
    const theirs = await aMonitor(h.ds, other);
    const foreign = await api('post', '').send(body([mine.id, theirs.id]));
    expectError(foreign, 400, 'VALIDATION_ERROR');
    expect(foreign.body.error.details.monitor_ids[0]).toContain(String(theirs.id));
    const daily = await api('post', '').send(body([mine.id], { repeat: 'daily' }));
    expectError(daily, 400, 'VALIDATION_ERROR');
    expect(Object.keys(daily.body.error.details)).toEqual(['weekdays']);
    expectError(await api('post', '').send(body([mine.id], { duration_minutes: 0 })), 400, 'VALIDATION_ERROR');
  });
});

describe('reading, changing and deleting windows', () => {
  it('lists only the caller\'s windows, paginated', async () => {
    const m = await aMonitor(h.ds, user);
    const first = await createWindow(body([m.id], { name: 'One' }));
    const second = await createWindow(body([m.id], { name: 'Two' }));
    await createWindow(body([(await aMonitor(h.ds, other)).id]), otherAuth);
    const res = await api('get', '?limit=1&page=2');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2, has_next: false, has_prev: true });
    expect(res.body.data.map((w: { id: number }) => w.id)).toEqual([second.id]);
    expect((await api('get', `/${first.id}`)).body.data.name).toBe('One');
  });

  it('answers 404 MAINTENANCE_WINDOW_NOT_FOUND for an unknown window or another user\'s, on every verb', async () => {
    const theirs = await createWindow(body([(await aMonitor(h.ds, other)).id]), otherAuth);
    for (const path of [`/${theirs.id}`, '/999999', '/abc']) {
      expectError(await api('get', path), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
      expectError(await api('patch', path).send({ name: 'Mine now' }), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
      expectError(await api('put', path).send({ name: 'Mine now' }), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
      expectError(await api('delete', path), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    }
    expect((await api('get', `/${theirs.id}`, otherAuth)).body.data.name).toBe('Database upgrade');
  });

  it('changes only the fields given, drops weekdays when no longer weekly, and deletes', async () => {
    const a = await aMonitor(h.ds, user);
    const b = await aMonitor(h.ds, user);
    const w = await createWindow(body([a.id]));
    const patched = await api('patch', `/${w.id}`).send({ duration_minutes: 30, monitor_ids: [b.id] });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Database upgrade', duration_minutes: 30, monitor_ids: [b.id], repeat: 'weekly', weekdays: [6] });
    const daily = await api('put', `/${w.id}`).send({ repeat: 'daily' });
    expect(daily.body.data).toMatchObject({ repeat: 'daily', weekdays: [] });
    expectError(await api('patch', `/${w.id}`).send({ weekdays: [1] }), 400, 'VALIDATION_ERROR');
    expectError(await api('patch', `/${w.id}`).send({ monitor_ids: [(await aMonitor(h.ds, other)).id] }), 400, 'VALIDATION_ERROR');
    const deleted = await api('delete', `/${w.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Maintenance window deleted');
    expectError(await api('get', `/${w.id}`), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
  });
});

describe('GET /monitors/{id} and maintenance', () => {
  it('lists the next 5 occurrences of its windows, the active one first, and in_maintenance', async () => {
    const m = await aMonitor(h.ds, user);
    const now = Date.now();
    // A daily window active now (began 30 minutes ago) and a one-off tomorrow + 2 h.
    const daily = await createWindow(body([m.id], { name: 'Nightly', repeat: 'daily', weekdays: [], starts_at: new Date(now - HOUR / 2).toISOString(), duration_minutes: 60, timezone: 'UTC' }));
    const once = await createWindow(body([m.id], { name: 'Once', repeat: 'none', weekdays: [], starts_at: new Date(now + 26 * HOUR).toISOString(), duration_minutes: 15 }));
    await h.ds.query(`UPDATE monitors SET in_maintenance = true WHERE id = $1`, [m.id]);
    const res = await request(h.app).get(`/api/v1/monitors/${m.id}`).set('Authorization', auth);
    expect(res.status).toBe(200);
    expect(res.body.data.in_maintenance).toBe(true);
    const list = res.body.data.maintenance as { id: number; name: string; starts_at: string; ends_at: string }[];
    expect(list.map((o) => o.id)).toEqual([daily.id, daily.id, once.id, daily.id, daily.id]);
    expect(list[0]).toEqual({ id: daily.id, name: 'Nightly', starts_at: new Date(now - HOUR / 2).toISOString(), ends_at: new Date(now + HOUR / 2).toISOString() });
    expect(list[2]).toEqual({ id: once.id, name: 'Once', starts_at: new Date(now + 26 * HOUR).toISOString(), ends_at: new Date(now + 26 * HOUR + 15 * 60_000).toISOString() });
    // The list does not carry it; deleting the monitor unlinks it from its windows.
    const listed = await request(h.app).get('/api/v1/monitors').set('Authorization', auth);
    expect(listed.body.data[0]).not.toHaveProperty('maintenance');
    expect(listed.body.data[0].in_maintenance).toBe(true);
    await request(h.app).delete(`/api/v1/monitors/${m.id}`).set('Authorization', auth).expect(200);
    expect((await api('get', `/${once.id}`)).body.data.monitor_ids).toEqual([]);
  });

  it('shows the maintenance flag of each recorded check', async () => {
    const m = await aMonitor(h.ds, user);
    await h.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time, maintenance) VALUES ($1, now() - interval '1 minute', false, 503, 40, true)`, [m.id]);
    const res = await request(h.app).get(`/api/v1/monitors/${m.id}/results`).set('Authorization', auth);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ status: 'down', maintenance: true });
  });
});
