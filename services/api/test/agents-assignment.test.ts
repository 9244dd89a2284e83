import request from 'supertest';
import { Agent } from '@uptime/db';
import { aCaller, resetRedis } from '@uptime/testing';
import { reconcileSchedules } from '../src/schedule-reconciler';
import { startApiHarness, useApiHarness, type ApiHarness } from './support/api-harness';

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
const templateOf = async (monitorId: number) =>
  (await h.scheduler.scheduleOf(monitorId))?.template as Record<string, unknown> | undefined;

let seq = 0;
async function anAgent(ownerId: number, extra: Partial<Agent> = {}): Promise<Agent> {
  seq += 1;
  const repo = h.ds.getRepository(Agent);
  return repo.save(
    repo.create({
      ownerId,
      name: `Agent ${seq}`,
      location: `loc-${seq}`,
      url: `https://agent${seq}.example.net`,
      secret: 's'.repeat(64),
      ...extra,
    }),
  );
}

async function createMonitor(as = owner.auth): Promise<number> {
  const res = await api('post', '/monitors', as).send({ name: 'Shop', url: 'https://shop.example/health', type: 'http' });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

describe('/monitors/{id}/agents', () => {
  it('assigns, lists and removes agents, each answering the agents now assigned', async () => {
    const [a, b] = [await anAgent(owner.id), await anAgent(owner.id)];
    const id = await createMonitor();
    expect((await api('get', `/monitors/${id}/agents`)).body.data).toEqual([]);

    const assigned = await api('post', `/monitors/${id}/agents`).send({ agent_ids: [b.id, a.id, b.id] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.message).toBe('Agents assigned');
    expect(assigned.body.data.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
    expect(assigned.body.data[0]).toMatchObject({ id: a.id, name: a.name, location: a.location, status: 'active', owner_id: owner.id });
    expect(assigned.body.data[0].secret).toBeUndefined();

    const listed = await api('get', `/monitors/${id}/agents`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);

    const removed = await api('delete', `/monitors/${id}/agents`).send({ agent_ids: [a.id, 99999] });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ message: 'Agents removed' });
    expect(removed.body.data.map((x: { id: number }) => x.id)).toEqual([b.id]);
  });

  it('puts the assigned agent ids in the schedule, with a new config version, and keeps them through updates and reconciliation', async () => {
    const [a, b] = [await anAgent(owner.id), await anAgent(owner.id)];
    const id = await createMonitor();
    expect(await templateOf(id)).not.toHaveProperty('agentIds');
    await api('post', `/monitors/${id}/agents`)
      .send({ agent_ids: [b.id, a.id] })
      .expect(200);
    expect(await templateOf(id)).toMatchObject({ monitorId: id, configVersion: 2, agentIds: [a.id, b.id] });

    // A later edit of the monitor rebuilds the schedule from the row: the agents stay.
    await api('patch', `/monitors/${id}`).send({ timeout: 10 }).expect(200);
    expect(await templateOf(id)).toMatchObject({ configVersion: 3, check: { timeout: 10 }, agentIds: [a.id, b.id] });

    // Redis lost its schedules: the reconciler rebuilds them with the agents.
    await resetRedis(h.config.redis.queuePrefix);
    await reconcileSchedules(h.ds, h.scheduler);
    expect(await templateOf(id)).toMatchObject({ configVersion: 3, agentIds: [a.id, b.id] });

    await api('delete', `/monitors/${id}/agents`)
      .send({ agent_ids: [a.id, b.id] })
      .expect(200);
    expect(await templateOf(id)).toMatchObject({ configVersion: 4 });
    expect(await templateOf(id)).not.toHaveProperty('agentIds');
  });

  it('refuses agents the caller cannot use with 403, whether private, in maintenance or missing', async () => {
    const id = await createMonitor();
    const privateAgent = await anAgent(other.id);
    const resting = await anAgent(other.id, { isPublic: true, status: 'maintenance' });
    const shared = await anAgent(other.id, { isPublic: true });
    for (const agentId of [privateAgent.id, resting.id, 99999]) {
      const res = await api('post', `/monitors/${id}/agents`).send({ agent_ids: [shared.id, agentId] });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { agent_ids: [agentId] } });
    }
    expect((await api('get', `/monitors/${id}/agents`)).body.data).toEqual([]);
    expect((await api('post', `/monitors/${id}/agents`).send({ agent_ids: [shared.id] })).status).toBe(200);
  });

  it('lets an admin assign any agent to their own monitor', async () => {
    const privateAgent = await anAgent(owner.id);
    const id = await createMonitor(admin.auth);
    expect((await api('post', `/monitors/${id}/agents`, admin.auth).send({ agent_ids: [privateAgent.id] })).status).toBe(200);
  });

  it('answers 404 for another user’s monitor, exactly as for a missing one', async () => {
    const agent = await anAgent(other.id);
    const theirs = await createMonitor(other.auth);
    for (const [method, path] of [
      ['get', `/monitors/${theirs}/agents`],
      ['post', `/monitors/${theirs}/agents`],
      ['delete', `/monitors/${theirs}/agents`],
      ['get', '/monitors/99999/agents'],
    ] as const) {
      const res = await api(method, path).send(method === 'get' ? undefined : { agent_ids: [agent.id] });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('MONITOR_NOT_FOUND');
    }
  });

  it('validates the body: a non-empty array of agent ids and nothing else', async () => {
    const id = await createMonitor();
    for (const body of [
      {},
      { agent_ids: [] },
      { agent_ids: ['x'] },
      { agent_ids: [0] },
      { agent_ids: 3 },
      { agent_ids: [1], extra: true },
    ]) {
      const res = await api('post', `/monitors/${id}/agents`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('keeps a monitor at 20 agents at most', async () => {
    const id = await createMonitor();
    const agents = [];
    for (let i = 0; i < 21; i++) agents.push((await anAgent(owner.id)).id);
    expect((await api('post', `/monitors/${id}/agents`).send({ agent_ids: agents.slice(0, 20) })).status).toBe(200);
    const over = await api('post', `/monitors/${id}/agents`).send({ agent_ids: [agents[20]] });
    expect(over.status).toBe(400);
    expect(over.body.error.details.agent_ids).toEqual([expect.stringContaining('20')]);
  });
});

describe('agents and the SSRF guard (ALLOW_PRIVATE_TARGETS=false)', () => {
  let strict: ApiHarness;
  beforeAll(async () => {
    strict = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(async () => {
    await strict.close();
  });

  it('refuses a private agent address at creation and never calls one when validating', async () => {
    const created = await request(strict.app)
      .post('/api/v1/agents')
      .set('Authorization', owner.auth)
      .send({ name: 'Local', location: 'x', url: 'http://127.0.0.1:8080' });
    expect(created.status).toBe(400);
    expect(created.body.error.details.url[0]).toMatch(/not allowed/);
    const sneaked = await anAgent(owner.id, { url: 'http://169.254.169.254' });
    const res = await request(strict.app).post(`/api/v1/agents/${sneaked.id}/validate`).set('Authorization', owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ reachable: false, error: expect.stringMatching(/^agent address refused: .*169\.254\.169\.254/) });
  });
});
