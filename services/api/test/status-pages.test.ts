import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { parseInput } from '../src/http/validate';
import { buildOpenApiDocument } from '../src/openapi/document';
import { StatusPageFieldsDto } from '../src/status-pages/status-page.dto';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';
import { documentContract } from './support/document-contract';

const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let user: User;
let auth: string;
let otherAuth: string;
let other: User;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ user: other, auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, as = auth) =>
  request(h.app)[method](`/api/v1/status-pages${path}`).set('Authorization', as);

async function createPage(body: Record<string, unknown>, as = auth) {
  const res = await api('post', '', as).send(body);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; slug: string; monitors: { id: number; name: string }[]; published: boolean };
}

describe('POST /status-pages', () => {
  it('answers 201 with the page, its monitors in the order given and its public url', async () => {
    const a = await aMonitor(h.ds, user, { name: 'Shop' });
    const b = await aMonitor(h.ds, user, { name: 'API' });
    const res = await api('post', '').send({ slug: 'acme-2', title: 'Acme', monitor_ids: [b.id, a.id] });
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      slug: 'acme-2',
      title: 'Acme',
      description: null,
      monitors: [
        { id: b.id, name: 'API' },
        { id: a.id, name: 'Shop' },
      ],
      sections: [],
      published: true,
      auto_incidents: false,
      custom_domain: null,
      url: 'https://status.example.test/status/acme-2',
      key: null,
      managed_by: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('keeps published false and a description when given', async () => {
    const m = await aMonitor(h.ds, user);
    const page = await createPage({ slug: 'quiet', title: 'Quiet', description: 'Not yet', monitor_ids: [m.id], published: false });
    expect(page).toEqual(expect.objectContaining({ published: false, description: 'Not yet' }));
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(65)],
    ['upper case', 'Acme'],
    ['a space', 'ac me'],
    ['an underscore', 'ac_me'],
    ['not a string', 42],
  ])('refuses a slug with %s', async (_what, slug) => {
    const m = await aMonitor(h.ds, user);
    const res = await api('post', '').send({ slug, title: 'T', monitor_ids: [m.id] });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual(['slug']);
  });

  it('accepts a slug of exactly 3 and of exactly 64 characters', async () => {
    const m = await aMonitor(h.ds, user);
    await createPage({ slug: 'a-1', title: 'T', monitor_ids: [m.id] });
    await createPage({ slug: 'b'.repeat(64), title: 'T', monitor_ids: [m.id] });
  });

  it('answers 409 RESOURCE_EXISTS for a slug taken by anyone, and creates nothing', async () => {
    const mine = await aMonitor(h.ds, user);
    const theirs = await aMonitor(h.ds, other);
    await createPage({ slug: 'taken', title: 'First', monitor_ids: [theirs.id] }, otherAuth);
    expectError(await api('post', '').send({ slug: 'taken', title: 'Second', monitor_ids: [mine.id] }), 409, 'RESOURCE_EXISTS');
    const [{ count }] = await h.ds.query(`SELECT count(*)::int AS count FROM status_pages`);
    expect(count).toBe(1);
  });

  it("answers 400 naming monitor_ids for another user's or an unknown monitor", async () => {
    const mine = await aMonitor(h.ds, user);
    const theirs = await aMonitor(h.ds, other);
    for (const ids of [[mine.id, theirs.id], [mine.id, 999_999]]) {
      const res = await api('post', '').send({ slug: 'mixed', title: 'T', monitor_ids: ids });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details)).toEqual(['monitor_ids']);
      expect(res.body.error.details.monitor_ids[0]).toContain(String(ids[1]));
    }
    const [{ count }] = await h.ds.query(`SELECT count(*)::int AS count FROM status_pages`);
    expect(count).toBe(0);
  });

  it('needs 1 to 100 monitor ids without repeats', async () => {
    const m = await aMonitor(h.ds, user);
    for (const monitor_ids of [[], Array.from({ length: 101 }, (_, i) => i + 1), [m.id, m.id], ['x']]) {
      const res = await api('post', '').send({ slug: 'counted', title: 'T', monitor_ids });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details)).toEqual(['monitor_ids']);
    }
  });

  it('names every missing required field and refuses unknown ones', async () => {
    const res = await api('post', '').send({ description: 'x' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['monitor_ids', 'slug', 'title']);
    const m = await aMonitor(h.ds, user);
    const extra = await api('post', '').send({ slug: 'extra', title: 'T', monitor_ids: [m.id], owner_id: other.id });
    expectError(extra, 400, 'VALIDATION_ERROR');
    expect(Object.keys(extra.body.error.details)).toEqual(['owner_id']);
  });

  it('needs a caller', async () => {
    expectError(await request(h.app).post('/api/v1/status-pages').send({}), 401, 'UNAUTHORIZED');
  });
});

describe('GET /status-pages', () => {
  it("lists only the caller's pages, id order, with all six pagination fields", async () => {
    const m = await aMonitor(h.ds, user);
    const o = await aMonitor(h.ds, other);
    for (const slug of ['one', 'two', 'three']) await createPage({ slug, title: slug, monitor_ids: [m.id] });
    await createPage({ slug: 'theirs', title: 'x', monitor_ids: [o.id] }, otherAuth);
    const res = await api('get', '?limit=2&page=2');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { slug: string }) => p.slug)).toEqual(['three']);
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2, has_next: false, has_prev: true });
  });

  it('refuses a limit outside 1..100', async () => {
    expectError(await api('get', '?limit=101'), 400, 'VALIDATION_ERROR');
    expectError(await api('get', '?page=0'), 400, 'VALIDATION_ERROR');
  });
});

describe('GET, PUT, PATCH and DELETE /status-pages/{id}', () => {
  it("answers 404 STATUS_PAGE_NOT_FOUND for another user's page and an unknown one, and changes nothing", async () => {
    const o = await aMonitor(h.ds, other);
    const theirs = await createPage({ slug: 'theirs', title: 'Theirs', monitor_ids: [o.id] }, otherAuth);
    for (const path of [`/${theirs.id}`, '/999999', '/abc']) {
      expectError(await api('get', path), 404, 'STATUS_PAGE_NOT_FOUND');
      expectError(await api('patch', path).send({ title: 'Mine now' }), 404, 'STATUS_PAGE_NOT_FOUND');
      expectError(await api('put', path).send({ title: 'Mine now' }), 404, 'STATUS_PAGE_NOT_FOUND');
      expectError(await api('delete', path), 404, 'STATUS_PAGE_NOT_FOUND');
    }
    const res = await api('get', `/${theirs.id}`, otherAuth);
    expect(res.body.data.title).toBe('Theirs');
  });

  it('PATCH and PUT change only the fields given; monitor_ids replaces the list in its order', async () => {
    const a = await aMonitor(h.ds, user, { name: 'A' });
    const b = await aMonitor(h.ds, user, { name: 'B' });
    const c = await aMonitor(h.ds, user, { name: 'C' });
    const page = await createPage({ slug: 'edit-me', title: 'Before', description: 'D', monitor_ids: [a.id, b.id] });
    const patched = await api('patch', `/${page.id}`).send({ title: 'After' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual(expect.objectContaining({ slug: 'edit-me', title: 'After', description: 'D', published: true }));
    const put = await api('put', `/${page.id}`).send({ monitor_ids: [c.id, a.id], description: null, published: false, slug: 'edited' });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(
      expect.objectContaining({
        slug: 'edited',
        title: 'After',
        description: null,
        published: false,
        url: 'https://status.example.test/status/edited',
        monitors: [
          { id: c.id, name: 'C' },
          { id: a.id, name: 'A' },
        ],
      }),
    );
    expect((await api('get', `/${page.id}`)).body.data.monitors.map((m: { id: number }) => m.id)).toEqual([c.id, a.id]);
  });

  it("refuses another user's monitor and a taken slug on update", async () => {
    const a = await aMonitor(h.ds, user);
    const o = await aMonitor(h.ds, other);
    const page = await createPage({ slug: 'mine', title: 'T', monitor_ids: [a.id] });
    await createPage({ slug: 'theirs', title: 'T', monitor_ids: [o.id] }, otherAuth);
    const foreign = await api('patch', `/${page.id}`).send({ monitor_ids: [o.id] });
    expectError(foreign, 400, 'VALIDATION_ERROR');
    expect(Object.keys(foreign.body.error.details)).toEqual(['monitor_ids']);
    expectError(await api('patch', `/${page.id}`).send({ slug: 'theirs' }), 409, 'RESOURCE_EXISTS');
    expect((await api('get', `/${page.id}`)).body.data).toEqual(expect.objectContaining({ slug: 'mine', monitors: [expect.objectContaining({ id: a.id })] }));
  });

  it('keeps its own slug on an update that repeats it', async () => {
    const a = await aMonitor(h.ds, user);
    const page = await createPage({ slug: 'same', title: 'T', monitor_ids: [a.id] });
    expect((await api('patch', `/${page.id}`).send({ slug: 'same', title: 'U' })).status).toBe(200);
  });

  it('DELETE answers {message} and the page is gone', async () => {
    const a = await aMonitor(h.ds, user);
    const page = await createPage({ slug: 'bye', title: 'T', monitor_ids: [a.id] });
    const res = await api('delete', `/${page.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'meta']);
    expectError(await api('get', `/${page.id}`), 404, 'STATUS_PAGE_NOT_FOUND');
  });

  it('deleting a monitor removes it from every page', async () => {
    const a = await aMonitor(h.ds, user, { name: 'Stays' });
    const b = await aMonitor(h.ds, user, { name: 'Goes' });
    const one = await createPage({ slug: 'page-one', title: 'T', monitor_ids: [b.id, a.id] });
    const two = await createPage({ slug: 'page-two', title: 'T', monitor_ids: [a.id, b.id] });
    const deleted = await request(h.app).delete(`/api/v1/monitors/${b.id}`).set('Authorization', auth);
    expect(deleted.status).toBe(200);
    for (const page of [one, two]) {
      expect((await api('get', `/${page.id}`)).body.data.monitors).toEqual([{ id: a.id, name: 'Stays' }]);
    }
  });
});

describe('the StatusPageUpdate schema of the OpenAPI document', () => {
  const accepts = async (body: unknown): Promise<boolean> =>
    parseInput(StatusPageFieldsDto, body).then(
      () => true,
      () => false,
    );

  it('accepts exactly the bodies the DTO accepts, and states the bounds', async () => {
    const bodies = [
      {},
      { slug: 'abc' },
      { slug: 'ab' },
      { slug: 'a'.repeat(64) },
      { slug: 'a'.repeat(65) },
      { slug: 'Abc' },
      { slug: null },
      { title: '' },
      { title: 't'.repeat(200) },
      { title: 't'.repeat(201) },
      { description: null },
      { description: 'd'.repeat(2000) },
      { description: 'd'.repeat(2001) },
      { monitor_ids: [] },
      { monitor_ids: [1, 2] },
      { monitor_ids: [1, 1] },
      { monitor_ids: Array.from({ length: 100 }, (_, i) => i + 1) },
      { monitor_ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      { monitor_ids: [0] },
      { monitor_ids: [1.5] },
      { published: false },
      { published: 'yes' },
      { owner_id: 1 },
    ];
    const schema = { $ref: '#/components/schemas/StatusPageUpdate' };
    for (const body of bodies) {
      const byDocument = documentContract().schemaProblems(schema, body).length === 0;
      expect([JSON.stringify(body).slice(0, 80), byDocument]).toEqual([JSON.stringify(body).slice(0, 80), await accepts(body)]);
    }
    const { StatusPageCreate, StatusPageUpdate } = buildOpenApiDocument().components.schemas;
    expect(StatusPageCreate!.required).toEqual(expect.arrayContaining(['slug', 'title', 'monitor_ids']));
    expect(StatusPageUpdate!.properties!.monitor_ids).toEqual(expect.objectContaining({ minItems: 1, maxItems: 100 }));
    expect(StatusPageUpdate!.properties!.slug).toEqual(expect.objectContaining({ minLength: 3, maxLength: 64 }));
  });
});
