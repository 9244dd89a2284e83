import { allowPublicAddressesOnly, IcmpUnavailableError, runProbe, runProbeWithPolicy, checkIcmpAccess, type PingFigures } from '../src';
import { parsePingOutput } from '../src/ping/ping-output';
import { aPingCheckConfig } from './support/check-config-builder';
import { startPingNamespace, UNREACHABLE_IPV4, UNREACHABLE_IPV6, type PingNamespace } from './support/ping-namespace';

// Echo requests go only to this machine's loopback and to a namespace the test made (ping-namespace.ts).
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

describe('ping check without root or CAP_NET_RAW (nobody, ICMP datagram sockets)', () => {
  it.each([
    ['127.0.0.1', 'ping://127.0.0.1'],
    ['::1', 'ping://[::1]'],
    ['::1 written bare', 'ping://::1'],
  ])('is up when %s answers, with the loss, round trips and the average as response time', async (_name, url) => {
    const result = await runProbe(aPingCheckConfig(url, { pingCount: 2 }), { allowPrivateTargets: true, pinger: allowed.pinger });
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null, attempts: 1, ping: answered(2) });
    const ping = result.ping!;
    expect(ping.rttMin!).toBeLessThanOrEqual(ping.rttAvg!);
    expect(ping.rttAvg!).toBeLessThanOrEqual(ping.rttMax!);
    expect(result.responseTime).toBe(Math.round(ping.rttAvg!));
  });

  it.each([UNREACHABLE_IPV4, UNREACHABLE_IPV6])('is down with 100%% loss when %s never answers, after each retry', async (address) => {
    const url = `ping://${address}`;
    const result = await runProbe(aPingCheckConfig(url, { pingCount: 1, timeout: 1, retryCount: 1 }), { allowPrivateTargets: true, pinger: allowed.pinger });
    expect(result).toMatchObject({ ok: false, responseTime: null, attempts: 2, error: 'No answer to 1 echo request (100% packet loss)' });
    expect(result.ping).toEqual({ sent: 1, received: 0, packetLoss: 100, rttMin: null, rttAvg: null, rttMax: null });
  });

  it('rejects with IcmpUnavailableError, never a down result, where the process may not open an ICMP socket', async () => {
    await expect(runProbe(aPingCheckConfig('ping://127.0.0.1'), { allowPrivateTargets: true, pinger: refused.pinger })).rejects.toBeInstanceOf(IcmpUnavailableError);
    await expect(checkIcmpAccess(refused.pinger)).resolves.toEqual({ available: false, reason: expect.stringMatching(/socket: Operation not permitted/) });
    await expect(checkIcmpAccess(allowed.pinger)).resolves.toEqual({ available: true });
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
