import request from 'supertest';
import { createLogger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import type { OrganizationRole } from '@uptime/db';
import { aCaller, startFakeSendGrid, waitFor, type FakeSendGrid } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';
import { signedInSessionCookie } from './support/session-cookie';

const SECRET = 'organizations-test-session-secret-0123456789';
const PUBLIC_URL = 'https://uptime.example.test';
const h = useApiHarness({ SESSION_SECRET: SECRET, PUBLIC_URL });

// The invitation emails go out as in production: a notifier sends them through SendGrid's v3
// API, here a local server speaking it (SENDGRID_API_URL), so the links are read from the mails.
let sendgrid: FakeSendGrid;
let notifier: Notifier;
beforeAll(async () => {
  sendgrid = await startFakeSendGrid();
  notifier = await startNotifier({
    config: { ...h.config, mail: { from: 'uptime@example.test', sendgrid: { apiKey: sendgrid.apiKey, apiUrl: sendgrid.url } } },
    dataSource: h.ds,
    logger: createLogger({ level: h.config.logLevel, service: 'notifier-test' }),
  });
});
afterAll(async () => {
  await notifier?.close();
  await sendgrid?.close();
});

interface Person {
  id: number;
  email: string;
  auth: string;
}

let seq = 0;
async function aPerson(email?: string): Promise<Person> {
  seq += 1;
  const caller = await aCaller(h.ds, { email: email ?? `person${seq}-${Date.now()}@example.test`, name: `Person ${seq}` });
  return { id: caller.user.id, email: caller.user.email, auth: caller.auth };
}

const as = (who: Person) => ({
  get: (path: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', who.auth),
  post: (path: string, body: object = {}) => request(h.app).post(`/api/v1${path}`).set('Authorization', who.auth).send(body),
  patch: (path: string, body: object) => request(h.app).patch(`/api/v1${path}`).set('Authorization', who.auth).send(body),
  delete: (path: string) => request(h.app).delete(`/api/v1${path}`).set('Authorization', who.auth),
});

async function anOrganization(owner: Person, name = 'Platform team'): Promise<number> {
  const res = await as(owner).post('/organizations', { name });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

/** Setup only: the membership itself is what invitations make (tested below). */
async function join(organizationId: number, who: Person, role: OrganizationRole): Promise<void> {
  await h.ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)`, [organizationId, who.id, role]);
}

/** A token of `who` acting in the organization, made through the API. */
async function tokenIn(organizationId: number, who: Person, scope: 'read' | 'write' = 'write'): Promise<string> {
  const res = await as(who).post('/auth/tokens', { name: 'org', organization_id: organizationId, scope });
  expect(res.status).toBe(201);
  return `Bearer ${res.body.data.token as string}`;
}

const MONITOR = { name: 'Shop', url: 'https://shop.example.com/health', type: 'http', check_interval: 60 };

describe('organizations', () => {
  it('lists the personal organization, creates one with the caller as owner, reads, renames and deletes it', async () => {
    const ada = await aPerson();
    const listed = await as(ada).get('/organizations');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ role: 'owner', personal: true })]);
    expect(listed.body.pagination).toMatchObject({ page: 1, total: 1 });

    const created = await as(ada).post('/organizations', { name: '  Platform team ' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Platform team', role: 'owner', personal: false });
    const id = created.body.data.id as number;
    expect((await as(ada).get('/organizations')).body.data.map((o: { id: number }) => o.id)).toContain(id);

    expect((await as(ada).get(`/organizations/${id}`)).body.data).toMatchObject({ id, name: 'Platform team', role: 'owner' });
    const renamed = await as(ada).patch(`/organizations/${id}`, { name: 'SRE' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('SRE');

    expect((await as(ada).delete(`/organizations/${id}`)).status).toBe(200);
    expectError(await as(ada).get(`/organizations/${id}`), 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('refuses a blank name', async () => {
    const ada = await aPerson();
    expectError(await as(ada).post('/organizations', { name: '   ' }), 400, 'VALIDATION_ERROR');
    expectError(await as(ada).post('/organizations', {}), 400, 'VALIDATION_ERROR');
  });

  it('answers 404 ORGANIZATION_NOT_FOUND to a non-member, as for one that does not exist', async () => {
    const ada = await aPerson();
    const stranger = await aPerson();
    const id = await anOrganization(ada);
    for (const res of [
      await as(stranger).get(`/organizations/${id}`),
      await as(stranger).patch(`/organizations/${id}`, { name: 'Mine' }),
      await as(stranger).delete(`/organizations/${id}`),
      await as(stranger).get(`/organizations/${id}/members`),
      await as(stranger).get('/organizations/999999'),
    ]) {
      expectError(res, 404, 'ORGANIZATION_NOT_FOUND');
    }
    expect((await as(ada).get(`/organizations/${id}`)).body.data.name).toBe('Platform team');
  });

  it('never deletes a personal organization', async () => {
    const ada = await aPerson();
    const personal = (await as(ada).get('/organizations')).body.data[0].id as number;
    const res = await as(ada).delete(`/organizations/${personal}`);
    expectError(res, 409, 'INVALID_STATE');
    expect(res.body.error.message).toMatch(/personal/);
  });

  it('deleting takes everything in it: its monitors are gone and no longer scheduled, its tokens stop working', async () => {
    const ada = await aPerson();
    const id = await anOrganization(ada);
    const token = await tokenIn(id, ada);
    const monitor = await request(h.app).post('/api/v1/monitors').set('Authorization', token).send(MONITOR);
    expect(monitor.status).toBe(201);
    const monitorId = monitor.body.data.id as number;
    expect(await h.scheduler.scheduleOf(monitorId)).toBeDefined();

    expect((await as(ada).delete(`/organizations/${id}`)).status).toBe(200);
    expect(await h.scheduler.scheduleOf(monitorId)).toBeUndefined();
    expect(await h.ds.query(`SELECT id FROM monitors WHERE id = $1`, [monitorId])).toEqual([]);
    expectError(await request(h.app).get('/api/v1/monitors').set('Authorization', token), 401, 'UNAUTHORIZED');
  });
});

describe('roles', () => {
  let owner: Person;
  let admin: Person;
  let member: Person;
  let viewer: Person;
  let org: number;
  beforeEach(async () => {
    [owner, admin, member, viewer] = [await aPerson(), await aPerson(), await aPerson(), await aPerson()];
    org = await anOrganization(owner);
    await join(org, admin, 'admin');
    await join(org, member, 'member');
    await join(org, viewer, 'viewer');
  });

  it('lets every member read the organization and its members, with their own role', async () => {
    for (const [who, role] of [[owner, 'owner'], [admin, 'admin'], [member, 'member'], [viewer, 'viewer']] as const) {
      expect((await as(who).get(`/organizations/${org}`)).body.data.role).toBe(role);
      const members = await as(who).get(`/organizations/${org}/members`);
      expect(members.status).toBe(200);
      expect(members.body.pagination.total).toBe(4);
    }
    const listed = (await as(viewer).get(`/organizations/${org}/members`)).body.data as { user_id: number; email: string; role: string; alerts: boolean }[];
    expect(listed.find((m) => m.user_id === admin.id)).toMatchObject({ email: admin.email, role: 'admin', alerts: true });
  });

  it('lets admins rename, refusing members and viewers with the role needed', async () => {
    expect((await as(admin).patch(`/organizations/${org}`, { name: 'Renamed' })).status).toBe(200);
    for (const who of [member, viewer]) {
      const res = await as(who).patch(`/organizations/${org}`, { name: 'Mine' });
      expectError(res, 403, 'INSUFFICIENT_PERMISSIONS');
      expect(res.body.error.message).toMatch(/admin role/);
      expect(res.body.error.details).toEqual({ required_role: 'admin', role: who === member ? 'member' : 'viewer' });
    }
    expect((await as(owner).get(`/organizations/${org}`)).body.data.name).toBe('Renamed');
  });

  it('lets only the owner delete', async () => {
    for (const who of [admin, member, viewer]) {
      const res = await as(who).delete(`/organizations/${org}`);
      expectError(res, 403, 'INSUFFICIENT_PERMISSIONS');
      expect(res.body.error.message).toMatch(/owner role/);
      expect(res.body.error.details).toMatchObject({ required_role: 'owner' });
    }
    expect((await as(owner).get(`/organizations/${org}`)).status).toBe(200);
  });

  it('lets admins change roles but only an owner make or change an owner', async () => {
    const promoted = await as(admin).patch(`/organizations/${org}/members/${viewer.id}`, { role: 'member' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ user_id: viewer.id, role: 'member' });

    const toOwner = await as(admin).patch(`/organizations/${org}/members/${member.id}`, { role: 'owner' });
    expectError(toOwner, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(toOwner.body.error.message).toMatch(/owner role/);
    expectError(await as(admin).patch(`/organizations/${org}/members/${owner.id}`, { role: 'admin' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(admin).delete(`/organizations/${org}/members/${owner.id}`), 403, 'INSUFFICIENT_PERMISSIONS');

    expect((await as(owner).patch(`/organizations/${org}/members/${member.id}`, { role: 'owner' })).body.data.role).toBe('owner');
  });

  it("refuses members and viewers changing others; a member sets their own alerts, not their own role", async () => {
    expectError(await as(member).patch(`/organizations/${org}/members/${viewer.id}`, { role: 'member' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(viewer).patch(`/organizations/${org}/members/${member.id}`, { alerts: false }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(member).delete(`/organizations/${org}/members/${viewer.id}`), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(viewer).patch(`/organizations/${org}/members/${viewer.id}`, { role: 'admin' }), 403, 'INSUFFICIENT_PERMISSIONS');

    const own = await as(viewer).patch(`/organizations/${org}/members/${viewer.id}`, { alerts: false });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ role: 'viewer', alerts: false });
  });

  it('answers 404 MEMBER_NOT_FOUND for a user who is not a member', async () => {
    const stranger = await aPerson();
    expectError(await as(admin).patch(`/organizations/${org}/members/${stranger.id}`, { role: 'member' }), 404, 'MEMBER_NOT_FOUND');
    expectError(await as(admin).delete(`/organizations/${org}/members/${stranger.id}`), 404, 'MEMBER_NOT_FOUND');
  });

  it('keeps the last owner: neither demoted nor leaving; with a second owner either is fine', async () => {
    const demoted = await as(owner).patch(`/organizations/${org}/members/${owner.id}`, { role: 'admin' });
    expectError(demoted, 409, 'INVALID_STATE');
    expect(demoted.body.error.message).toMatch(/last owner/);
    expectError(await as(owner).delete(`/organizations/${org}/members/${owner.id}`), 409, 'INVALID_STATE');

    await as(owner).patch(`/organizations/${org}/members/${admin.id}`, { role: 'owner' });
    expect((await as(owner).delete(`/organizations/${org}/members/${owner.id}`)).status).toBe(200);
    expectError(await as(admin).patch(`/organizations/${org}/members/${admin.id}`, { role: 'member' }), 409, 'INVALID_STATE');
  });

  it('keeps an owner when the only two leave at the same moment: one goes, the other is refused', async () => {
    await as(owner).patch(`/organizations/${org}/members/${admin.id}`, { role: 'owner' });
    const answers = await Promise.all([as(owner).delete(`/organizations/${org}/members/${owner.id}`), as(admin).delete(`/organizations/${org}/members/${admin.id}`)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners: unknown[] = await h.ds.query(`SELECT user_id FROM organization_members WHERE organization_id = $1 AND role = 'owner'`, [org]);
    expect(owners).toHaveLength(1);
  });

  it('lets a member leave: the organization is unknown to them afterwards', async () => {
    const left = await as(viewer).delete(`/organizations/${org}/members/${viewer.id}`);
    expect(left.status).toBe(200);
    expect(left.body.message).toBe('You left the organization');
    expectError(await as(viewer).get(`/organizations/${org}`), 404, 'ORGANIZATION_NOT_FOUND');
    expect((await as(owner).get(`/organizations/${org}/members`)).body.pagination.total).toBe(3);
  });

  it("cuts a removed member's session and token off on their very next request", async () => {
    const cookie = await signedInSessionCookie(member.id, { secret: SECRET, prefix: h.config.redis.queuePrefix });
    const session = () => request(h.app).get('/api/v1/monitors').set('Cookie', cookie).set('X-Organization-Id', String(org));
    const token = await tokenIn(org, member);
    const withToken = () => request(h.app).get('/api/v1/monitors').set('Authorization', token);
    expect((await session()).status).toBe(200);
    // Used once, so the token cache holds it.
    expect((await withToken()).status).toBe(200);

    expect((await as(admin).delete(`/organizations/${org}/members/${member.id}`)).status).toBe(200);

    expectError(await session(), 404, 'ORGANIZATION_NOT_FOUND');
    expectError(await withToken(), 401, 'UNAUTHORIZED');
    expect(await h.ds.query(`SELECT id FROM api_tokens WHERE user_id = $1 AND organization_id = $2`, [member.id, org])).toEqual([]);
    // Their own organization is untouched.
    expect((await request(h.app).get('/api/v1/monitors').set('Cookie', cookie)).status).toBe(200);
  });

  it("applies a role change to the member's cached tokens at once", async () => {
    const token = await tokenIn(org, member);
    const roleOfToken = async (): Promise<string> => (await request(h.app).get('/api/v1/auth/user').set('Authorization', token)).body.data.organization.role;
    expect((await request(h.app).post('/api/v1/monitors').set('Authorization', token).send(MONITOR)).status).toBe(201);
    // Used, so the token cache holds it with the role it had.
    expect(await roleOfToken()).toBe('member');
    expect((await as(admin).patch(`/organizations/${org}/members/${member.id}`, { role: 'viewer' })).status).toBe(200);
    expect(await roleOfToken()).toBe('viewer');
    expect((await request(h.app).get('/api/v1/monitors').set('Authorization', token)).status).toBe(200);
  });

  it('GET /auth/user names the organization the request acts in', async () => {
    const token = await tokenIn(org, admin);
    const user = await request(h.app).get('/api/v1/auth/user').set('Authorization', token);
    expect(user.body.data).toMatchObject({ id: admin.id, email: admin.email, organization: { id: org, name: 'Platform team', role: 'admin' } });
    const cookie = await signedInSessionCookie(viewer.id, { secret: SECRET, prefix: h.config.redis.queuePrefix });
    const inOrg = await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie).set('X-Organization-Id', String(org));
    expect(inOrg.body.data.organization).toEqual({ id: org, name: 'Platform team', role: 'viewer' });
    const personal = await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie);
    expect(personal.body.data.organization.role).toBe('owner');
    expect(personal.body.data.organization.id).not.toBe(org);
  });
});

describe('invitations', () => {
  let owner: Person;
  let admin: Person;
  let org: number;
  beforeEach(async () => {
    [owner, admin] = [await aPerson(), await aPerson()];
    org = await anOrganization(owner);
    await join(org, admin, 'admin');
  });

  /** Invites and answers the link's secret, read from the email the notifier sent. */
  async function invite(by: Person, email: string, role: OrganizationRole): Promise<{ id: number; token: string }> {
    const res = await as(by).post(`/organizations/${org}/invitations`, { email, role });
    expect(res.status).toBe(201);
    const mail = await waitFor(() => sendgrid.mails.find((m) => m.to === email), { what: `the invitation email to ${email}` });
    expect(mail.subject).toContain('Platform team');
    const link = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/invitations/([A-Za-z0-9_-]{43})`).exec(mail.text);
    expect(link).not.toBeNull();
    return { id: res.body.data.id as number, token: link![1]! };
  }

  it('emails a single-use link; the invitee with that address (any case) joins with the role, once', async () => {
    const invitee = await aPerson(`grace-${Date.now()}@example.test`);
    const created = await as(admin).post(`/organizations/${org}/invitations`, { email: invitee.email.toUpperCase(), role: 'member' });
    expect(created.status).toBe(201);
    const { data } = created.body;
    expect(data).toMatchObject({ email: invitee.email.toUpperCase(), role: 'member', invited_by: { user_id: admin.id, email: admin.email } });
    expect(new Date(data.expires_at).getTime() - new Date(data.created_at).getTime()).toBe(7 * 24 * 3600_000);
    const mail = await waitFor(() => sendgrid.mails.find((m) => m.to === invitee.email.toUpperCase()), { what: 'the invitation email' });
    expect(mail.from).toBe('uptime@example.test');
    const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    // Only its SHA-256 is stored.
    expect(await h.ds.query(`SELECT 1 FROM organization_invitations WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [token])).toHaveLength(1);

    const pending = await as(owner).get(`/organizations/${org}/invitations`);
    expect(pending.body.data.map((i: { id: number }) => i.id)).toEqual([data.id]);

    const accepted = await as(invitee).post('/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ id: org, name: 'Platform team', role: 'member' });
    expect((await as(invitee).get(`/organizations/${org}/members`)).status).toBe(200);
    expect((await as(owner).get(`/organizations/${org}/invitations`)).body.data).toEqual([]);

    const reused = await as(invitee).post('/invitations/accept', { token });
    expectError(reused, 404, 'INVITATION_NOT_FOUND');
    expect(reused.body.error.message).toMatch(/used/);
  });

  it('refuses another address, and leaves the invitation usable by its own', async () => {
    const invitee = await aPerson();
    const intruder = await aPerson();
    const { token } = await invite(owner, invitee.email, 'viewer');
    const refused = await as(intruder).post('/invitations/accept', { token });
    expectError(refused, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(refused.body.error.message).toMatch(/another email address/);
    expectError(await as(intruder).get(`/organizations/${org}`), 404, 'ORGANIZATION_NOT_FOUND');
    expect((await as(invitee).post('/invitations/accept', { token })).body.data.role).toBe('viewer');
  });

  it('refuses an expired link, saying it expired', async () => {
    const invitee = await aPerson();
    const { id, token } = await invite(owner, invitee.email, 'member');
    await h.ds.query(`UPDATE organization_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    const res = await as(invitee).post('/invitations/accept', { token });
    expectError(res, 404, 'INVITATION_NOT_FOUND');
    expect(res.body.error.message).toMatch(/expired/);
    expect((await as(owner).get(`/organizations/${org}/invitations`)).body.data).toEqual([]);
  });

  it('refuses a revoked link; revoking twice is 404 INVITATION_NOT_FOUND', async () => {
    const invitee = await aPerson();
    const { id, token } = await invite(admin, invitee.email, 'member');
    expect((await as(admin).delete(`/organizations/${org}/invitations/${id}`)).status).toBe(200);
    expectError(await as(invitee).post('/invitations/accept', { token }), 404, 'INVITATION_NOT_FOUND');
    expectError(await as(admin).delete(`/organizations/${org}/invitations/${id}`), 404, 'INVITATION_NOT_FOUND');
    expectError(await as(invitee).get(`/organizations/${org}`), 404, 'ORGANIZATION_NOT_FOUND');
  });

  it('answers 409 RESOURCE_EXISTS to inviting a member, and to accepting once a member already', async () => {
    expectError(await as(owner).post(`/organizations/${org}/invitations`, { email: admin.email.toUpperCase(), role: 'member' }), 409, 'RESOURCE_EXISTS');
    const invitee = await aPerson();
    const { token } = await invite(owner, invitee.email, 'viewer');
    await join(org, invitee, 'admin');
    expectError(await as(invitee).post('/invitations/accept', { token }), 409, 'RESOURCE_EXISTS');
    expect((await as(invitee).get(`/organizations/${org}`)).body.data.role).toBe('admin');
  });

  it('lets admins invite, only an owner invite an owner; members and viewers see no invitations', async () => {
    const member = await aPerson();
    await join(org, member, 'member');
    const toOwner = await as(admin).post(`/organizations/${org}/invitations`, { email: 'boss@example.test', role: 'owner' });
    expectError(toOwner, 403, 'INSUFFICIENT_PERMISSIONS');
    expect(toOwner.body.error.message).toMatch(/owner role/);
    expectError(await as(member).post(`/organizations/${org}/invitations`, { email: 'x@example.test', role: 'viewer' }), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(member).get(`/organizations/${org}/invitations`), 403, 'INSUFFICIENT_PERMISSIONS');
    expectError(await as(admin).post(`/organizations/${org}/invitations`, { email: 'not an address', role: 'viewer' }), 400, 'VALIDATION_ERROR');
    expectError(await as(admin).post(`/organizations/${org}/invitations`, { email: 'x@example.test', role: 'king' }), 400, 'VALIDATION_ERROR');
    expect((await as(owner).post(`/organizations/${org}/invitations`, { email: 'boss@example.test', role: 'owner' })).status).toBe(201);
  });

  it('answers 404 to an unknown or malformed token', async () => {
    const someone = await aPerson();
    expectError(await as(someone).post('/invitations/accept', { token: 'x'.repeat(43) }), 404, 'INVITATION_NOT_FOUND');
    expectError(await as(someone).post('/invitations/accept', { token: 'short' }), 404, 'INVITATION_NOT_FOUND');
    expectError(await as(someone).post('/invitations/accept', {}), 400, 'VALIDATION_ERROR');
  });
});
