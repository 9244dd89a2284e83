import request from 'supertest';
import { OPERATIONS } from '../src/openapi/document';
import { OWNER_MARKER, ownedIdFor, publishedValueFor, unpublishedValueFor, useOwnedWorld } from './support/tenants';

/**
 * Every operation of the OpenAPI document, driven anonymously, as another user and as the owner
 * of the resources it names. The list comes from the document, which the route-coverage test
 * holds equal to the routes the app serves: a new route is in this matrix without anyone
 * adding it, and one that names a resource kind the matrix does not know fails it.
 *
 * - anonymous: 401 on every operation that needs a caller;
 * - another user: 403 or 404 on each of the owner's resources, no answer that shows anything
 *   of the owner's, and nothing the owner sees has changed afterwards;
 * - the owner: no 5xx, and every read of an own resource is 200;
 * - a public read of a published resource (a status page's slug) is 200 for all three, and of an
 *   unpublished one 404 NOT_FOUND for all three (docs/status-pages.md).
 */
jest.setTimeout(120_000);

const owned = useOwnedWorld();

// The documents (OpenAPI, the config file's JSON Schema) are anyone's: no caller, no tenant.
const api = OPERATIONS.filter((op) => op.path.startsWith('/api/v1/') && op.path !== '/api/v1/openapi.json' && op.path !== '/api/v1/config.schema.json');

function concretePath(op: (typeof api)[number]): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'provider') return 'github';
    const id = ownedIdFor(op.path, owned.world, name);
    if (id !== undefined) return String(id);
    const published = publishedValueFor(op.path, owned.world);
    if (published !== undefined) return published;
    const unpublished = unpublishedValueFor(op.path, owned.world);
    if (unpublished !== undefined) return unpublished;
    // A public operation names no one's resource: any value will do.
    if (op.access === 'public' || op.access === 'outside') return 'not-a-resource';
    throw new Error(`${op.path}: the authorization matrix does not know whose {${name}} this is; add its resource kind to test/support/tenants.ts`);
  });
}

/** A body that would do something for the owner: the documented example, aimed at the owner's resources. */
function bodyFor(op: (typeof api)[number]): unknown {
  if (op.path === '/api/v1/monitors/bulk') return { action: 'pause', monitor_ids: [owned.world.ids.monitors] };
  if (op.path.endsWith('/agents') && op.path.includes('/monitors/')) return { agent_ids: [owned.world.ids.agents] };
  return op.body?.example ?? undefined;
}

function send(op: (typeof api)[number], auth: string | undefined): request.Test {
  const req = request(owned.h.app)[op.method](concretePath(op));
  if (auth) req.set('Authorization', auth);
  const body = bodyFor(op);
  return op.method !== 'get' && body !== undefined ? req.send(body as object) : req;
}

/** What the owner sees of everything they hold. */
async function ownersView(): Promise<string> {
  const paths = [
    `/api/v1/monitors/${owned.world.ids.monitors}`,
    `/api/v1/monitors/${owned.world.ids.monitors}/alerts`,
    `/api/v1/monitors/${owned.world.ids.monitors}/agents`,
    `/api/v1/agents/${owned.world.ids.agents}`,
    `/api/v1/agents/${owned.world.ids.agents}/credentials`,
    `/api/v1/notifications/${owned.world.ids.notifications}`,
    `/api/v1/status-pages/${owned.world.ids['status-pages']}`,
    `/api/v1/maintenance-windows/${owned.world.ids['maintenance-windows']}`,
    `/api/v1/channels/${owned.world.ids.channels}`,
    '/api/v1/auth/tokens',
    '/api/v1/preferences',
  ];
  // One after another: the token's first use sets its last_used_at, which /auth/tokens shows;
  // read concurrently, that list could be answered before the update lands.
  const views: { data?: unknown; error?: unknown }[] = [];
  for (const p of paths) views.push((await request(owned.h.app).get(p).set('Authorization', owned.world.owner.auth)).body);
  return JSON.stringify(views.map((v) => v.data ?? v.error));
}

describe('authorization matrix of every documented operation', () => {
  it('covers every operation under /api/v1', () => {
    expect(api.length).toBeGreaterThan(40);
  });

  it.each(api.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('anonymous: %s', async (_name, op) => {
    const res = await send(op, undefined);
    const access = op.access ?? 'caller';
    if (access === 'caller' || access === 'session') expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    else expect(res.status).toBeLessThan(500);
    if (publishedValueFor(op.path, owned.world) !== undefined) expect(res.status).toBe(200);
    if (unpublishedValueFor(op.path, owned.world) !== undefined)
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it.each(['anonymous', 'another user', 'the owner'] as const)('an unpublished status page is 404 NOT_FOUND to %s', async (who) => {
    // Before the owner's deletions: the page exists, it is only unpublished.
    const auth = { anonymous: undefined, 'another user': owned.world.other.auth, 'the owner': owned.world.owner.auth }[who];
    const req = request(owned.h.app).get(`/api/v1/public/status-pages/${owned.world.slugs.unpublished}`);
    const res = await (auth ? req.set('Authorization', auth) : req);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(res.text).not.toContain(OWNER_MARKER);
  });

  describe('another user', () => {
    let before: string;
    beforeAll(async () => {
      before = await ownersView();
      expect(before).toContain(OWNER_MARKER);
    });
    afterAll(async () => {
      // Runs after every request of the other user: nothing of the owner's moved.
      expect(await ownersView()).toBe(before);
    });

    it.each(api.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
      const res = await send(op, owned.world.other.auth);
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toContain(OWNER_MARKER);
      if (ownedIdFor(op.path, owned.world) !== undefined) expect([403, 404]).toContain(res.status);
      if (publishedValueFor(op.path, owned.world) !== undefined) expect(res.status).toBe(200);
      // A bulk action answers per monitor: the owner's monitor is among the failed ones.
      if (op.path === '/api/v1/monitors/bulk') expect(res.body.data.succeeded).toEqual([]);
    });
  });

  describe('the owner', () => {
    // Deletions last, so each operation meets the resources it names.
    const ordered = [...api].sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    it.each(ordered.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
      const res = await send(op, owned.world.owner.auth);
      expect(res.status).toBeLessThan(500);
      if (op.method === 'get' && ownedIdFor(op.path, owned.world) !== undefined) expect(res.status).toBe(200);
      if (publishedValueFor(op.path, owned.world) !== undefined) expect(res.status).toBe(200);
      if (unpublishedValueFor(op.path, owned.world) !== undefined) expect(res.status).toBe(404);
      // The notifier beside the API carries the test send out (the email is only logged).
      if (op.path === '/api/v1/monitors/{id}/alerts/test') expect(res.status).toBe(200);
    });
  });
});
