import request from 'supertest';
import { roleAtLeast, isOrganizationRole, type OrganizationRole } from '@uptime/db';
import { aToken } from '@uptime/testing';
import { documentedOperations, withRequiredQuery, type DocumentedOperation } from './support/document-operations';
import { signedInSessionCookie } from './support/session-cookie';
import { createResources, ROLES, SESSION_SECRET, sessionActor, useOrganizationWorld, type Actor, type Resources } from './support/organization-world';

/**
 * Roles (docs/organizations.md, "Roles"): every operation of the served OpenAPI document, sent by
 * a user of each role of organization A, with a session acting in A and with a write token of A.
 * What each may do comes from the document's `x-required-role` (auth/permissions.ts needOf), not
 * from a list kept here, so a new route is in this matrix without anyone adding it:
 *
 * - a role at least the one needed, or `signed-in` (anything about the caller alone): not 403, an
 *   answer the operation documents, and a read is a success;
 * - a role below it: 403 INSUFFICIENT_PERMISSIONS, the message naming the role needed and
 *   `details: {required_role, role}`.
 *
 * `path-organization` operations (the organization routes, `/organizations/{id}/...`) check the
 * caller's role in the organization their path names themselves, whatever organization the
 * request acts in; their role rules are tested with those routes (the organizations tests), so
 * this matrix only checks that each is such a route.
 *
 * Destructive operations (DELETE) each get fresh resources of A (made through the API by A's
 * owner), so the matrix does not delete what later cases name; every other case names A's world.
 * A token's own rights (read tokens) are read-tokens.test.ts's.
 */
jest.setTimeout(300_000);

const o = useOrganizationWorld();

const withCaller = documentedOperations().filter((op) => op.takesCaller);
const checkedElsewhere = withCaller.filter((op) => op.requiredRole === 'path-organization');
const matrix = withCaller.filter((op) => op.requiredRole !== 'path-organization');

type Via = 'session' | 'write token';

/** Whether `role` may call `op`, by what the document says it needs. */
function allows(op: DocumentedOperation, role: OrganizationRole): boolean {
  if (op.requiredRole === 'signed-in') return true;
  if (!isOrganizationRole(op.requiredRole)) throw new Error(`${op.name}: x-required-role ${String(op.requiredRole)} is no role the matrix knows`);
  return roleAtLeast(role, op.requiredRole);
}

/** The path with A's resources (or, for DELETE, fresh ones) for its ids; throws for a kind it does not know. */
function pathOf(op: DocumentedOperation, ids: Resources, ownTokenId: number): string {
  const segments = op.path.split('/');
  const path = segments
    .map((segment, i) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param === undefined) return segment;
      const kind = segments[i - 1];
      switch (kind) {
        case 'monitors':
        case 'status-pages':
        case 'maintenance-windows':
        case 'channels':
        case 'agents':
        case 'notifications':
        case 'incidents':
        case 'results':
        case 'subscribers':
          return String(ids[kind]);
        // A caller's tokens are their own (docs/security.md): each names one of theirs.
        case 'tokens':
          return String(ownTokenId);
        default:
          throw new Error(`${op.name}: the roles matrix cannot fill {${param}}; add its kind to pathOf`);
      }
    })
    .join('/');
  return withRequiredQuery(op.path, op.requiredQuery, path, ids.monitors);
}

/** The documented body, its ids aimed at A's resources. */
function bodyOf(op: DocumentedOperation, ids: Resources): unknown {
  const example = op.bodyExample;
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return example;
  const aimed: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  if ('agent_ids' in aimed) aimed.agent_ids = [ids.agents];
  if ('monitor_ids' in aimed) aimed.monitor_ids = [ids.monitors];
  return aimed;
}

/** The actor of `role` coming `via`; a session-only operation that ends the session gets a session of its own. */
async function actorOf(op: DocumentedOperation, role: OrganizationRole, via: Via): Promise<Actor> {
  const user = o.world.a.users[role];
  if (via === 'write token') return user.writeToken;
  if (op.method === 'get') return user.session;
  // Logging out or refreshing ends or replaces the session: a fresh one, so the next case has its own.
  const cookie = await signedInSessionCookie(user.user.id, { secret: SESSION_SECRET, prefix: o.h.config.redis.queuePrefix });
  return sessionActor(`${role} (fresh session)`, user.user.id, cookie, o.world.a.id);
}

/** A token of the user's own in A, for a path naming one. */
async function ownToken(userId: number): Promise<number> {
  const user = o.world.a.users[ROLES.find((r) => o.world.a.users[r].user.id === userId)!].user;
  const plaintext = await aToken(o.h.ds, user, { organizationId: o.world.a.id, name: 'to revoke' });
  const [row]: { id: number }[] = await o.h.ds.query(`SELECT id FROM api_tokens WHERE user_id = $1 ORDER BY id DESC LIMIT 1`, [userId]);
  expect(plaintext).toMatch(/^upt_/);
  return row!.id;
}

const vias = (op: DocumentedOperation): Via[] => [...(op.schemes.includes('sessionCookie') ? (['session'] as const) : []), ...(op.schemes.includes('bearerAuth') ? (['write token'] as const) : [])];

// Deletions last: each gets fresh resources, but the cases before them name the world's.
const ordered = [...matrix].sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
const cases = ordered.flatMap((op) => ROLES.flatMap((role) => vias(op).map((via) => [`${op.name} as ${role} (${via})`, op, role, via] as const)));

describe('roles of organization A, every documented operation', () => {
  it('covers every operation with a caller, and every one needs a role, signed-in or its path’s organization', () => {
    expect(matrix.length).toBeGreaterThan(50);
    for (const op of withCaller) expect([...ROLES, 'signed-in', 'path-organization']).toContain(op.requiredRole);
    for (const op of matrix) expect(vias(op).length).toBeGreaterThan(0);
  });

  it('leaves the organization routes (path-organization) to their own tests: each names the organization in its path', () => {
    // Their role is checked in the organization their path names, by the routes themselves
    // (auth/permissions.ts); the organizations tests hold those rules.
    for (const op of checkedElsewhere) expect(op.path).toMatch(/^\/api\/v1\/organizations\/\{\w+\}/);
  });

  it.each(cases)('%s', async (_name, op, role, via) => {
    const actor = await actorOf(op, role, via);
    const ids = op.method === 'delete' ? await createResources(o.h.app, o.h.ds, o.world.a.users.owner.writeToken, { marker: 'fresh', targetUrl: o.world.targetUrl }) : o.world.a.ids;
    const path = pathOf(op, ids, op.path.includes('/tokens/') ? await ownToken(actor.userId) : 0);
    const body = bodyOf(op, ids);
    const req = actor.as(request(o.h.app)[op.method](path));
    const res = await (op.method !== 'get' && body !== undefined ? req.send(body as object) : req);
    if (allows(op, role)) {
      expect(res.status).not.toBe(403);
      expect(res.status).toBeLessThan(500);
      expect(op.statuses).toContain(res.status);
      // A read of A's, or a deletion of a fresh resource, succeeds (the answer is shown if not).
      if (op.method === 'get' || op.method === 'delete') expect(res.status < 300 ? 'a success' : res.body).toBe('a success');
    } else {
      expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
        status: 403,
        code: 'INSUFFICIENT_PERMISSIONS',
        details: { required_role: op.requiredRole, role },
      });
      expect(res.body.error.message).toContain(`the ${op.requiredRole} role`);
    }
  });

  it('a refused write changed nothing: the viewer’s and the member’s refusals left A’s monitor as it was', async () => {
    // The refusals above come before any route runs; one more, checked against the database.
    const before: unknown[] = await o.h.ds.query(`SELECT name, url, paused_at FROM monitors WHERE id = $1`, [o.world.a.ids.monitors]);
    const res = await o.world.a.users.viewer.writeToken.as(request(o.h.app).patch(`/api/v1/monitors/${o.world.a.ids.monitors}`)).send({ name: 'renamed by a viewer' });
    expect(res.status).toBe(403);
    expect(await o.h.ds.query(`SELECT name, url, paused_at FROM monitors WHERE id = $1`, [o.world.a.ids.monitors])).toEqual(before);
  });

  it('a role changed in the database applies to a session on its next request', async () => {
    const { viewer } = o.world.a.users;
    const op = `/api/v1/monitors/${o.world.a.ids.monitors}/pause`;
    expect((await viewer.session.as(request(o.h.app).post(op)).send({})).status).toBe(403);
    await o.h.ds.query(`UPDATE organization_members SET role = 'member' WHERE organization_id = $1 AND user_id = $2`, [o.world.a.id, viewer.user.id]);
    try {
      expect((await viewer.session.as(request(o.h.app).post(op)).send({})).status).toBe(200);
    } finally {
      await o.h.ds.query(`UPDATE organization_members SET role = 'viewer' WHERE organization_id = $1 AND user_id = $2`, [o.world.a.id, viewer.user.id]);
    }
    const again = await viewer.session.as(request(o.h.app).post(op)).send({});
    expect({ status: again.status, details: again.body.error?.details }).toEqual({ status: 403, details: { required_role: 'member', role: 'viewer' } });
  });
});
