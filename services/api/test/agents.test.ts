import request from 'supertest';
import { createLogger } from '@uptime/logger';
import { aCaller, freePort } from '@uptime/testing';
import { startAgent, type RunningAgent } from '@uptime/agent';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let owner: { auth: string; id: number };
let other: { auth: string; id: number };
let admin: { auth: string; id: number };

beforeEach(async () => {
  const callers = await Promise.all([aCaller(h.ds), aCaller(h.ds), aCaller(h.ds, { role: 'admin' })]);
  [owner, other, admin] = callers.map((c) => ({ auth: c.auth, id: c.user.id }));
});

type Method = 'get' | 'put' | 'patch' | 'delete' | 'post';
const api = (method: Method, path: string, as = owner.auth) => request(h.app)[method](`/api/v1${path}`).set('Authorization', as);

interface AgentBody {
  id: number;
  name: string;
  location: string;
  url: string;
  status: string;
  is_public: boolean;
  owner_id: number;
  secret?: string;
}

async function createAgent(extra: Record<string, unknown> = {}, as = owner.auth): Promise<AgentBody> {
  const res = await api('post', '/agents', as).send({
    name: `Agent ${Math.random().toString(36).slice(2, 8)}`,
    location: 'eu-west',
    url: 'https://agent.example.net',
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as AgentBody;
}

async function createMonitor(as = owner.auth): Promise<number> {
  const res = await api('post', '/monitors', as).send({ name: 'Shop', url: 'https://shop.example/health', type: 'http' });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

describe('POST /agents', () => {
  it('creates an agent owned by the caller, with a generated secret shown once', async () => {
    const res = await api('post', '/agents').send({
      name: ' Frankfurt 1 ',
      location: 'eu-central',
      url: 'https://agent-fra1.example.net/base/',
      is_public: true,
    });
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Frankfurt 1',
      location: 'eu-central',
      url: 'https://agent-fra1.example.net/base',
      status: 'active',
      is_public: true,
      owner_id: owner.id,
      version: null,
      last_seen_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const get = await api('get', `/agents/${res.body.data.id}`);
    expect(get.body.data.secret).toBeUndefined();
  });

  it('names every missing or invalid field, and refuses fields that are not writable', async () => {
    const missing = await api('post', '/agents').send({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(missing.body.error.details).sort()).toEqual(['location', 'name', 'url']);
    for (const url of ['ftp://agent.example', 'agent.example', 'https://user:pw@agent.example', 'https://agent.example/?x=1']) {
      const bad = await api('post', '/agents').send({ name: 'A', location: 'x', url });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.url).toEqual([expect.stringContaining('url')]);
    }
    const writable = await api('post', '/agents').send({
      name: 'A',
      location: 'x',
      url: 'https://a.example',
      status: 'inactive',
      owner_id: 1,
    });
    expect(writable.status).toBe(400);
    expect(Object.keys(writable.body.error.details).sort()).toEqual(['owner_id', 'status']);
  });

  it('answers 409 for a second agent of the same name (case-insensitive) of one owner', async () => {
    await createAgent({ name: 'Paris' });
    const dup = await api('post', '/agents').send({ name: 'PARIS', location: 'x', url: 'https://b.example' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('RESOURCE_EXISTS');
    await createAgent({ name: 'Paris' }, other.auth);
  });
});

describe('listing and reading agents', () => {
  it('lists the caller’s own agents, and every agent for an admin, with full pagination', async () => {
    const mine = await createAgent();
    await createAgent({ is_public: true }, other.auth);
    const list = await api('get', '/agents');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: AgentBody) => a.id)).toEqual([mine.id]);
    expect(list.body.pagination).toEqual({ page: 1, limit: 25, total: 1, pages: 1, has_next: false, has_prev: false });
    expect((await api('get', '/agents', admin.auth)).body.pagination.total).toBe(2);
    expect((await api('get', '/agents?limit=0')).status).toBe(400);
  });

  it('shows accessible agents: own in any status plus others’ public active ones', async () => {
    const mine = await createAgent();
    await api('patch', `/agents/${mine.id}/status`).send({ status: 'inactive' });
    const shared = await createAgent({ is_public: true }, other.auth);
    const sharedDown = await createAgent({ is_public: true }, other.auth);
    await api('patch', `/agents/${sharedDown.id}/status`, other.auth).send({ status: 'maintenance' });
    await createAgent({}, other.auth);
    const res = await api('get', '/agents/accessible');
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: AgentBody) => a.id)).toEqual([mine.id, shared.id]);
    expect(res.body.pagination.total).toBe(2);
  });

  it('shows an agent to its owner, to anyone when public, to admins always, and 404 otherwise', async () => {
    const hidden = await createAgent();
    const shown = await createAgent({ is_public: true });
    expect((await api('get', `/agents/${hidden.id}`)).status).toBe(200);
    expect((await api('get', `/agents/${shown.id}`, other.auth)).status).toBe(200);
    expect((await api('get', `/agents/${hidden.id}`, admin.auth)).status).toBe(200);
    const missing = await api('get', `/agents/${hidden.id}`, other.auth);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('AGENT_NOT_FOUND');
    expect((await api('get', '/agents/99999')).body.error.code).toBe('AGENT_NOT_FOUND');
    expect((await api('get', '/agents/abc')).status).toBe(404);
  });
});

describe('publishing', () => {
  it('lets another user see and assign a public agent, but not read its credentials or change it', async () => {
    const agent = await createAgent();
    const toggled = await api('patch', `/agents/${agent.id}/toggle-publishing`);
    expect(toggled.status).toBe(200);
    expect(toggled.body).toMatchObject({ message: 'Agent published', data: { id: agent.id, is_public: true } });

    expect((await api('get', '/agents/accessible', other.auth)).body.data.map((a: AgentBody) => a.id)).toContain(agent.id);
    const monitorId = await createMonitor(other.auth);
    const assigned = await api('post', `/monitors/${monitorId}/agents`, other.auth).send({ agent_ids: [agent.id] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.map((a: AgentBody) => a.id)).toEqual([agent.id]);

    const forbidden = [
      api('get', `/agents/${agent.id}/credentials`, other.auth),
      api('put', `/agents/${agent.id}`, other.auth).send({ name: 'Mine now' }),
      api('patch', `/agents/${agent.id}/status`, other.auth).send({ status: 'inactive' }),
      api('delete', `/agents/${agent.id}`, other.auth),
      api('patch', `/agents/${agent.id}/toggle-publishing`, other.auth),
    ];
    for (const res of await Promise.all(forbidden)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    const after = (await api('get', `/agents/${agent.id}`)).body.data;
    expect(after).toMatchObject({ name: agent.name, status: 'active', is_public: true });
  });

  it('gives credentials to the owner and admins only', async () => {
    const agent = await createAgent();
    const mine = await api('get', `/agents/${agent.id}/credentials`);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({ agent_id: agent.id, secret: agent.secret });
    expect((await api('get', `/agents/${agent.id}/credentials`, admin.auth)).body.data.secret).toBe(agent.secret);
    expect((await api('get', `/agents/${agent.id}/credentials`, other.auth)).status).toBe(404);
  });

  it('withdraws an unpublished agent from other users’ monitors and reschedules them without it', async () => {
    const agent = await createAgent({ is_public: true });
    const theirs = await createMonitor(other.auth);
    const mine = await createMonitor();
    await api('post', `/monitors/${theirs}/agents`, other.auth)
      .send({ agent_ids: [agent.id] })
      .expect(200);
    await api('post', `/monitors/${mine}/agents`)
      .send({ agent_ids: [agent.id] })
      .expect(200);
    expect((await h.scheduler.scheduleOf(theirs))?.template).toMatchObject({ agentIds: [agent.id] });

    const res = await api('patch', `/agents/${agent.id}/toggle-publishing`).send({ is_public: false });
    expect(res.body).toMatchObject({ message: 'Agent unpublished', data: { is_public: false } });
    expect((await api('get', `/monitors/${theirs}/agents`, other.auth)).body.data).toEqual([]);
    expect((await h.scheduler.scheduleOf(theirs))?.template?.agentIds).toBeUndefined();
    expect((await api('get', `/monitors/${mine}/agents`)).body.data.map((a: AgentBody) => a.id)).toEqual([agent.id]);
    expect((await api('get', '/agents/accessible', other.auth)).body.data).toEqual([]);
  });
});

describe('changing agents', () => {
  it('updates the given fields for the owner and an admin', async () => {
    const agent = await createAgent();
    const res = await api('put', `/agents/${agent.id}`).send({ name: 'Renamed', url: 'http://agent2.example.net:8080/' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: agent.id, name: 'Renamed', url: 'http://agent2.example.net:8080', location: 'eu-west' });
    expect((await api('put', `/agents/${agent.id}`, admin.auth).send({ location: 'eu-north' })).body.data.location).toBe('eu-north');
    expect((await api('put', `/agents/${agent.id}`).send({ status: 'inactive' })).status).toBe(400);
    expect((await api('put', `/agents/${agent.id}`, other.auth).send({ name: 'x' })).status).toBe(404);
  });

  it('sets the status to active, inactive or maintenance, never unreachable', async () => {
    const agent = await createAgent();
    const res = await api('patch', `/agents/${agent.id}/status`).send({ status: 'maintenance' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('maintenance');
    for (const status of ['unreachable', 'down', undefined]) {
      const bad = await api('patch', `/agents/${agent.id}/status`).send(status === undefined ? {} : { status });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.status).toEqual([expect.stringContaining('status')]);
    }
  });

  it('deletes an agent with its assignments, rescheduling the monitors that used it', async () => {
    const agent = await createAgent();
    const monitorId = await createMonitor();
    await api('post', `/monitors/${monitorId}/agents`)
      .send({ agent_ids: [agent.id] })
      .expect(200);
    const [{ config_version: before }] = await h.ds.query('SELECT config_version FROM monitors WHERE id = $1', [monitorId]);
    const res = await api('delete', `/agents/${agent.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Agent deleted');
    expect((await api('get', `/agents/${agent.id}`)).status).toBe(404);
    expect((await api('get', `/monitors/${monitorId}/agents`)).body.data).toEqual([]);
    const [{ config_version: after }] = await h.ds.query('SELECT config_version FROM monitors WHERE id = $1', [monitorId]);
    expect(after).toBe(before + 1);
    expect((await h.scheduler.scheduleOf(monitorId))?.template).toMatchObject({ configVersion: after });
    expect((await h.scheduler.scheduleOf(monitorId))?.template?.agentIds).toBeUndefined();
  });
});

describe('POST /agents/{id}/validate', () => {
  let live: RunningAgent;
  const secretOf = async (id: number): Promise<string> => (await api('get', `/agents/${id}/credentials`)).body.data.secret;

  afterEach(async () => {
    await live?.close({ graceMs: 0 });
  });

  it('reports a live agent reachable with its latency and version, and records it as seen', async () => {
    const agent = await createAgent({ url: 'http://127.0.0.1:1' });
    live = await startAgent({
      agentId: String(agent.id),
      secret: await secretOf(agent.id),
      location: 'eu-west',
      allowPrivateTargets: true,
      logger: createLogger({ level: 'silent', service: 't' }),
      port: 0,
      host: '127.0.0.1',
    });
    await api('put', `/agents/${agent.id}`).send({ url: live.url }).expect(200);
    await h.ds.query(`UPDATE agents SET status = 'unreachable' WHERE id = $1`, [agent.id]);
    const res = await api('post', `/agents/${agent.id}/validate`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reachable: true,
      latency_ms: expect.any(Number),
      version: '0.1.0',
      error: null,
      checked_at: expect.any(String),
    });
    const after = (await api('get', `/agents/${agent.id}`)).body.data;
    expect(after).toMatchObject({ status: 'active', version: '0.1.0', last_seen_at: expect.any(String) });
  });

  it('reports a dead agent unreachable with the reason, and marks it unreachable', async () => {
    const agent = await createAgent({ url: `http://127.0.0.1:${await freePort()}` });
    const res = await api('post', `/agents/${agent.id}/validate`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reachable: false,
      latency_ms: null,
      version: null,
      error: 'agent unreachable: connection refused',
      checked_at: expect.any(String),
    });
    expect((await api('get', `/agents/${agent.id}`)).body.data.status).toBe('unreachable');
  });

  it('reports an agent that refuses our signature (another secret) as unreachable', async () => {
    const agent = await createAgent({ url: 'http://127.0.0.1:1' });
    live = await startAgent({
      agentId: String(agent.id),
      secret: 'some-other-secret-entirely',
      location: 'x',
      allowPrivateTargets: true,
      logger: createLogger({ level: 'silent', service: 't' }),
      port: 0,
      host: '127.0.0.1',
    });
    await api('put', `/agents/${agent.id}`).send({ url: live.url }).expect(200);
    const res = await api('post', `/agents/${agent.id}/validate`);
    expect(res.body.data).toMatchObject({ reachable: false, error: expect.stringContaining('INVALID_SIGNATURE') });
  });

  it("answers 403 to another user validating someone's public agent, and changes nothing the owner sees", async () => {
    const agent = await createAgent({ url: `http://127.0.0.1:${await freePort()}`, is_public: true });
    const before = (await api('get', `/agents/${agent.id}`)).body.data;
    expect(before.status).toBe('active');
    const res = await api('post', `/agents/${agent.id}/validate`, other.auth);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await api('get', `/agents/${agent.id}`)).body.data).toEqual(before);
    // An admin may still validate it: the dead agent is then marked unreachable.
    expect((await api('post', `/agents/${agent.id}/validate`, admin.auth)).body.data.reachable).toBe(false);
    expect((await api('get', `/agents/${agent.id}`)).body.data.status).toBe('unreachable');
  });

  it('answers 404 for an agent the caller cannot see and 400 for a body', async () => {
    const agent = await createAgent();
    expect((await api('post', `/agents/${agent.id}/validate`, other.auth)).status).toBe(404);
    expect((await api('post', `/agents/${agent.id}/validate`).send({ deep: true })).status).toBe(400);
  });
});

describe('GET /agents/stats', () => {
  it('sums the last 24 hours per agent over the caller’s accessible agents (all for an admin)', async () => {
    const mine = await createAgent({ name: 'Mine' });
    const shared = await createAgent({ name: 'Shared', is_public: true }, other.auth);
    const hidden = await createAgent({ name: 'Hidden' }, other.auth);
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const hist = (cells: Record<number, number>) => `{${Array.from({ length: 22 }, (_, i) => cells[i] ?? 0).join(',')}}`;
    const rollup = (
      agentId: number,
      at: number,
      checks: number,
      errors: number,
      failures: number,
      count: number,
      sum: number,
      cells: Record<number, number>,
    ) =>
      h.ds.query(
        `INSERT INTO agent_check_rollups_1h (agent_id, bucket, checks, errors, failures, latency_count, latency_sum, latency_hist) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::int[])`,
        [agentId, new Date(at), checks, errors, failures, count, sum, hist(cells)],
      );
    await rollup(mine.id, hour, 10, 2, 1, 8, 400, { 2: 7, 6: 1 }); // 7 calls ≤ 50 ms, 1 ≤ 200 ms
    await rollup(mine.id, hour - 5 * 3_600_000, 10, 0, 0, 10, 300, { 1: 10 }); // 10 calls ≤ 25 ms
    await rollup(mine.id, hour - 30 * 3_600_000, 99, 99, 0, 0, 0, {}); // older than 24 h
    await rollup(hidden.id, hour, 5, 0, 0, 5, 50, { 0: 5 });

    const res = await api('get', '/agents/stats');
    expect(res.status).toBe(200);
    expect(res.body.data.period).toBe('24h');
    expect(res.body.data.agents.map((a: { agent_id: number }) => a.agent_id)).toEqual([mine.id, shared.id]);
    expect(res.body.data.agents[0]).toEqual({
      agent_id: mine.id,
      name: 'Mine',
      location: 'eu-west',
      status: 'active',
      is_public: false,
      last_seen_at: null,
      checks: 20,
      errors: 2,
      failures: 1,
      error_rate: 10,
      avg_latency_ms: 39,
      p95_latency_ms: 200,
    });
    expect(res.body.data.agents[1]).toMatchObject({
      agent_id: shared.id,
      checks: 0,
      errors: 0,
      error_rate: null,
      avg_latency_ms: null,
      p95_latency_ms: null,
    });
    expect(res.body.data.totals).toEqual({
      agents: 2,
      active: 2,
      inactive: 0,
      maintenance: 0,
      unreachable: 0,
      checks: 20,
      errors: 2,
      failures: 1,
    });

    const all = await api('get', '/agents/stats', admin.auth);
    expect(all.body.data.agents.map((a: { agent_id: number }) => a.agent_id)).toEqual([mine.id, shared.id, hidden.id]);
  });
});
