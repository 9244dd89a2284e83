import { readFileSync } from 'node:fs';
import {
  allowPublicAddressesOnly,
  IcmpUnavailableError,
  openIcmpSockets,
  runProbe,
  runProbeWithPolicy,
  checkIcmpAccess,
  systemPinger,
  type IcmpSockets,
  type PingFigures,
  type ProbeResult,
} from '../src';
import type { PingCheckConfig } from '../src/check-config';
import { parsePingOutput } from '../src/ping/ping-output';
import { aPingCheckConfig } from './support/check-config-builder';
import { startPingNamespace, UNREACHABLE_IPV4, UNREACHABLE_IPV6, type PingNamespace } from './support/ping-namespace';

// Echo requests go only to this machine's loopback and to namespaces the test made (ping-namespace.ts).
let allowed: PingNamespace;
let refused: PingNamespace;
beforeAll(() => {
  allowed = startPingNamespace({ icmp: true });
  refused = startPingNamespace({ icmp: false });
});
afterAll(() => {
  allowed?.close();
  refused?.close();
});

const answered = (sent: number): Partial<PingFigures> => ({ sent, received: sent, packetLoss: 0, rttMin: expect.any(Number), rttAvg: expect.any(Number), rttMax: expect.any(Number) });

type Probe = (config: PingCheckConfig) => Promise<Omit<ProbeResult, 'checkedAt'>>;

/** One check through ICMP sockets of a Node process run inside `namespace` (socket-probes.ts); IcmpUnavailableError as runProbe rejects with it. */
const throughSockets =
  (namespace: () => PingNamespace): Probe =>
  async (config) => {
    const [one] = (await namespace().probeWithSockets([config])).results;
    if ('unavailable' in one!) throw new IcmpUnavailableError(one.unavailable);
    return one!.result;
  };

describe.each<[string, () => Probe, () => Probe]>([
  ['iputils ping', () => (config) => runProbe(config, { allowPrivateTargets: true, pinger: allowed.pinger }), () => (config) => runProbe(config, { allowPrivateTargets: true, pinger: refused.pinger })],
  ['ICMP datagram sockets in the process (the addon)', () => throughSockets(() => allowed), () => throughSockets(() => refused)],
])('ping check without root or CAP_NET_RAW (nobody, ICMP datagram sockets) through %s', (_backend, allowedProbe, refusedProbe) => {
  it.each([
    ['127.0.0.1', 'ping://127.0.0.1'],
    ['::1', 'ping://[::1]'],
    ['::1 written bare', 'ping://::1'],
  ])('is up when %s answers, with the loss, round trips and the average as response time', async (_name, url) => {
    const result = await allowedProbe()(aPingCheckConfig(url, { pingCount: 2 }));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null, attempts: 1, ping: answered(2) });
    const ping = result.ping!;
    expect(ping.rttMin!).toBeLessThanOrEqual(ping.rttAvg!);
    expect(ping.rttAvg!).toBeLessThanOrEqual(ping.rttMax!);
    expect(result.responseTime).toBe(Math.round(ping.rttAvg!));
  });

  it.each([UNREACHABLE_IPV4, UNREACHABLE_IPV6])('is down with 100%% loss when %s never answers, after each retry', async (address) => {
    const url = `ping://${address}`;
    const result = await allowedProbe()(aPingCheckConfig(url, { pingCount: 1, timeout: 1, retryCount: 1 }));
    expect(result).toMatchObject({ ok: false, responseTime: null, attempts: 2, error: 'No answer to 1 echo request (100% packet loss)' });
    expect(result.ping).toEqual({ sent: 1, received: 0, packetLoss: 100, rttMin: null, rttAvg: null, rttMax: null });
  });

  it('rejects with IcmpUnavailableError, never a down result, where the process may not open an ICMP socket', async () => {
    const refusal = refusedProbe()(aPingCheckConfig('ping://127.0.0.1'));
    await expect(refusal).rejects.toBeInstanceOf(IcmpUnavailableError);
    await expect(refusal).rejects.toMatchObject({ reason: expect.stringMatching(/socket: Operation not permitted/) });
  });
});

it('says whether iputils ping can send ICMP, from one echo request to 127.0.0.1', async () => {
  await expect(checkIcmpAccess(refused.pinger)).resolves.toEqual({ available: false, reason: expect.stringMatching(/socket: Operation not permitted/) });
  await expect(checkIcmpAccess(allowed.pinger)).resolves.toEqual({ available: true });
});

describe('ICMP sockets shared by many checks', () => {
  it('gives each of 200 checks at once its own replies, nobody in a namespace through datagram sockets', async () => {
    // Every tenth check never gets an answer: a reply handed to the wrong check would show there.
    const checks = Array.from({ length: 200 }, (_, i) =>
      aPingCheckConfig(i % 10 === 9 ? `ping://${UNREACHABLE_IPV4}` : i % 2 === 0 ? 'ping://127.0.0.1' : 'ping://[::1]', { pingCount: 2, timeout: 2 }),
    );
    const run = await allowed.probeWithSockets(checks);
    expect(run.kind).toEqual({ 4: 'datagram', 6: 'datagram' });
    const figures = run.results.map((one) => ('result' in one ? one.result.ping : one.unavailable));
    expect(figures).toEqual(checks.map((check) => (check.url.includes(UNREACHABLE_IPV4) ? expect.objectContaining({ sent: 2, received: 0 }) : expect.objectContaining(answered(2)))));
  });

  describe('as root on this host, through raw sockets when ping_group_range refuses datagram ones', () => {
    let sockets: IcmpSockets;
    beforeAll(() => {
      const opened = openIcmpSockets();
      if (opened.sockets === null) throw new Error(`these tests need the addon: ${opened.reason}`);
      sockets = opened.sockets;
    });
    afterAll(() => sockets?.close());

    it('opens the socket kind the host allows: raw when root (group 0) is outside net.ipv4.ping_group_range', () => {
      const [low, high] = readFileSync('/proc/sys/net/ipv4/ping_group_range', 'utf8').trim().split(/\s+/).map(Number);
      const expected = low! <= 0 && 0 <= high! ? 'datagram' : 'raw';
      expect([sockets.kindOf(4), sockets.kindOf(6)]).toEqual([expected, expected]);
    });

    it.each(['ping://127.0.0.1', 'ping://[::1]'])('is up when %s answers, with 0%% loss', async (url) => {
      const result = await runProbe(aPingCheckConfig(url, { pingCount: 2 }), { allowPrivateTargets: true, pinger: sockets });
      expect(result).toMatchObject({ ok: true, error: null, attempts: 1, ping: answered(2) });
      expect(result.responseTime).toBe(Math.round(result.ping!.rttAvg!));
    });

    it('pings the address the guard resolved for a name', async () => {
      const result = await runProbe(aPingCheckConfig('ping://localhost', { pingCount: 1 }), { allowPrivateTargets: true, pinger: sockets });
      expect(result).toMatchObject({ ok: true, ping: answered(1), timings: { dns: expect.any(Number) } });
    });

    it('gives each of 200 checks at once its own replies, and takes none of another process\'s (iputils ping beside it)', async () => {
      // The host's own ping runs meanwhile; a raw socket sees its echo replies too, which are not ours.
      const beside = systemPinger(['-4', '-n', '-c', '8', '-i', '0.2', '127.0.0.1'], 10_000);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => runProbe(aPingCheckConfig(i % 2 === 0 ? 'ping://127.0.0.1' : 'ping://[::1]', { pingCount: 2 }), { allowPrivateTargets: true, pinger: sockets })),
      );
      expect(results.map((result) => result.ping)).toEqual(results.map(() => expect.objectContaining(answered(2))));
      expect(parsePingOutput((await beside).stdout)).toMatchObject({ sent: 8, received: 8 });
    });
  });
});

describe('ping check and the SSRF guard', () => {
  it.each(['ping://127.0.0.1', 'ping://127.1', 'ping://[::1]', 'ping://10.0.0.1', 'ping://169.254.169.254', 'ping://localhost'])(
    'refuses %s under the hosted policy without sending anything',
    async (url) => {
      const pinger = jest.fn();
      const result = await runProbeWithPolicy(aPingCheckConfig(url), allowPublicAddressesOnly, undefined, pinger);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/is not allowed \(private or reserved range\)/), ping: null });
      expect(pinger).not.toHaveBeenCalled();
    },
  );

  it('pings the address the guard resolved, not the name (no second lookup to rebind)', async () => {
    const pinger = jest.fn().mockResolvedValue({ exitCode: 0, stdout: '1 packets transmitted, 1 received, 0% packet loss, time 0ms\nrtt min/avg/max/mdev = 0.1/0.1/0.1/0.0 ms\n', stderr: '' });
    const result = await runProbe(aPingCheckConfig('ping://localhost'), { allowPrivateTargets: true, pinger });
    expect(result.ok).toBe(true);
    const args = pinger.mock.calls[0]![0] as string[];
    expect(args.at(-1)).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(args).toEqual(expect.arrayContaining(['-n', '-c', '1', '-i', '1', '-W', '1']));
  });
});

describe('parsePingOutput', () => {
  it('computes the loss from the counts and reads the round trips', () => {
    const out = '3 packets transmitted, 2 received, +1 errors, 33.3333% packet loss, time 2003ms\nrtt min/avg/max/mdev = 0.048/0.066/0.085/0.018 ms\n';
    expect(parsePingOutput(out)).toEqual({ sent: 3, received: 2, packetLoss: 33.33, rttMin: 0.048, rttAvg: 0.066, rttMax: 0.085 });
  });

  it('has no figures when ping printed no summary', () => {
    expect(parsePingOutput('ping: connect: Network is unreachable\n')).toBeNull();
  });
});
