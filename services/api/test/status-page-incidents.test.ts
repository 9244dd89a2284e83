import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';

/** The operators' incidents of a status page (docs/status-pages.md, "Incidents"). */
const h = useApiHarness();
let user: User;
let auth: string;
let otherAuth: string;
let pageId: number;
let monitorIds: number[];

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
  const a = await aMonitor(h.ds, user, { name: 'Shop' });
  const b = await aMonitor(h.ds, user, { name: 'API' });
  monitorIds = [a.id, b.id];
  const res = await request(h.app)
    .post('/api/v1/status-pages')
    .set('Authorization', auth)
    .send({ slug: `acme-${a.id}`, title: 'Acme', monitor_ids: monitorIds });
  expect(res.status).toBe(201);
  pageId = res.body.data.id;
});

const api = (method: 'get' | 'post' | 'patch' | 'delete', path: string, as = auth, page = pageId) =>
  request(h.app)[method](`/api/v1/status-pages/${page}/incidents${path}`).set('Authorization', as);

interface Incident {
  id: number;
  status: string;
  resolved_at: string | null;
  started_at: string;
  updates: { id: number; status: string; message: string; created_at: string }[];
}

async function anIncident(body: Record<string, unknown> = {}): Promise<Incident> {
  const res = await api('post', '').send({ title: 'Checkout errors', impact: 'major', message: 'Looking into it', ...body });
  expect(res.status).toBe(201);
  return res.body.data as Incident;
}

describe('POST /status-pages/{id}/incidents', () => {
  it('answers 201 with the incident and its first update, investigating by default', async () => {
    const res = await api('post', '').send({
      title: 'Checkout errors',
      impact: 'major',
      monitor_ids: [monitorIds[1], monitorIds[0]],
      message: 'Some *payments* fail',
    });
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      title: 'Checkout errors',
      impact: 'major',
      status: 'investigating',
      monitor_ids: [monitorIds[1], monitorIds[0]],
      started_at: expect.stringMatching(/^\d{4}-.*\.\d{3}Z$/),
      resolved_at: null,
      published: true,
      updates: [
        {
          id: expect.any(Number),
          status: 'investigating',
          message: 'Some *payments* fail',
          message_html: '<p>Some <em>payments</em> fail</p>\n',
          created_at: expect.stringMatching(/Z$/),
        },
      ],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('takes a start in the past and a first status; resolved sets resolved_at at once', async () => {
    const incident = await anIncident({ started_at: '2026-01-05T10:00:00Z', status: 'resolved' });
    expect(incident.started_at).toBe('2026-01-05T10:00:00.000Z');
    expect(incident.status).toBe('resolved');
    expect(incident.resolved_at).toEqual(expect.stringMatching(/Z$/));
  });

  it('names every missing and invalid field at once', async () => {
    const res = await api('post', '').send({ impact: 'catastrophic', status: 'fixed', monitor_ids: [0, 0] });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['impact', 'message', 'monitor_ids', 'status', 'title']);
  });

  it.each([
    ['resolved_at', '2026-01-01T00:00:00Z'],
    ['id', 5],
    ['updates', []],
  ])('refuses the field %s, which is never writable', async (field, value) => {
    const res = await api('post', '').send({ title: 'T', impact: 'minor', message: 'M', [field]: value });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[field]).toEqual([`${field} is not a known field`]);
  });

  it('refuses a message over 10,000 characters and an empty one', async () => {
    for (const message of ['', 'x'.repeat(10_001)]) {
      const res = await api('post', '').send({ title: 'T', impact: 'minor', message });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details)).toEqual(['message']);
    }
  });

  it('refuses a monitor that is not on the page, another organization’s included, and creates nothing', async () => {
    const mineElsewhere = await aMonitor(h.ds, user);
    const { user: stranger } = await aCaller(h.ds);
    const theirs = await aMonitor(h.ds, stranger);
    const res = await api('post', '').send({
      title: 'T',
      impact: 'minor',
      message: 'M',
      monitor_ids: [monitorIds[0], mineElsewhere.id, theirs.id],
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.monitor_ids[0]).toContain(`${mineElsewhere.id}, ${theirs.id}`);
    expect((await api('get', '')).body.pagination.total).toBe(0);
  });

  it('refuses a start in the future', async () => {
    const res = await api('post', '').send({
      title: 'T',
      impact: 'minor',
      message: 'M',
      started_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ started_at: ['started_at must not be in the future'] });
  });
});

describe('updates', () => {
  it('adds an update newest first and moves the status; resolved sets resolved_at, another status reopens', async () => {
    const incident = await anIncident();
    const identified = await api('post', `/${incident.id}/updates`).send({ status: 'identified', message: 'A bad deploy' });
    expect(identified.status).toBe(201);
    expect(identified.body.data).toMatchObject({ status: 'identified', resolved_at: null });
    expect(identified.body.data.updates.map((u: { status: string }) => u.status)).toEqual(['identified', 'investigating']);

    const resolved = await api('post', `/${incident.id}/updates`).send({ status: 'resolved', message: 'Rolled back' });
    expect(resolved.body.data.status).toBe('resolved');
    const resolvedAt: string = resolved.body.data.resolved_at;
    expect(Date.parse(resolvedAt)).toBeGreaterThanOrEqual(Date.parse(incident.started_at));

    // A note after resolution keeps the time it was resolved.
    const note = await api('post', `/${incident.id}/updates`).send({ status: 'resolved', message: 'Post-mortem to follow' });
    expect(note.body.data.resolved_at).toBe(resolvedAt);

    const reopened = await api('post', `/${incident.id}/updates`).send({ status: 'monitoring', message: 'Errors again' });
    expect(reopened.body.data).toMatchObject({ status: 'monitoring', resolved_at: null });
    expect(reopened.body.data.updates).toHaveLength(5);
  });

  it('holds at most 100 updates: the next is 409 INVALID_STATE and adds nothing', async () => {
    const incident = await anIncident();
    await h.ds.query(
      `INSERT INTO status_page_incident_updates (incident_id, status, message) SELECT $1, 'monitoring', 'Still watching' FROM generate_series(1, 99)`,
      [incident.id],
    );
    const res = await api('post', `/${incident.id}/updates`).send({ status: 'resolved', message: 'Done' });
    expectError(res, 409, 'INVALID_STATE');
    const after = await api('get', `/${incident.id}`);
    expect(after.body.data).toMatchObject({ status: 'investigating', resolved_at: null });
    expect(after.body.data.updates).toHaveLength(100);
  });

  it('needs a status and a message', async () => {
    const incident = await anIncident();
    const res = await api('post', `/${incident.id}/updates`).send({ status: 'done' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['message', 'status']);
  });
});

describe('PATCH, GET, list and DELETE', () => {
  it('changes the given fields only; status is not a field of PATCH', async () => {
    const incident = await anIncident({ monitor_ids: [monitorIds[0]] });
    const res = await api('patch', `/${incident.id}`).send({ impact: 'critical', monitor_ids: [] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Checkout errors', impact: 'critical', monitor_ids: [], status: 'investigating' });
    const refused = await api('patch', `/${incident.id}`).send({ status: 'resolved' });
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect((await api('get', `/${incident.id}`)).body.data.status).toBe('investigating');
  });

  it('refuses a start after the resolution', async () => {
    const incident = await anIncident({ started_at: '2026-01-05T10:00:00Z', status: 'resolved' });
    const later = new Date(Date.parse(incident.resolved_at!) + 1000).toISOString();
    const res = await api('patch', `/${incident.id}`).send({ started_at: later });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ started_at: ['started_at must not be after the incident was resolved'] });
  });

  it('lists the page’s incidents, newest start first, with pagination', async () => {
    const old = await anIncident({ started_at: '2026-01-01T00:00:00Z' });
    const recent = await anIncident();
    const middle = await anIncident({ started_at: '2026-02-01T00:00:00Z' });
    const res = await api('get', '?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: Incident) => i.id)).toEqual([recent.id, middle.id]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2, has_next: true, has_prev: false });
    expect((await api('get', '?limit=2&page=2')).body.data.map((i: Incident) => i.id)).toEqual([old.id]);
  });

  it('deletes an incident with its updates; deleting the page deletes its incidents', async () => {
    const incident = await anIncident();
    const res = await api('delete', `/${incident.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Incident deleted');
    expectError(await api('get', `/${incident.id}`), 404, 'INCIDENT_NOT_FOUND');
    const [{ n }]: { n: number }[] = await h.ds.query(
      `SELECT count(*)::int AS n FROM status_page_incident_updates WHERE incident_id = $1`,
      [incident.id],
    );
    expect(n).toBe(0);

    const kept = await anIncident();
    await request(h.app).delete(`/api/v1/status-pages/${pageId}`).set('Authorization', auth).expect(200);
    const rows: unknown[] = await h.ds.query(`SELECT id FROM status_page_incidents WHERE id = $1`, [kept.id]);
    expect(rows).toEqual([]);
  });

  it('deleting a monitor takes it off the incidents that named it', async () => {
    const incident = await anIncident({ monitor_ids: monitorIds });
    await request(h.app).delete(`/api/v1/monitors/${monitorIds[0]}`).set('Authorization', auth).expect(200);
    expect((await api('get', `/${incident.id}`)).body.data.monitor_ids).toEqual([monitorIds[1]]);
  });
});

describe('tenancy', () => {
  it('answers 404 STATUS_PAGE_NOT_FOUND on every route to another organization, and changes nothing', async () => {
    const incident = await anIncident();
    const paths: ['get' | 'post' | 'patch' | 'delete', string, object?][] = [
      ['get', ''],
      ['post', '', { title: 'T', impact: 'minor', message: 'M' }],
      ['get', `/${incident.id}`],
      ['patch', `/${incident.id}`, { title: 'Mine now' }],
      ['post', `/${incident.id}/updates`, { status: 'resolved', message: 'Mine now' }],
      ['delete', `/${incident.id}`],
    ];
    for (const [method, path, body] of paths) {
      const res = await api(method, path, otherAuth).send(body);
      expectError(res, 404, 'STATUS_PAGE_NOT_FOUND');
      expect(res.text).not.toContain('Checkout errors');
    }
    expect((await api('get', `/${incident.id}`)).body.data).toMatchObject({
      title: 'Checkout errors',
      status: 'investigating',
      updates: [expect.anything()],
    });
  });

  it('answers 404 INCIDENT_NOT_FOUND for an incident of another page, or a malformed or unknown id', async () => {
    const incident = await anIncident();
    const m = await aMonitor(h.ds, user);
    const other = await request(h.app)
      .post('/api/v1/status-pages')
      .set('Authorization', auth)
      .send({ slug: `other-${m.id}`, title: 'Other', monitor_ids: [m.id] });
    for (const path of [`/${incident.id}`, '/abc', '/2147480000']) {
      expectError(await api('get', path, auth, other.body.data.id), 404, 'INCIDENT_NOT_FOUND');
      expectError(await api('patch', path, auth, other.body.data.id).send({ title: 'X' }), 404, 'INCIDENT_NOT_FOUND');
      expectError(await api('delete', path, auth, other.body.data.id), 404, 'INCIDENT_NOT_FOUND');
    }
    expectError(await request(h.app).get('/api/v1/status-pages/x/incidents').set('Authorization', auth), 404, 'STATUS_PAGE_NOT_FOUND');
  });

  it('lets a viewer of the organization read and refuses them a write', async () => {
    const incident = await anIncident();
    const viewer = await aCaller(h.ds);
    const [org]: { id: number }[] = await h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [user.id]);
    await h.ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'viewer')`, [
      org!.id,
      viewer.user.id,
    ]);
    const [token]: { id: number }[] = await h.ds.query(`SELECT id FROM api_tokens WHERE user_id = $1`, [viewer.user.id]);
    await h.ds.query(`UPDATE api_tokens SET organization_id = $1 WHERE id = $2`, [org!.id, token!.id]);
    expect((await api('get', `/${incident.id}`, viewer.auth)).status).toBe(200);
    const res = await api('post', `/${incident.id}/updates`, viewer.auth).send({ status: 'resolved', message: 'Not mine to say' });
    expectError(res, 403, 'INSUFFICIENT_PERMISSIONS');
  });
});
