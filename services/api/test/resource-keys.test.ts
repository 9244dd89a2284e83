import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';

/** `key` and `managed_by` on the resources a configuration file declares (docs/config-as-code.md). */
const h = useApiHarness();
let user: User;
let auth: string;
let otherAuth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const send = (method: 'post' | 'patch', path: string, body: Record<string, unknown>, as = auth) =>
  request(h.app)[method](`/api/v1${path}`).set('Authorization', as).send(body);

/** A body of each kind, its monitors made for it. */
async function bodies(): Promise<Record<string, Record<string, unknown>>> {
  const m = await aMonitor(h.ds, user);
  return {
    '/monitors': { name: 'API', type: 'http', url: 'https://api.example.test/health' },
    '/channels': { name: 'Ops', type: 'slack', config: { webhook_url: 'https://hooks.slack.example/services/T/B/x' } },
    '/maintenance-windows': { name: 'Upgrade', monitor_ids: [m.id], starts_at: '2026-11-28T01:00:00.000Z', duration_minutes: 60, repeat: 'none', timezone: 'UTC' },
    '/status-pages': { slug: `page-${m.id}`, title: 'Acme', monitor_ids: [m.id] },
  };
}

describe.each(['/monitors', '/channels', '/maintenance-windows', '/status-pages'])('%s', (path) => {
  it('stores the key and managed_by given, answers them, and clears them with null', async () => {
    const body = (await bodies())[path]!;
    const created = await send('post', path, { ...body, key: 'edge-1', managed_by: 'config' });
    expect(created.status).toBe(201);
    expect([created.body.data.key, created.body.data.managed_by]).toEqual(['edge-1', 'config']);
    const cleared = await send('patch', `${path}/${created.body.data.id}`, { managed_by: null });
    expect(cleared.status).toBe(200);
    expect([cleared.body.data.key, cleared.body.data.managed_by]).toEqual(['edge-1', null]);
    const renamed = await send('patch', `${path}/${created.body.data.id}`, { key: null });
    expect([renamed.body.data.key, renamed.body.data.managed_by]).toEqual([null, null]);
  });

  it('answers 409 RESOURCE_EXISTS for a key another resource of the kind has, but not for another organization', async () => {
    const all = await bodies();
    const body = all[path]!;
    expect((await send('post', path, { ...body, key: 'edge-1' })).status).toBe(201);
    const second = path === '/status-pages' ? { ...body, slug: `${String(body.slug)}-b` } : body;
    expectError(await send('post', path, { ...second, key: 'edge-1' }), 409, 'RESOURCE_EXISTS');
    const other = await send('post', path, { ...second, key: 'edge-2' });
    expect(other.status).toBe(201);
    expectError(await send('patch', `${path}/${other.body.data.id}`, { key: 'edge-1' }), 409, 'RESOURCE_EXISTS');
    if (path === '/monitors' || path === '/channels') expect((await send('post', path, { ...body, key: 'edge-1' }, otherAuth)).status).toBe(201);
  });

  it('refuses a malformed key and a managed_by other than config with 400 VALIDATION_ERROR', async () => {
    const body = (await bodies())[path]!;
    const badKey = await send('post', path, { ...body, key: 'Has Spaces' });
    expectError(badKey, 400, 'VALIDATION_ERROR');
    expect(Object.keys(badKey.body.error.details)).toEqual(['key']);
    const badOwner = await send('post', path, { ...body, managed_by: 'terraform' });
    expectError(badOwner, 400, 'VALIDATION_ERROR');
    expect(Object.keys(badOwner.body.error.details)).toEqual(['managed_by']);
  });
});
