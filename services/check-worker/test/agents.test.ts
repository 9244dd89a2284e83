import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Agent, Monitor, type AgentStatus, type DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { runProbe, type CheckConfig, type ProbeOptions } from '@uptime/probe';
import { checkConfigOf, createRedisConnection, MonitorScheduler } from '@uptime/queues';
import {
  aCheckConfig,
  aMonitor,
  aUser,
  answer,
  freePort,
  openTestDatabase,
  resetDatabase,
  resetRedis,
  startFakeHttpServer,
  testConfig,
  waitFor,
  type FakeHttpServer,
} from '@uptime/testing';
// The reference agent itself, in-process: the real server, signatures and probe.
import { startAgent, type RunningAgent } from '@uptime/agent';
import { createAgentChecks } from '../src/agent-checks';
import { startCheckWorker } from '../src/check-worker';
import { CheckLock } from '../src/check-lock';
import { recordCheckBatch } from '../src/record-check-batch';
import { createRunCheckProcessor } from '../src/run-check.processor';

jest.setTimeout(30_000);

const logger = createLogger({ level: 'silent', service: 'agents-test' });
const SECRET = 'check-worker-agent-secret-0123456789';

/**
 * Locations whose network cannot reach the target: their agent's probe is sent to a closed port
 * instead (a real "connection refused" from the real probe), as if the target were unreachable
 * from that place.
 */
const cutOff = new Set<string>();
let closedUrl = 'http://127.0.0.1:1';

function regionalProbe(location: string) {
  return (config: CheckConfig, options: ProbeOptions) => runProbe(cutOff.has(location) ? { ...config, url: closedUrl } : config, options);
}

let plannedAt = Date.now();

/** A one-off job; each planned a second after the previous one, so results order as they ran. */
function aJob(data: unknown): Job {
  plannedAt += 1000;
  const id = `now-${(data as { monitorId: number }).monitorId}-${plannedAt}`;
  return { id, data, timestamp: Date.now(), opts: {} } as unknown as Job;
}

interface LocationRow {
  location: string;
  agent_id: number | null;
  ok: boolean | null;
  status_code: number | null;
  error: string | null;
  latency_ms: number | null;
}

describe('checks through agents', () => {
  let ds: DataSource;
  let redis: Redis;
  let target: FakeHttpServer;
  let eu: RunningAgent;
  let us: RunningAgent;
  let euPort: number;
  const prefix = `${process.env.QUEUE_PREFIX}:agents-test`;

  const startEu = () =>
    startAgent({
      agentId: String(euAgent.id),
      secret: SECRET,
      location: 'eu-west',
      allowPrivateTargets: true,
      logger,
      port: euPort,
      host: '127.0.0.1',
      probe: regionalProbe('eu-west'),
    });
  let euAgent: Agent;
  let usAgent: Agent;

  beforeAll(async () => {
    ds = await openTestDatabase();
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    target = await startFakeHttpServer(answer(200, 'fine'));
    closedUrl = `http://127.0.0.1:${await freePort()}/`;
    euPort = await freePort();
  });
  afterAll(async () => {
    await target.close();
    await redis.quit();
    await ds.destroy();
  });

  beforeEach(async () => {
    await resetDatabase(ds);
    cutOff.clear();
    target.respond(answer(200, 'fine'));
    const owner = await aUser(ds);
    const repo = ds.getRepository(Agent);
    euAgent = await repo.save(repo.create({ ownerId: owner.id, name: 'EU', location: 'eu-west', url: 'http://pending', secret: SECRET }));
    usAgent = await repo.save(repo.create({ ownerId: owner.id, name: 'US', location: 'us-east', url: 'http://pending', secret: SECRET }));
    eu = await startEu();
    us = await startAgent({
      agentId: String(usAgent.id),
      secret: SECRET,
      location: 'us-east',
      allowPrivateTargets: true,
      logger,
      port: 0,
      host: '127.0.0.1',
      probe: regionalProbe('us-east'),
    });
    await repo.update({ id: euAgent.id }, { url: eu.url });
    await repo.update({ id: usAgent.id }, { url: us.url });
  });
  afterEach(async () => {
    await eu.close({ graceMs: 0 });
    await us.close({ graceMs: 0 });
  });

  function processor(agentChecks = createAgentChecks({ ds, allowPrivateTargets: true, localLocation: 'local', logger, cacheTtlMs: 0 })) {
    return createRunCheckProcessor({
      probe: runProbe,
      probeOptions: { allowPrivateTargets: true },
      lock: new CheckLock(redis, prefix),
      record: async (outcome) => {
        await recordCheckBatch(ds, [outcome]);
      },
      logger,
      agents: agentChecks,
    });
  }

  async function monitorWithBothAgents(overrides: Partial<Monitor> = {}): Promise<{ monitor: Monitor; job: () => Job }> {
    const owner = await aUser(ds);
    const monitor = await aMonitor(ds, owner, { url: `${target.url}/status`, timeout: 5, ...overrides });
    const job = () =>
      aJob({
        monitorId: monitor.id,
        configVersion: monitor.configVersion,
        check: checkConfigOf(monitor),
        agentIds: [euAgent.id, usAgent.id],
      });
    return { monitor, job };
  }

  const monitorStatus = async (id: number) => (await ds.getRepository(Monitor).findOneByOrFail({ id })).status;
  const agentRow = (id: number) => ds.getRepository(Agent).findOneByOrFail({ id });
  const latestLocations = async (
    monitorId: number,
  ): Promise<{ result: { ok: boolean; error: string | null }; locations: LocationRow[] }> => {
    // One result row per check (it has no location column); each location's result is beside it.
    const [result] = await ds.query(
      `SELECT id, ok, error FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at DESC LIMIT 1`,
      [monitorId],
    );
    const locations: LocationRow[] = await ds.query(
      `SELECT location, agent_id, ok, status_code, error, latency_ms FROM check_location_results WHERE check_result_id = $1 ORDER BY id`,
      [result.id],
    );
    return { result, locations };
  };

  it('runs the check locally and through both agents, storing one result and each location', async () => {
    const { monitor, job } = await monitorWithBothAgents();
    const checkedFrom = Date.now();
    await expect(processor()(job())).resolves.toBe('recorded');
    const { result, locations } = await latestLocations(monitor.id);
    expect(result).toMatchObject({ ok: true, error: null });
    expect(locations).toEqual([
      expect.objectContaining({ location: 'local', agent_id: null, ok: true, status_code: 200, latency_ms: null }),
      expect.objectContaining({ location: 'eu-west', agent_id: euAgent.id, ok: true, status_code: 200, latency_ms: expect.any(Number) }),
      expect.objectContaining({ location: 'us-east', agent_id: usAgent.id, ok: true, status_code: 200, latency_ms: expect.any(Number) }),
    ]);
    expect(await monitorStatus(monitor.id)).toBe('online');
    // The target saw three requests: the worker's and one from each agent.
    expect(target.requests.filter((r) => r.url === '/status')).toHaveLength(3);
    const seen = await agentRow(euAgent.id);
    // Seen when it answered this check.
    expect(seen.lastSeenAt?.getTime()).toBeGreaterThanOrEqual(checkedFrom - 1_000);
    expect(seen.lastSeenAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(seen.version).toBe('0.1.0');
    const [rollup] = await ds.query(`SELECT checks, errors, failures, latency_count FROM agent_check_rollups_1h WHERE agent_id = $1`, [
      usAgent.id,
    ]);
    expect(rollup).toEqual({ checks: 1, errors: 0, failures: 0, latency_count: 1 });
  });

  it('keeps the monitor online when one location alone fails, and takes it offline when both agents fail', async () => {
    const { monitor, job } = await monitorWithBothAgents();
    const run = processor();
    await run(job());
    expect(await monitorStatus(monitor.id)).toBe('online');

    cutOff.add('us-east');
    await run(job());
    let latest = await latestLocations(monitor.id);
    expect(latest.result.ok).toBe(true);
    expect(latest.locations.map((l) => [l.location, l.ok])).toEqual([
      ['local', true],
      ['eu-west', true],
      ['us-east', false],
    ]);
    expect(latest.locations[2]!.error).toMatch(/Connection refused/);
    expect(await monitorStatus(monitor.id)).toBe('online');

    cutOff.add('eu-west');
    await run(job());
    latest = await latestLocations(monitor.id);
    expect(latest.result.ok).toBe(false);
    expect(latest.result.error).toMatch(/^Down in 2 of 3 locations: eu-west: Connection refused; us-east: Connection refused/);
    expect(await monitorStatus(monitor.id)).toBe('offline');
    const [{ incidents }] = await ds.query(`SELECT count(*)::int AS incidents FROM incidents WHERE monitor_id = $1`, [monitor.id]);
    expect(incidents).toBe(1);
    const [rollup] = await ds.query(`SELECT checks, errors, failures FROM agent_check_rollups_1h WHERE agent_id = $1`, [usAgent.id]);
    expect(rollup).toEqual({ checks: 3, errors: 0, failures: 2 });
  });

  it('takes an agent stopped mid-run for unreachable, without a false downtime, and back to active when it answers again', async () => {
    const { monitor, job } = await monitorWithBothAgents();
    const run = processor();
    await run(job());
    // The target is slow now: the EU agent is stopped while its check is in flight.
    target.respond((_req, res) => setTimeout(() => answer(200, 'fine')(_req, res), 400));
    const inFlight = run(job());
    await waitFor(() => target.requests.length >= 6, { what: 'the three requests of the second check' });
    await eu.close({ graceMs: 0 });
    await expect(inFlight).resolves.toBe('recorded');

    let latest = await latestLocations(monitor.id);
    expect(latest.result.ok).toBe(true);
    expect(latest.locations.find((l) => l.location === 'eu-west')).toMatchObject({
      ok: null,
      agent_id: euAgent.id,
      error: expect.stringMatching(/^agent /),
    });
    expect(await monitorStatus(monitor.id)).toBe('online');
    expect((await agentRow(euAgent.id)).status).toBe('unreachable');
    expect((await agentRow(usAgent.id)).status).toBe('active');

    // Still down, and the target now fails at the US location too: 1 of 2 answering fails, still up.
    target.respond(answer(200, 'fine'));
    cutOff.add('us-east');
    await run(job());
    latest = await latestLocations(monitor.id);
    expect(latest.locations.map((l) => [l.location, l.ok])).toEqual([
      ['local', true],
      ['eu-west', null],
      ['us-east', false],
    ]);
    expect(latest.locations[1]!.error).toMatch(/connection refused/);
    expect(await monitorStatus(monitor.id)).toBe('online');
    const [{ incidents }] = await ds.query(`SELECT count(*)::int AS incidents FROM incidents WHERE monitor_id = $1`, [monitor.id]);
    expect(incidents).toBe(0);

    cutOff.clear();
    eu = await startEu();
    await run(job());
    expect((await agentRow(euAgent.id)).status).toBe('active');
    const [rollup] = await ds.query(`SELECT checks, errors FROM agent_check_rollups_1h WHERE agent_id = $1`, [euAgent.id]);
    expect(rollup).toEqual({ checks: 4, errors: 2 });
  });

  it('skips inactive and maintenance agents and leaves the owner’s status alone', async () => {
    const { monitor, job } = await monitorWithBothAgents();
    await ds.getRepository(Agent).update({ id: euAgent.id }, { status: 'maintenance' as AgentStatus });
    await processor()(job());
    const { locations } = await latestLocations(monitor.id);
    expect(locations.map((l) => l.location)).toEqual(['local', 'us-east']);
    expect((await agentRow(euAgent.id)).status).toBe('maintenance');
  });

  it('refuses to trust an agent answering with another secret: an agent error, not a verdict', async () => {
    const { monitor, job } = await monitorWithBothAgents();
    await ds.getRepository(Agent).update({ id: usAgent.id }, { secret: 'rotated-secret-the-agent-does-not-know' });
    await processor()(job());
    const { result, locations } = await latestLocations(monitor.id);
    expect(result.ok).toBe(true);
    expect(locations.find((l) => l.location === 'us-east')).toMatchObject({ ok: null, error: expect.stringContaining('HTTP 401') });
    expect((await agentRow(usAgent.id)).status).toBe('unreachable');
  });

  it('leaves monitors without agents on the plain path: no lookup, no location rows', async () => {
    const owner = await aUser(ds);
    const monitor = await aMonitor(ds, owner, { url: target.url });
    const agentChecks = createAgentChecks({ ds, allowPrivateTargets: true, localLocation: 'local', logger });
    const usable = jest.spyOn(agentChecks, 'usable');
    const check = aCheckConfig(target.url);
    await processor(agentChecks)(aJob({ monitorId: monitor.id, configVersion: 1, check }));
    expect(usable).not.toHaveBeenCalled();
    const [{ results }] = await ds.query(`SELECT count(*)::int AS results FROM check_results WHERE monitor_id = $1`, [monitor.id]);
    const [{ rows }] = await ds.query(`SELECT count(*)::int AS rows FROM check_location_results`);
    expect([results, rows]).toEqual([1, 0]);
  });

  it('runs scheduled checks through agents in a started check-worker', async () => {
    await resetRedis(process.env.QUEUE_PREFIX);
    const config = testConfig({ CHECK_LOCATION: 'worker-dc' });
    const worker = await startCheckWorker({ config, dataSource: ds, logger });
    const scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
    try {
      const { monitor } = await monitorWithBothAgents();
      await ds.query(`INSERT INTO monitor_agents (monitor_id, agent_id) VALUES ($1, $2), ($1, $3)`, [monitor.id, euAgent.id, usAgent.id]);
      const loaded = await ds.getRepository(Monitor).findOneByOrFail({ id: monitor.id });
      expect(loaded.agentIds?.sort()).toEqual([euAgent.id, usAgent.id].sort());
      await scheduler.checkNow(loaded);
      const rows = await waitFor(
        async () => {
          const found: { location: string }[] = await ds.query(
            `SELECT l.location FROM check_location_results l JOIN check_results r ON r.id = l.check_result_id WHERE r.monitor_id = $1 ORDER BY l.id`,
            [monitor.id],
          );
          return found.length === 3 ? found : null;
        },
        { what: 'the three locations of the check' },
      );
      expect(rows.map((r) => r.location)).toEqual(['worker-dc', 'eu-west', 'us-east']);
    } finally {
      await scheduler.close();
      await worker.close();
    }
  });
});
