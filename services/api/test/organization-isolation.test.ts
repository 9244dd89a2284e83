import request from 'supertest';
import { aToken } from '@uptime/testing';
import { documentedOperations, withRequiredQuery, type DocumentedOperation } from './support/document-operations';
import { aRoleUser, B_MARKER, tokenActor, useOrganizationWorld, type Actor, type OrganizationWorld } from './support/organization-world';

/**
 * Tenancy (docs/organizations.md): whatever the caller of organization A does, organization B's
 * resources are as unknown to them as ones that do not exist. The operations come from the
 * OpenAPI document the app serves (which openapi-routes.test.ts holds equal to its routes), so a
 * new route is in this test without anyone adding it:
 *
 * - every operation taking a caller whose path names something (an `{id}`, or the organization
 *   and what is under it) is sent, by A's owner with a session acting in A and with a write token
 *   of A, naming B's: 404 with the code of the kind named (`MONITOR_NOT_FOUND` for
 *   `/monitors/{id}/...`; `ORGANIZATION_NOT_FOUND` where the path names the organization), and no
 *   answer holds anything of B's;
 * - every list (a read taking a caller, no path parameter) answered to A holds nothing of B's;
 * - what B's owner sees through every read is the same afterwards.
 *
 * A path parameter the test cannot fill with B's value fails it: add the kind to `valueOfB`.
 * Operations that take no caller (sign-in, public status pages and badges, probes, this document)
 * are out of scope as a class: their answer does not depend on who asks, so there is no caller of
 * A to tell apart (authorization-matrix.test.ts drives them anonymously and as other users).
 */
jest.setTimeout(180_000);

const o = useOrganizationWorld();

const operations = documentedOperations();
const withCaller = operations.filter((op) => op.takesCaller);
const naming = withCaller.filter((op) => op.pathParams.length > 0);
const lists = withCaller.filter((op) => op.method === 'get' && op.pathParams.length === 0);

/** The kind a path segment before a parameter names, and B's value for it. */
function valueOfB(world: OrganizationWorld, before: string | undefined): string | undefined {
  const b = world.b;
  switch (before) {
    case 'monitors':
    case 'status-pages':
    case 'maintenance-windows':
    case 'channels':
    case 'agents':
    case 'notifications':
    case 'tokens':
      return String(b.ids[before]);
    case 'organizations':
      return String(b.id);
    case 'members':
      return String(b.owner.user.id);
    case 'invitations':
      return String(b.invitationId);
    case 'deliveries':
      return String(b.ids.delivery);
    case 'incidents':
      return String(b.ids.incidents);
    case 'results':
      return String(b.ids.results);
    case 'subscribers':
      return String(b.ids.subscribers);
    default:
      return undefined;
  }
}

/** The path with every parameter naming B's; throws for one the test does not know. */
function pathOfB(op: DocumentedOperation, world: OrganizationWorld): string {
  const segments = op.path.split('/');
  return segments
    .map((segment, i) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (param === undefined) return segment;
      const value = valueOfB(world, segments[i - 1]);
      if (value === undefined) throw new Error(`${op.name}: the isolation test cannot fill {${param}} with B's; add its kind to valueOfB`);
      return value;
    })
    .join('/');
}

/**
 * A list's path with its required query parameters naming B's (`ids` of GET
 * /monitors/recent-checks: B's monitor); throws for one the test does not know.
 */
function listOfB(op: DocumentedOperation, world: OrganizationWorld): string {
  return withRequiredQuery(op.path, op.requiredQuery, op.path, world.b.ids.monitors);
}

/** `monitors` → MONITOR_NOT_FOUND; the organization's routes name the organization first. */
function expectedCode(op: DocumentedOperation): string {
  if (op.requiredRole === 'path-organization') return 'ORGANIZATION_NOT_FOUND';
  const segments = op.path.split('/');
  const kind = segments[segments.findIndex((s) => s.startsWith('{')) - 1]!;
  return `${kind.replace(/s$/, '').replace(/-/g, '_').toUpperCase()}_NOT_FOUND`;
}

/** Whether the documented body names resources by id. */
const namesIds = (op: DocumentedOperation): boolean =>
  typeof op.bodyExample === 'object' && op.bodyExample !== null && ('agent_ids' in op.bodyExample || 'monitor_ids' in op.bodyExample);

/** The documented body, its ids (`agent_ids`, `monitor_ids`) aimed at B's resources. */
function bodyOfB(op: DocumentedOperation, world: OrganizationWorld): unknown {
  const example = op.bodyExample;
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return example;
  const aimed: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  if ('agent_ids' in aimed) aimed.agent_ids = [world.b.ids.agents];
  if ('monitor_ids' in aimed) aimed.monitor_ids = [world.b.ids.monitors];
  return aimed;
}

function send(actor: Actor, op: DocumentedOperation, path: string, body: unknown): request.Test {
  const req = actor.as(request(o.h.app)[op.method](path));
  return op.method !== 'get' && body !== undefined ? req.send(body as object) : req;
}

/** A's owner, both ways a caller comes. */
const callersOfA = (world: OrganizationWorld): Actor[] => [world.a.users.owner.session, world.a.users.owner.writeToken];

/**
 * A windowed read (stats) moves with the clock, and so does the downtime of B's open incident:
 * those fields are left out of the view (nothing of A's could change them: B has no checks).
 */
const CLOCK_FIELDS = new Set(['series', 'from', 'to', 'total_downtime']);
const withoutClock = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !CLOCK_FIELDS.has(k)).map(([k, v]) => [k, withoutClock(v)]));
};

/**
 * A page's preview says when its figures were read (`updated_at` of the public view): that time
 * moves with the clock too, so it is left out of that one read; every other `updated_at` stays in.
 */
const READ_AT_PATHS = new Set(['/api/v1/status-pages/{id}/preview']);
const withoutReadTime = (op: DocumentedOperation, data: unknown): unknown =>
  READ_AT_PATHS.has(op.path) && data !== null && typeof data === 'object' ? { ...data, updated_at: undefined } : data;

/** What B's owner sees through every read the document has, with B's ids in the paths. */
async function viewOfB(): Promise<string> {
  const world = o.world;
  const views: string[] = [];
  // In turn, as a session (which, unlike a token, leaves no last-used time behind).
  for (const op of withCaller.filter((x) => x.method === 'get')) {
    const res = await world.b.owner.session.as(request(o.h.app).get(op.pathParams.length > 0 ? pathOfB(op, world) : listOfB(op, world)));
    views.push(`${op.name} ${res.status} ${JSON.stringify(withoutClock(withoutReadTime(op, res.body.data) ?? res.body.error ?? res.text))}`);
  }
  return views.join('\n');
}

describe('organization isolation, every documented operation', () => {
  it('covers the operations that name something, and every one of them can be filled with B’s', () => {
    expect(naming.length).toBeGreaterThan(40);
    expect(lists.length).toBeGreaterThan(10);
    // Fails here, by name, for a path parameter of an unknown kind: no operation is skipped.
    for (const op of naming) expect(() => pathOfB(op, o.world)).not.toThrow();
    for (const op of naming) expect(op.codesOf(404)).toContain(expectedCode(op));
  });

  describe('a caller of A naming B’s', () => {
    let before: string;
    beforeAll(async () => {
      before = await viewOfB();
      expect(before).toContain(B_MARKER);
    });
    afterAll(async () => {
      // After every request of A's: nothing B's owner sees has moved.
      expect(await viewOfB()).toBe(before);
    });

    const cases = naming.flatMap((op) => (['session', 'write token'] as const).map((via) => [`${op.name} (${via})`, op, via] as const));
    it.each(cases)('%s', async (_name, op, via) => {
      const actor = callersOfA(o.world)[via === 'session' ? 0 : 1]!;
      const res = await send(actor, op, pathOfB(op, o.world), bodyOfB(op, o.world));
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: expectedCode(op) });
      expect(res.text).not.toContain(B_MARKER);
    });

    it.each(lists.flatMap((op) => (['session', 'write token'] as const).map((via) => [`${op.name} (${via})`, op, via] as const)))(
      'the list %s shows nothing of B’s',
      async (_name, op, via) => {
        const actor = callersOfA(o.world)[via === 'session' ? 0 : 1]!;
        const res = await actor.as(request(o.h.app).get(listOfB(op, o.world)));
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(B_MARKER);
      },
    );

    it('the lists do show B’s to B’s owner (the marker is there to be seen)', async () => {
      const seen: string[] = [];
      for (const op of lists) {
        const res = await o.world.b.owner.session.as(request(o.h.app).get(listOfB(op, o.world)));
        if (res.text.includes(B_MARKER)) seen.push(op.path);
      }
      expect(seen).toEqual(
        expect.arrayContaining(['/api/v1/monitors', '/api/v1/status-pages', '/api/v1/maintenance-windows', '/api/v1/channels', '/api/v1/agents', '/api/v1/notifications', '/api/v1/auth/tokens']),
      );
    });

    it.each(withCaller.filter((op) => op.method !== 'get' && op.pathParams.length === 0 && namesIds(op)).map((op) => [op.name, op] as const))(
      '%s with B’s ids in its body changes nothing of B’s',
      async (_name, op) => {
        for (const actor of callersOfA(o.world)) {
          const res = await send(actor, op, op.path, bodyOfB(op, o.world));
          expect(res.text).not.toContain(B_MARKER);
          // A bulk action answers per monitor: B's is among the failed ones. A new status page or
          // window naming B's monitor is refused as naming an unknown one.
          if (res.status < 300) expect(res.body.data.succeeded).toEqual([]);
          else expect([400, 404]).toContain(res.status);
        }
      },
    );
  });

  describe('A’s own resources naming B’s', () => {
    // What a body or a header of A's may name of B's: nothing of B's is found through it.
    it.each(['session', 'write token'] as const)('X-Organization-Id naming B is 404 ORGANIZATION_NOT_FOUND (%s)', async (via) => {
      const actor = callersOfA(o.world)[via === 'session' ? 0 : 1]!;
      const res = await actor.as(request(o.h.app).get('/api/v1/monitors')).set('X-Organization-Id', String(o.world.b.id));
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND' });
      expect(res.text).not.toContain(B_MARKER);
    });

    it('a monitor of A may not depend on B’s, made or changed', async () => {
      const [owner, { b, a }] = [o.world.a.users.owner.writeToken, o.world];
      const made = await owner.as(request(o.h.app).post('/api/v1/monitors')).send({ name: 'Depends', url: o.world.targetUrl, type: 'http', depends_on: [b.ids.monitors] });
      const changed = await owner.as(request(o.h.app).patch(`/api/v1/monitors/${a.ids.monitors}`)).send({ depends_on: [b.ids.monitors] });
      for (const res of [made, changed]) expect({ status: res.status, details: res.body.error?.details }).toEqual({ status: 400, details: { depends_on: [expect.stringContaining(String(b.ids.monitors))] } });
    });

    it('B’s private agent cannot be assigned to A’s monitor', async () => {
      const { a, b } = o.world;
      const res = await a.users.owner.writeToken.as(request(o.h.app).post(`/api/v1/monitors/${a.ids.monitors}/agents`)).send({ agent_ids: [b.ids.agents] });
      expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS', details: { agent_ids: [b.ids.agents] } });
    });

    it.each(['status-pages', 'maintenance-windows'] as const)('A’s %s may not list B’s monitor', async (kind) => {
      const { a, b } = o.world;
      const res = await a.users.owner.writeToken.as(request(o.h.app).patch(`/api/v1/${kind}/${a.ids[kind]}`)).send({ monitor_ids: [b.ids.monitors] });
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(res.text).not.toContain(B_MARKER);
    });

    it('a test send of A’s alerts goes to A’s members, never to B’s', async () => {
      const { a, b } = o.world;
      const res = await a.users.owner.writeToken.as(request(o.h.app).post(`/api/v1/monitors/${a.ids.monitors}/alerts/test`)).send({});
      expect(res.status).toBe(200);
      const recipients: string[] = res.body.data.deliveries.map((d: { recipient: string }) => d.recipient);
      expect(recipients).toContain(a.users.owner.user.email);
      expect(recipients).not.toContain(b.owner.user.email);
    });
  });

  describe('a user in both organizations', () => {
    it('acting in A, neither lists nor revokes their token of B', async () => {
      const world = o.world;
      const both = await aRoleUser(o.h, world.a.id, 'member', 'In A and B');
      await o.h.ds.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [world.b.id, both.user.id]);
      const ofB = await aToken(o.h.ds, both.user, { organizationId: world.b.id, name: `Token ${B_MARKER}` });
      const [{ id: ofBId }]: { id: number }[] = await o.h.ds.query(`SELECT id FROM api_tokens WHERE user_id = $1 AND organization_id = $2`, [both.user.id, world.b.id]);
      for (const actor of [both.session, both.writeToken]) {
        const list = await actor.as(request(o.h.app).get('/api/v1/auth/tokens'));
        expect(list.status).toBe(200);
        expect(list.body.data.map((t: { id: number }) => t.id)).not.toContain(ofBId);
        expect(list.text).not.toContain(B_MARKER);
        const revoke = await actor.as(request(o.h.app).delete(`/api/v1/auth/tokens/${ofBId}`));
        expect({ status: revoke.status, code: revoke.body.error?.code }).toEqual({ status: 404, code: 'TOKEN_NOT_FOUND' });
      }
      // Acting in B, the same user sees it (so the assertions above can fail), and it still works.
      const stillWorks = await tokenActor('both (token of B)', both.user.id, ofB).as(request(o.h.app).get('/api/v1/auth/tokens'));
      expect(stillWorks.status).toBe(200);
      expect(stillWorks.body.data.map((t: { id: number }) => t.id)).toContain(ofBId);
    });
  });
});
