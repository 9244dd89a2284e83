import type { LookupAddress } from 'node:dns';
import {
  createGuardedLookup,
  isBlockedAddress,
  refusedTargetReason,
  runProbe,
  runProbeWithPolicy,
  TargetRefusedError,
  type AddressPolicy,
  type ResolveAllAddresses,
} from '../src';
import { aCheckConfig } from './support/check-config-builder';
import { selfSignedCertificate, startTestServer, type RouteHandler, type TestServer } from './support/test-servers';

const REFUSED = /^Target address .+ is not allowed \(private or reserved range\)$/;
const hello: RouteHandler = (_req, res) => res.end('hello from loopback');

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.255.255', '172.16.0.0', '172.31.255.255', '192.168.0.1',
    '169.254.169.254', '169.254.0.1', '100.64.0.0', '100.127.255.255', '100.100.100.200', '0.0.0.0', '0.1.2.3',
    '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '192.0.0.192', '192.0.2.1', '198.18.0.1',
    '198.51.100.7', '203.0.113.9',
    '::1', '::', '0:0:0:0:0:0:0:1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'fc00::1', 'fd12:3456::1', 'fd00:ec2::254',
    'ff02::1', 'ff0e::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:10.1.2.3', '::ffff:169.254.169.254',
    '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '2002:7f00:1::1', '2002:c0a8:101::', '::127.0.0.1',
    '100::1', '2001::1', '2001:db8::1', '[::1]',
  ])('blocks %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.216.34', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0',
    '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0',
    '223.255.255.255', '2606:4700::1', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8',
    '64:ff9b::808:808', '2002:808:808::1',
  ])('allows public %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '127.1', '2130706433', '1.2.3.4.5', 'not an ip'])('fails closed on non-address %p', (value) => {
    expect(isBlockedAddress(value)).toBe(true);
  });
});

describe('refusedTargetReason (create/update-time check)', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['https://10.1.2.3:8443/health', '10.1.2.3'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
  ])('refuses %s', (url, address) => {
    expect(refusedTargetReason(url)).toBe(`Target address ${address} is not allowed (private or reserved range)`);
  });

  it('refuses got\'s UNIX-socket URLs and unparsable URLs', () => {
    expect(refusedTargetReason('http://unix:/var/run/docker.sock:/containers/json')).toBe('UNIX socket targets are not allowed');
    expect(refusedTargetReason('not a url')).toBe('Invalid URL');
  });

  it.each(['https://example.com/', 'http://localhost/', 'http://8.8.8.8/', 'https://[2606:4700::1]/'])('leaves %s to connect time (null)', (url) => {
    expect(refusedTargetReason(url)).toBeNull();
  });
});

describe('createGuardedLookup', () => {
  const fakeDns =
    (records: Record<string, LookupAddress[]>): ResolveAllAddresses =>
    (hostname, _options, callback) =>
      setImmediate(() => callback(null, records[hostname] ?? []));
  const dns = fakeDns({
    'public.test': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }],
    'rebind.test': [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }],
    'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  });
  const publicOnly: AddressPolicy = (ip) => !isBlockedAddress(ip);
  const lookup = createGuardedLookup(publicOnly, dns);
  const resolve = (hostname: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((done) =>
      lookup(hostname, { all }, (error, address, family) => done({ error, address, family })),
    );

  it('returns the first address, or all of them, like dns.lookup', async () => {
    expect(await resolve('public.test', false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect((await resolve('public.test', true)).address).toHaveLength(2);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const { error } = await resolve('rebind.test', true);
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(error?.message).toBe('Target address 10.0.0.5 (resolved from rebind.test) is not allowed (private or reserved range)');
    expect((await resolve('metadata.test', false)).error).toBeInstanceOf(TargetRefusedError);
  });

  it('reports a name without addresses as not found', async () => {
    expect((await resolve('nothing.test', false)).error?.code).toBe('ENOTFOUND');
  });
});

describe('the probe with the guard on and off', () => {
  let v4: TestServer;
  let v4b: TestServer;
  let v6: TestServer;
  let tls: TestServer;

  beforeAll(async () => {
    v4 = await startTestServer(hello);
    v4b = await startTestServer(hello, { host: '127.0.0.2' });
    v6 = await startTestServer(hello, { host: '::1' });
    tls = await startTestServer(hello, { tls: selfSignedCertificate() });
  });

  afterAll(async () => {
    await Promise.all([v4.close(), v4b.close(), v6.close(), tls.close()]);
  });

  /**
   * [url, what a check gets with the guard off]. Only local targets are ever contacted: 'remote'
   * ones (private networks, cloud metadata, multicast) are only used with the guard on, which
   * refuses them before any packet leaves, so the tests never touch the host's network.
   */
  type GuardOff = 'reaches-server' | 'connection-refused' | 'tls-error' | 'remote';
  const targets = (): Array<[string, GuardOff]> => [
    [`http://127.0.0.1:${v4.port}/`, 'reaches-server'],
    [`http://127.0.0.2:${v4b.port}/`, 'reaches-server'],
    [`http://127.255.255.254:${v4.port}/`, 'connection-refused'],
    [`http://2130706433:${v4.port}/`, 'reaches-server'], // decimal
    [`http://0x7f000001:${v4.port}/`, 'reaches-server'], // hex
    [`http://0x7f.0.0.1:${v4.port}/`, 'reaches-server'], // hex octet
    [`http://0177.0.0.1:${v4.port}/`, 'reaches-server'], // octal octet
    [`http://017700000001:${v4.port}/`, 'reaches-server'], // octal
    [`http://127.000.000.001:${v4.port}/`, 'reaches-server'], // zero-padded
    [`http://127.1:${v4.port}/`, 'reaches-server'], // short form
    [`http://127.0.0.1.:${v4.port}/`, 'reaches-server'], // trailing dot
    [`http://localhost:${v4.port}/`, 'reaches-server'], // a DNS name resolving to loopback
    [`http://LocalHost:${v4.port}/`, 'reaches-server'],
    [`http://0.0.0.0:${v4.port}/`, 'reaches-server'],
    [`http://0:${v4.port}/`, 'reaches-server'],
    [`http://[::ffff:127.0.0.1]:${v4.port}/`, 'reaches-server'],
    [`http://[::ffff:7f00:1]:${v4.port}/`, 'reaches-server'],
    [`http://[::1]:${v6.port}/`, 'reaches-server'],
    [`http://[0:0:0:0:0:0:0:1]:${v6.port}/`, 'reaches-server'],
    [`http://[::]:${v6.port}/`, 'reaches-server'],
    [`https://127.0.0.1:${tls.port}/`, 'tls-error'],
    ['http://10.0.0.1/', 'remote'],
    ['http://10.255.255.254/', 'remote'],
    ['http://172.16.0.1/', 'remote'],
    ['http://172.31.255.254/', 'remote'],
    ['http://192.168.1.1/', 'remote'],
    ['http://169.254.169.254/latest/meta-data/', 'remote'],
    ['http://169.254.1.1/', 'remote'],
    ['http://100.64.0.1/', 'remote'],
    ['http://100.100.100.200/', 'remote'],
    ['http://192.0.0.192/', 'remote'],
    ['http://224.0.0.1/', 'remote'],
    ['http://239.255.255.250/', 'remote'],
    ['http://255.255.255.255/', 'remote'],
    ['http://[fe80::1]/', 'remote'],
    ['http://[fc00::1]/', 'remote'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'remote'],
    ['http://[ff02::1]/', 'remote'],
    ['http://[::ffff:169.254.169.254]/', 'remote'],
    ['http://[::ffff:a00:1]/', 'remote'],
    ['http://[64:ff9b::7f00:1]/', 'remote'], // NAT64 of 127.0.0.1
    ['http://[2002:7f00:1::1]/', 'remote'], // 6to4 of 127.0.0.1
  ];

  it('has a table of at least 30 targets, 20 of them local', () => {
    expect(targets().length).toBeGreaterThanOrEqual(30);
    expect(targets().filter(([, off]) => off !== 'remote').length).toBeGreaterThanOrEqual(20);
  });

  it('refuses every target with the guard on, without contacting it', async () => {
    const servers = [v4, v4b, v6, tls];
    const served = () => servers.reduce((n, server) => n + server.requests.length, 0);
    const before = served();
    const results = await Promise.all(targets().map(([url]) => runProbe(aCheckConfig(url, { timeout: 2 }), { allowPrivateTargets: false })));
    results.forEach((result, i) => {
      const [url] = targets()[i];
      expect({ url, ok: result.ok, statusCode: result.statusCode, refused: REFUSED.test(result.error ?? '') }).toEqual({
        url,
        ok: false,
        statusCode: null,
        refused: true,
      });
    });
    expect(served()).toBe(before);
  });

  it('lets every local target through with the guard off', async () => {
    const local = targets().filter(([, off]) => off !== 'remote');
    const results = await Promise.all(local.map(([url]) => runProbe(aCheckConfig(url, { timeout: 2 }), { allowPrivateTargets: true })));
    const expected: Record<Exclude<GuardOff, 'remote'>, RegExp> = {
      'reaches-server': /^ok$/,
      'connection-refused': /^Connection refused$/,
      'tls-error': /^TLS error: /,
    };
    results.forEach((result, i) => {
      const [url, off] = local[i];
      expect({ url, outcome: result.error ?? 'ok' }).toEqual({ url, outcome: expect.stringMatching(expected[off as Exclude<GuardOff, 'remote'>]) });
    });
  });

  it('still refuses localhost after an unguarded check left a keep-alive socket to it', async () => {
    const url = `http://localhost:${v4.port}/pooled`;
    expect(await runProbe(aCheckConfig(url), { allowPrivateTargets: true })).toMatchObject({ ok: true });
    expect(await runProbe(aCheckConfig(url), { allowPrivateTargets: false })).toMatchObject({ ok: false, error: expect.stringMatching(REFUSED) });
  });
});

describe('redirects under the guard', () => {
  // The first hop must be allowed for a redirect to be followed at all, so these checks use a
  // policy that is the production one plus exactly the first test server's address.
  let entry: TestServer;
  let internal: TestServer;
  const entryOnly: AddressPolicy = (ip) => ip === '127.0.0.1' || !isBlockedAddress(ip);

  beforeAll(async () => {
    internal = await startTestServer(hello, { host: '127.0.0.2' });
    entry = await startTestServer((req, res) => {
      const to = new URL(req.url, 'http://entry.test').searchParams.get('to') ?? '/';
      res.writeHead(302, { location: to });
      res.end();
    });
  });

  afterAll(async () => {
    await Promise.all([entry.close(), internal.close()]);
  });

  const redirectTo = (target: string) => aCheckConfig(`${entry.url}/?to=${encodeURIComponent(target)}`);

  it('refuses a redirect to a refused IP literal, and never reaches it', async () => {
    const result = await runProbeWithPolicy(redirectTo(`${internal.url}/secret`), entryOnly);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'Target address 127.0.0.2 is not allowed (private or reserved range)' });
    expect(entry.requests).toHaveLength(1);
    expect(internal.requests).toHaveLength(0);
  });

  it('refuses a redirect to cloud metadata in another spelling', async () => {
    const result = await runProbeWithPolicy(redirectTo('http://[::ffff:a9fe:a9fe]/latest/meta-data/'), entryOnly);
    expect(result.error).toBe('Target address ::ffff:a9fe:a9fe is not allowed (private or reserved range)');
  });

  it('follows the same redirect with the guard off', async () => {
    const result = await runProbe({ ...redirectTo(`${internal.url}/secret`), expectedContent: 'hello from loopback' }, { allowPrivateTargets: true });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(internal.requests.map((r) => r.url)).toEqual(['/secret']);
  });
});
