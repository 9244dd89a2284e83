import { createLogger } from '@uptime/logger';
import { createServiceMetrics, ReadinessChecker } from '@uptime/observability';
import { IcmpUnavailableError, runProbe } from '@uptime/probe';
import { metricValue, startPingNamespace, type PingNamespace } from '@uptime/testing';
import { aPingCheckConfig } from '@uptime/probe/test/support/check-config-builder';
import { announceIcmpAccess, ICMP_UNAVAILABLE_MESSAGE, type IcmpBackendChoice } from '../src/icmp-access';

/**
 * How a check-worker picks the way it sends ping checks at start (docs/operations.md, "ICMP
 * ping"), with real sockets: this process's (root on the host: raw ICMP sockets) and iputils
 * `ping` run as nobody in namespaces of the test's own (ping-namespace.ts), one that allows ICMP
 * datagram sockets and one that allows none.
 */
describe('the ping backend a check-worker chooses at start', () => {
  let icmp: PingNamespace;
  let noIcmp: PingNamespace;
  const chosen: IcmpBackendChoice[] = [];
  beforeAll(() => {
    icmp = startPingNamespace({ icmp: true });
    noIcmp = startPingNamespace({ icmp: false });
  });
  afterAll(() => {
    for (const choice of chosen) choice.close();
    icmp?.close();
    noIcmp?.close();
  });

  const start = async (options: Omit<Parameters<typeof announceIcmpAccess>[0], 'logger' | 'metrics' | 'readiness'>) => {
    const logs: { msg: string; reason?: string; sockets_refused?: string }[] = [];
    const metrics = createServiceMetrics();
    const readiness = new ReadinessChecker([]);
    const logger = createLogger({ level: 'info', service: 'icmp-access-test', destination: { write: (line: string) => logs.push(JSON.parse(line)) } });
    const choice = await announceIcmpAccess({ ...options, logger, metrics, readiness });
    chosen.push(choice);
    return { choice, logs, metrics: await metrics.render(), details: (await readiness.check()).details };
  };
  const notBuilt = () => ({ sockets: null, reason: 'the ICMP socket addon was not built' });

  it('takes its own ICMP sockets when the addon opens one that 127.0.0.1 answers, and says so', async () => {
    const { choice, metrics, details, logs } = await start({ mode: 'auto', pinger: noIcmp.pinger });
    expect(choice).toMatchObject({ name: 'sockets', socketsRefused: null });
    expect(metricValue(metrics, 'uptime_icmp_available', { backend: 'sockets' })).toBe(1);
    expect(details).toEqual({ icmp: { available: true, backend: 'sockets', socket: expect.stringMatching(/^(raw|datagram)$/) } });
    expect(logs).toEqual([]);
    const result = await runProbe(aPingCheckConfig('ping://127.0.0.1', { pingCount: 1 }), { allowPrivateTargets: true, pinger: choice.backend });
    expect(result).toMatchObject({ ok: true, ping: { sent: 1, received: 1, packetLoss: 0 } });
  });

  it('falls back to iputils ping when the addon is absent, as when it was never built', async () => {
    const { choice, metrics, details } = await start({ mode: 'auto', pinger: icmp.pinger, openSockets: notBuilt });
    expect(choice).toMatchObject({ name: 'iputils', backend: icmp.pinger, socketsRefused: 'the ICMP socket addon was not built' });
    expect(metricValue(metrics, 'uptime_icmp_available', { backend: 'iputils' })).toBe(1);
    expect(details).toEqual({ icmp: { available: true, backend: 'iputils' } });
  });

  it('uses iputils ping alone with PING_BACKEND=iputils, though its own sockets would work', async () => {
    const { choice } = await start({ mode: 'iputils', pinger: icmp.pinger });
    expect(choice).toMatchObject({ name: 'iputils', backend: icmp.pinger, socketsRefused: null });
  });

  it('has none when neither can send ICMP: says why, and its ping checks fail on our side, never as down', async () => {
    const { choice, metrics, details, logs } = await start({ mode: 'auto', pinger: noIcmp.pinger, openSockets: notBuilt });
    expect(choice.name).toBe('none');
    expect(metricValue(metrics, 'uptime_icmp_available', { backend: 'none' })).toBe(0);
    expect(details).toEqual({ icmp: { available: false, reason: expect.stringMatching(/socket: Operation not permitted/) } });
    expect(logs).toEqual([
      expect.objectContaining({ msg: ICMP_UNAVAILABLE_MESSAGE, reason: expect.stringMatching(/socket: Operation not permitted/), sockets_refused: 'the ICMP socket addon was not built' }),
    ]);
    await expect(runProbe(aPingCheckConfig('ping://127.0.0.1'), { allowPrivateTargets: true, pinger: choice.backend })).rejects.toBeInstanceOf(IcmpUnavailableError);
  });

  it('has none with PING_BACKEND=sockets when the addon is absent, without trying iputils ping', async () => {
    const { choice, details } = await start({ mode: 'sockets', pinger: icmp.pinger, openSockets: notBuilt });
    expect(choice.name).toBe('none');
    expect(details).toEqual({ icmp: { available: false, reason: 'the ICMP socket addon was not built' } });
  });
});
