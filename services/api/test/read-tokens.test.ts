import request from 'supertest';
import type { OperationSpec } from '../src/openapi/operation';
import { requiredQueryOf, withRequiredQuery } from './support/document-operations';
import { OPERATIONS } from '../src/openapi/document';
import { TOKEN_CACHE_TTL_MS } from '../src/auth/token-cache';
import { aRoleUser, tokenActor, useOrganizationWorld, type Actor } from './support/organization-world';

/**
 * Scoped tokens (docs/organizations.md): a `read` token is refused every unsafe method of the
 * document, whatever its user's role, and changes nothing; it reads what its user may read. A
 * token's rights are the lesser of its scope and its user's role in its organization, read again
 * on each request: a change made through the API applies at once (the API forgets the member's
 * cached tokens), one written straight into the database within TOKEN_CACHE_TTL_MS (a token
 * looked up is trusted that long, auth/token-cache.ts). A token acts in its organization only:
 * it lists and revokes that organization's tokens of its user, no others.
 */
jest.setTimeout(180_000);

const org = useOrganizationWorld();

// The documents (OpenAPI, the config file's JSON Schema) are anyone's: no caller, no tenant.
const api = OPERATIONS.filter((op) => op.path.startsWith('/api/v1/') && op.path !== '/api/v1/openapi.json' && op.path !== '/api/v1/config.schema.json');
// A visitor's subscription to a public page takes no caller: a token has no say in it.
const unsafe = api.filter((op) => op.method !== 'get' && op.access !== 'anonymous');
/** Reads a caller makes: everything but sign-in's redirects and the public reads. */
const reads = api.filter((op) => op.method === 'get' && (op.access ?? 'caller') === 'caller');

/** A pending invitation of A, for an invitation id in a path of A's. */
let aInvitation = 0;

/**
 * A's resource for each id of a path: by the segment naming the kind of what the id is. A path
 * naming a kind this does not know fails the test: add its kind here.
 */
function pathInA(op: OperationSpec): string {
  const segments = op.path.split('/');
  const path = segments
    .map((segment, i) => {
      if (!/^\{\w+\}$/.test(segment)) return segment;
      const kind = segments[i - 1];
      const ids = org.world.a.ids;
      switch (kind) {
        case 'monitors':
        case 'agents':
        case 'notifications':
        case 'status-pages':
        case 'maintenance-windows':
        case 'channels':
          return String(ids[kind]);
        case 'tokens':
          return String(ids.tokens);
        case 'organizations':
          return String(org.world.a.id);
        case 'members':
          return String(org.world.a.users.member.user.id);
        case 'invitations':
          return String(aInvitation);
        case 'incidents':
          return String(ids.incidents);
        case 'results':
          return String(ids.results);
        case 'subscribers':
          return String(ids.subscribers);
        default:
          throw new Error(`${op.method.toUpperCase()} ${op.path}: which of A's resources is ${segment}? Add its kind to read-tokens.test.ts`);
      }
    })
    .join('/');
  return withRequiredQuery(op.path, requiredQueryOf(op.parameters), path, org.world.a.ids.monitors);
}

function send(actor: Actor, op: OperationSpec): request.Test {
  const req = actor.as(request(org.h.app)[op.method](pathInA(op)));
  return op.method !== 'get' && op.body?.example !== undefined ? req.send(op.body.example as object) : req;
}

/**
 * Everything the database holds, table by table (a token's `last_used_at` aside: using a token
 * marks it, at most once a minute). The audit log is left out: what it records of a refused
 * request is the audit's own business (docs/organizations.md, "Audit log").
 */
async function everything(): Promise<string> {
  const tables: { name: string }[] = await org.h.ds.query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations', 'audit_log')
      ORDER BY table_name`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const [row]: { digest: string | null; n: number }[] = await org.h.ds.query(
      `SELECT md5(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' ORDER BY (to_jsonb(t) - 'last_used_at')::text)) AS digest, count(*)::int AS n FROM "${name}" t`,
    );
    parts.push(`${name}:${row!.n}:${row!.digest ?? ''}`);
  }
  return parts.join('\n');
}

beforeAll(async () => {
  const [invitation]: { id: number }[] = await org.h.ds.query(
    `INSERT INTO organization_invitations (organization_id, email, role, token_hash, expires_at, invited_by)
     VALUES ($1, 'invitee-a@example.test', 'viewer', md5(random()::text) || md5(random()::text), now() + interval '7 days', $2) RETURNING id`,
    [org.world.a.id, org.world.a.users.owner.user.id],
  );
  aInvitation = invitation!.id;
});

describe('a read token made through the API', () => {
  let readToken: Actor;
  let created: { id: number; scope: string; organization_id: number };

  beforeAll(async () => {
    // Made by A's owner in a session acting in A: the strongest user, the weakest scope.
    const res = await org.world.a.users.owner.session.as(request(org.h.app).post('/api/v1/auth/tokens')).send({ name: 'read only', scope: 'read' });
    expect(res.status).toBe(201);
    created = res.body.data;
    readToken = tokenActor('owner (read token made through the API)', org.world.a.users.owner.user.id, res.body.data.token);
  });

  it('is a read token of the organization the session acted in', () => {
    expect({ scope: created.scope, organization_id: created.organization_id }).toEqual({ scope: 'read', organization_id: org.world.a.id });
  });

  it('covers every unsafe operation of the document', () => {
    expect(unsafe.length).toBeGreaterThan(30);
  });

  describe('every unsafe method', () => {
    let before: string;
    beforeAll(async () => {
      // Its first use marks the token used; done before the picture so nothing else moves.
      expect((await readToken.as(request(org.h.app).get('/api/v1/auth/user'))).status).toBe(200);
      before = await everything();
    });
    afterAll(async () => {
      // Runs after every refused request: nothing anywhere changed.
      expect(await everything()).toBe(before);
    });

    it.each(unsafe.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: 403 INSUFFICIENT_PERMISSIONS {required_scope: write}', async (_name, op) => {
      const res = await send(readToken, op);
      expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
        status: 403,
        code: 'INSUFFICIENT_PERMISSIONS',
        details: { required_scope: 'write', scope: 'read' },
      });
      expect(res.body.error.message).toMatch(/read/);
    });
  });

  it.each(reads.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('reads: %s', async (_name, op) => {
    const res = await send(readToken, op);
    // The operation's first documented answer is its success (200): anything else shows why.
    const success = Number(Object.keys(op.responses)[0]);
    expect({ status: res.status, error: res.body.error }).toEqual({ status: success, error: undefined });
  });
});

describe("a token's rights are the lesser of its scope and its user's role", () => {
  const write = (actor: Actor, name: string): request.Test =>
    actor.as(request(org.h.app).post('/api/v1/monitors')).send({ name, url: org.world.targetUrl, type: 'http', check_interval: 300 });

  it("refuses a viewer's write token every write, naming the role needed", async () => {
    const res = await write(org.world.a.users.viewer.writeToken, 'by a viewer');
    expect({ status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({
      status: 403,
      code: 'INSUFFICIENT_PERMISSIONS',
      details: { required_role: 'member', role: 'viewer' },
    });
    expect(res.body.error.message).toMatch(/member/);
  });

  it("refuses an owner's read token a write, naming the scope", async () => {
    const res = await write(org.world.a.users.owner.readToken, 'by a read token');
    expect([res.status, res.body.error?.details]).toEqual([403, { required_scope: 'write', scope: 'read' }]);
  });

  it('lets a viewer write their own things (a token) with a write token, still only as a viewer', async () => {
    const res = await org.world.a.users.viewer.writeToken.as(request(org.h.app).post('/api/v1/auth/tokens')).send({ name: 'viewer write' });
    expect([res.status, res.body.data?.scope]).toEqual([201, 'write']);
    const made = tokenActor('viewer (new write token)', org.world.a.users.viewer.user.id, res.body.data.token);
    expect((await write(made, 'by a viewer again')).status).toBe(403);
  });

  it(`follows a role changed in the database: a session at once, a token within ${TOKEN_CACHE_TTL_MS} ms`, async () => {
    const demoted = await aRoleUser(org.h, org.world.a.id, 'member', 'A member demoted');
    expect((await write(demoted.writeToken, 'before the demotion')).status).toBe(201);
    expect((await write(demoted.session, 'before the demotion, session')).status).toBe(201);
    await org.h.ds.query(`UPDATE organization_members SET role = 'viewer' WHERE organization_id = $1 AND user_id = $2`, [org.world.a.id, demoted.user.id]);

    const bySession = await write(demoted.session, 'after the demotion, session');
    expect([bySession.status, bySession.body.error?.details]).toEqual([403, { required_role: 'member', role: 'viewer' }]);

    // The token was looked up moments ago: trusted until its cache entry runs out, no longer.
    await new Promise((resolve) => setTimeout(resolve, TOKEN_CACHE_TTL_MS + 200));
    const byToken = await write(demoted.writeToken, 'after the demotion');
    expect([byToken.status, byToken.body.error?.details]).toEqual([403, { required_role: 'member', role: 'viewer' }]);
    // Reads still work: a viewer reads.
    expect((await demoted.writeToken.as(request(org.h.app).get('/api/v1/monitors'))).status).toBe(200);
  });

  it(`stops a removed member's token within ${TOKEN_CACHE_TTL_MS} ms and their session at once`, async () => {
    const leaving = await aRoleUser(org.h, org.world.a.id, 'member', 'A member leaving');
    expect((await leaving.readToken.as(request(org.h.app).get('/api/v1/monitors'))).status).toBe(200);
    await org.h.ds.query(`DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2`, [org.world.a.id, leaving.user.id]);

    const bySession = await leaving.session.as(request(org.h.app).get('/api/v1/monitors'));
    expect([bySession.status, bySession.body.error?.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
    await new Promise((resolve) => setTimeout(resolve, TOKEN_CACHE_TTL_MS + 200));
    const byToken = await leaving.readToken.as(request(org.h.app).get('/api/v1/monitors'));
    expect([byToken.status, byToken.body.error?.code]).toEqual([401, 'UNAUTHORIZED']);
  });
});

/**
 * The members API changes a role or removes a member and forgets the member's cached tokens
 * (TokenCache.forgetMember): through it a change applies to tokens on the next request, not
 * within TOKEN_CACHE_TTL_MS. Driven by the operations the document has, once it has them.
 */
const memberOperation = (method: string): OperationSpec | undefined =>
  OPERATIONS.find((op) => op.method === method && /^\/api\/v1\/organizations\/\{\w+\}\/members\/\{\w+\}$/.test(op.path));
const changeRole = memberOperation('patch');
const removeMember = memberOperation('delete');
const memberPath = (op: OperationSpec, userId: number): string => {
  let n = 0;
  return op.path.replace(/\{\w+\}/g, () => String(n++ === 0 ? org.world.a.id : userId));
};

describe('a change through the members API applies to tokens at once', () => {
  const write = (actor: Actor, name: string): request.Test =>
    actor.as(request(org.h.app).post('/api/v1/monitors')).send({ name, url: org.world.targetUrl, type: 'http', check_interval: 300 });

  (changeRole ? it : it.skip)('PATCH .../members/{user_id} {role: viewer}: the write token is refused on the next request', async () => {
    const demoted = await aRoleUser(org.h, org.world.a.id, 'member', 'A member demoted through the API');
    expect((await write(demoted.writeToken, 'before')).status).toBe(201);
    const res = await org.world.a.users.owner.session.as(request(org.h.app).patch(memberPath(changeRole!, demoted.user.id))).send({ role: 'viewer' });
    expect(res.status).toBe(200);
    const byToken = await write(demoted.writeToken, 'after');
    expect([byToken.status, byToken.body.error?.details]).toEqual([403, { required_role: 'member', role: 'viewer' }]);
  });

  (removeMember ? it : it.skip)('DELETE .../members/{user_id}: the token is 401 and the session 404 on the next request', async () => {
    const leaving = await aRoleUser(org.h, org.world.a.id, 'member', 'A member removed through the API');
    expect((await leaving.readToken.as(request(org.h.app).get('/api/v1/monitors'))).status).toBe(200);
    const res = await org.world.a.users.owner.session.as(request(org.h.app).delete(memberPath(removeMember!, leaving.user.id)));
    expect(res.status).toBe(200);
    expect((await leaving.readToken.as(request(org.h.app).get('/api/v1/monitors'))).status).toBe(401);
    const bySession = await leaving.session.as(request(org.h.app).get('/api/v1/monitors'));
    expect([bySession.status, bySession.body.error?.code]).toEqual([404, 'ORGANIZATION_NOT_FOUND']);
  });
});

describe('POST /auth/tokens organization_id', () => {
  const create = (actor: Actor, body: object): request.Test => actor.as(request(org.h.app).post('/api/v1/auth/tokens')).send({ name: 'elsewhere', ...body });

  it("is 404 ORGANIZATION_NOT_FOUND for an organization one is not a member of, existing (B) or not", async () => {
    const before = await everything();
    for (const id of [org.world.b.id, 2_147_483_647]) {
      for (const actor of [org.world.a.users.owner.session, org.world.a.users.owner.writeToken]) {
        const res = await create(actor, { organization_id: id });
        expect([actor.label, id, res.status, res.body.error?.code]).toEqual([actor.label, id, 404, 'ORGANIZATION_NOT_FOUND']);
      }
    }
    expect(await everything()).toBe(before);
  });

  it('makes a token acting in another organization of which one is a member', async () => {
    const [{ id: personal }]: { id: number }[] = await org.h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [org.world.a.users.member.user.id]);
    const res = await create(org.world.a.users.member.session, { organization_id: personal });
    expect([res.status, res.body.data?.organization_id]).toEqual([201, personal]);
  });
});

describe('the tokens a token or a session sees are those of the organization it acts in', () => {
  let personalTokenId: number;
  let personalToken: Actor;

  beforeAll(async () => {
    // A's owner holds a token of their personal organization too.
    const owner = org.world.a.users.owner;
    const [{ id: personal }]: { id: number }[] = await org.h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [owner.user.id]);
    const res = await owner.session.as(request(org.h.app).post('/api/v1/auth/tokens')).send({ name: 'personal', organization_id: personal });
    expect(res.status).toBe(201);
    personalTokenId = res.body.data.id;
    personalToken = tokenActor('owner (personal token)', owner.user.id, res.body.data.token);
  });

  it.each(['session', 'writeToken', 'readToken'] as const)("lists only A's tokens to a %s acting in A", async (via) => {
    const res = await org.world.a.users.owner[via].as(request(org.h.app).get('/api/v1/auth/tokens?limit=100'));
    expect(res.status).toBe(200);
    const organizations = new Set((res.body.data as { organization_id: number }[]).map((t) => t.organization_id));
    expect([...organizations]).toEqual([org.world.a.id]);
    expect(res.body.pagination.total).toBe(res.body.data.length);
  });

  it("cannot revoke, from A, the user's token of another organization: 404 TOKEN_NOT_FOUND, and it still works", async () => {
    for (const actor of [org.world.a.users.owner.session, org.world.a.users.owner.writeToken]) {
      const res = await actor.as(request(org.h.app).delete(`/api/v1/auth/tokens/${personalTokenId}`));
      expect([actor.label, res.status, res.body.error?.code]).toEqual([actor.label, 404, 'TOKEN_NOT_FOUND']);
    }
    expect((await personalToken.as(request(org.h.app).get('/api/v1/auth/user'))).status).toBe(200);
  });

  it('revokes it from the organization it acts in', async () => {
    const res = await personalToken.as(request(org.h.app).delete(`/api/v1/auth/tokens/${personalTokenId}`));
    expect(res.status).toBe(200);
    expect((await personalToken.as(request(org.h.app).get('/api/v1/auth/user'))).status).toBe(401);
  });
});
