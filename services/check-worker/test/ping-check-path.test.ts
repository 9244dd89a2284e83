import type { Job } from 'bullmq';
import { Monitor } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createReadiness, createServiceMetrics, type ServiceMetrics } from '@uptime/observability';
import { IcmpUnavailableError, openIcmpSockets, runProbe, type PingBackend, type Pinger } from '@uptime/probe';
import { aMonitor, aUser, metricValue, startPingNamespace, testConfig, UNREACHABLE_IPV4, waitFor, type PingNamespace } from '@uptime/testing';
import type { AgentChecks } from '../src/agent-checks';
import type { CheckOutcome } from '../src/check-outcome';
import { CheckLock } from '../src/check-lock';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import type { LocationOutcome } from '../src/location-vote';
import { createRunCheckProcessor } from '../src/run-check.processor';
import { checkAndRecordOn } from './support/check-and-record';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

const logger = createLogger({ level: 'silent', service: 'ping-check-path-test' });

/**
 * A ping monitor from its schedule to its recorded state. `ping` runs as nobody in network
 * namespaces of the test's own (ping-namespace.ts): one where ICMP datagram sockets are allowed
 * (with an unreachable network), one where they are not.
 */
describe('a ping monitor through the check path', () => {
  let bed: SchedulerBed;
  let icmp: PingNamespace;
  let noIcmp: PingNamespace;

  beforeAll(async () => {
    bed = await startSchedulerBed('ping-check-path-test');
    icmp = startPingNamespace({ icmp: true });
    noIcmp = startPingNamespace({ icmp: false });
  });
  afterAll(async () => {
    icmp?.close();
    noIcmp?.close();
    await bed.close();
  });

  const checkAndRecord = (monitor: Monitor, plannedAt: number, pinger: PingBackend = icmp.pinger) =>
    checkAndRecordOn(bed, 'ping-check-path')(monitor, plannedAt, { allowPrivateTargets: true, pinger });

  const rowOf = (id: number) => bed.ds.getRepository(Monitor).findOneByOrFail({ id });
  const resultsOf = (id: number): Promise<{ ok: boolean; response_time: number | null; packet_loss: number | null; rtt_min_ms: number | null; rtt_avg_ms: number | null; rtt_max_ms: number | null }[]> =>
    bed.ds.query('SELECT ok, response_time, packet_loss, rtt_min_ms, rtt_avg_ms, rtt_max_ms FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [id]);

  it('goes online while 127.0.0.1 answers and offline, with a downtime, when its target never answers', async () => {
    const owner = await aUser(bed.ds);
    const monitor = await aMonitor(bed.ds, owner, { type: 'ping', url: 'ping://127.0.0.1', timeout: 5, pingCount: 2 });
    const up = await checkAndRecord(monitor, Date.now());
    expect(up.result).toMatchObject({ ok: true, ping: { sent: 2, received: 2, packetLoss: 0 } });
    expect(await rowOf(monitor.id)).toMatchObject({ status: 'online', openIncidentId: null });

    await bed.ds.query(`UPDATE monitors SET url = $2, ping_count = 1 WHERE id = $1`, [monitor.id, `ping://${UNREACHABLE_IPV4}`]);
    const down = await checkAndRecord(await rowOf(monitor.id), Date.now() + 1000);
    expect(down.result).toMatchObject({ ok: false, error: 'No answer to 1 echo request (100% packet loss)' });
    const row = await rowOf(monitor.id);
    expect(row.status).toBe('offline');
    expect(row.openIncidentId).toEqual(expect.any(Number));
    const [first, second] = await resultsOf(monitor.id);
    expect(first).toMatchObject({ ok: true, packet_loss: 0, rtt_min_ms: expect.any(Number), rtt_avg_ms: expect.any(Number), rtt_max_ms: expect.any(Number) });
    expect(first!.rtt_min_ms!).toBeLessThanOrEqual(first!.rtt_max_ms!);
    expect(second).toEqual({ ok: false, response_time: null, packet_loss: 100, rtt_min_ms: null, rtt_avg_ms: null, rtt_max_ms: null });
  });

  it("records a check sent through the worker's own ICMP sockets like one of iputils ping, and names that backend in its start line", async () => {
    const lines: { msg: string; ping_backend?: string }[] = [];
    const capturing = createLogger({ level: 'info', service: 'ping-check-path-test', destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
    const metrics = createServiceMetrics();
    // PING_BACKEND=auto, as root on this host: raw ICMP sockets of this process.
    const worker = await startCheckWorker({ config: testConfig(), dataSource: bed.ds, logger: capturing, metrics });
    try {
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'check-worker started', ping_backend: 'sockets' }));
      expect(metricValue(await metrics.render(), 'uptime_icmp_available', { backend: 'sockets' })).toBe(1);
    } finally {
      await worker.close();
    }
    const opened = openIcmpSockets();
    if (opened.sockets === null) throw new Error(opened.reason);
    const sockets = opened.sockets;
    try {
      const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { type: 'ping', url: 'ping://[::1]', timeout: 5, pingCount: 2 });
      const up = await checkAndRecord(monitor, Date.now(), sockets);
      expect(up.result).toMatchObject({ ok: true, ping: { sent: 2, received: 2, packetLoss: 0 } });
      expect(await rowOf(monitor.id)).toMatchObject({ status: 'online' });
      expect(await resultsOf(monitor.id)).toEqual([
        { ok: true, response_time: Math.round(up.result.ping!.rttAvg!), packet_loss: 0, rtt_min_ms: expect.any(Number), rtt_avg_ms: up.result.ping!.rttAvg, rtt_max_ms: expect.any(Number) },
      ]);
    } finally {
      sockets.close();
    }
  });

  it('puts the monitor in warning (slow) when the average round trip is over response_time_threshold', async () => {
    // The round trips of a slow link, as iputils prints them: loopback answers in microseconds.
    const slowLink: Pinger = async (args) => ({
      exitCode: 0,
      stdout: `PING ${args.at(-1)}\n\n--- statistics ---\n3 packets transmitted, 2 received, 33.3333% packet loss, time 2003ms\nrtt min/avg/max/mdev = 180.5/250.25/320.0/70.0 ms\n`,
      stderr: '',
    });
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { type: 'ping', url: 'ping://127.0.0.1', timeout: 5, responseTimeThreshold: 200 });
    const slow = await checkAndRecord(monitor, Date.now(), slowLink);
    expect(slow.result).toMatchObject({ ok: true, responseTime: 250, ping: { packetLoss: 33.33, rttAvg: 250.25 } });
    expect(await rowOf(monitor.id)).toMatchObject({ status: 'warning', statusReason: 'slow' });
    expect(await resultsOf(monitor.id)).toEqual([{ ok: true, response_time: 250, packet_loss: 33.33, rtt_min_ms: 180.5, rtt_avg_ms: 250.25, rtt_max_ms: 320 }]);
  });

  describe('a worker that cannot send ICMP', () => {
    // iputils alone: as root on this host the worker's own ICMP sockets (raw) would work (icmp-access.test.ts).
    const config = { ...testConfig(), pingBackend: 'iputils' as const };
    let metrics: ServiceMetrics;
    let readiness: ReturnType<typeof createReadiness>;
    let withoutIcmp: RunningCheckWorker | undefined;
    let withIcmp: RunningCheckWorker | undefined;
    afterAll(async () => {
      await withoutIcmp?.close();
      await withIcmp?.close();
    });

    it('says so at start, gives its ping checks back and records none of them: no down result, no alert', async () => {
      metrics = createServiceMetrics();
      readiness = createReadiness({ dataSource: bed.ds, redis: bed.redis });
      withoutIcmp = await startCheckWorker({ config, dataSource: bed.ds, logger, metrics, readiness, pinger: noIcmp.pinger });
      expect(metricValue(await metrics.render(), 'uptime_icmp_available', {})).toBe(0);
      expect((await readiness.check()).details).toEqual({ icmp: { available: false, reason: expect.stringMatching(/socket: Operation not permitted/) } });

      const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { type: 'ping', url: 'ping://127.0.0.1', timeout: 5, pingCount: 1, checkInterval: 1 });
      await bed.scheduler.schedule(monitor);
      // The first try and the one given back a second later, for each of two slots.
      await waitFor(async () => (metricValue(await metrics.render(), 'checks_total', { result: 'not_checked', type: 'ping' }) ?? 0) >= 4, {
        what: 'ping checks given back',
      });
      expect(await resultsOf(monitor.id)).toEqual([]);
      expect(await rowOf(monitor.id)).toMatchObject({ status: 'pending', openIncidentId: null });
      const [{ n: events }] = await bed.ds.query('SELECT count(*)::int AS n FROM status_events WHERE monitor_id = $1', [monitor.id]);
      const [{ n: alerts }] = await bed.ds.query('SELECT count(*)::int AS n FROM alert_episodes WHERE monitor_id = $1', [monitor.id]);
      expect({ events, alerts }).toEqual({ events: 0, alerts: 0 });
      expect(metricValue(await metrics.render(), 'checks_total', { result: 'down', type: 'ping' })).toBeUndefined();

      // A worker that can send ICMP takes the checks the other gives back: the monitor goes online, never down.
      const capable = createServiceMetrics();
      withIcmp = await startCheckWorker({ config, dataSource: bed.ds, logger, metrics: capable, pinger: icmp.pinger });
      expect(metricValue(await capable.render(), 'uptime_icmp_available', {})).toBe(1);
      // Each check goes to whichever worker takes the job first, and the one that cannot gives it
      // back a second later: on a loaded machine it won many turns in a row (seen in a clean-clone
      // run), so this waits for the capable one's turn longer than waitFor's default 15 s.
      await waitFor(async () => (await rowOf(monitor.id)).status === 'online', { what: 'the monitor checked by the worker that can', timeoutMs: 40_000 });
      const results = await resultsOf(monitor.id);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.ok && r.packet_loss === 0)).toBe(true);
    }, 90_000);

    it("lets the agents that answered vote without it, and records nothing when none did", async () => {
      const agentSaid = (status: LocationOutcome['status']): LocationOutcome => ({
        location: 'eu-agent',
        agentId: 9,
        status,
        statusCode: null,
        responseTime: status === 'up' ? 12 : null,
        error: status === 'up' ? null : 'agent answered HTTP 503: ICMP_UNAVAILABLE',
        checkedAt: new Date(),
        observedAt: new Date(),
        latencyMs: 3,
        agentVersion: '0.1.0',
      });
      const run = (status: LocationOutcome['status'], recorded: CheckOutcome[]) => {
        const agents: AgentChecks = { localLocation: 'worker', usable: async () => [{ id: 9, url: 'http://127.0.0.1:9', secret: 'unused', location: 'eu-agent', status: 'active' }], check: async () => agentSaid(status) };
        return createRunCheckProcessor({
          probe: runProbe,
          probeOptions: { allowPrivateTargets: true, pinger: noIcmp.pinger },
          lock: new CheckLock(bed.redis, `${process.env.QUEUE_PREFIX}:ping-agents`),
          record: async (o) => {
            recorded.push(o);
          },
          logger,
          agents,
        })({ id: 'now-77-1795000000000', data: { monitorId: 77, configVersion: 1, agentIds: [9], check: { type: 'ping', url: 'ping://127.0.0.1', timeout: 5 } }, timestamp: Date.now(), opts: {} } as unknown as Job);
      };
      const answered: CheckOutcome[] = [];
      await expect(run('up', answered)).resolves.toBe('recorded');
      expect(answered[0]!.result).toMatchObject({ ok: true, responseTime: 12 });
      expect(answered[0]!.locations!.map((l) => [l.location, l.status])).toEqual([['worker', 'error'], ['eu-agent', 'up']]);
      const unanswered: CheckOutcome[] = [];
      await expect(run('error', unanswered)).rejects.toBeInstanceOf(IcmpUnavailableError);
      expect(unanswered).toEqual([]);
    });
  });
});
