import { getServers, setServers } from 'node:dns';
import { allowPublicAddressesOnly, runProbe, runProbeWithPolicy, type DnsRecordType } from '../src';
import type { ProbeOptions } from '../src/check-config';
import { aDnsCheckConfig } from './support/check-config-builder';
// The fake lives in packages/testing, which depends on this package: reached by path, as a test-only import.
import { startFakeDnsServer, type FakeDnsServer } from '../../testing/src/fake-dns-server';

const local: ProbeOptions = { allowPrivateTargets: true };
let dns: FakeDnsServer;

beforeAll(async () => {
  dns = await startFakeDnsServer();
});
afterAll(async () => {
  await dns.close();
});
beforeEach(() => {
  dns.queries.length = 0;
});

const check = (name: string, overrides: Parameters<typeof aDnsCheckConfig>[1] = {}) => aDnsCheckConfig(`dns://${name}`, { dnsResolver: dns.resolver, ...overrides });

describe('dns check', () => {
  // Each record type as the server sends it, and the values the check records for it (normalised).
  const cases: [DnsRecordType, Parameters<FakeDnsServer['set']>[2]['records'], string[]][] = [
    ['A', [{ type: 'A', name: 'a.test', ttl: 300, data: '93.184.216.34' }, { type: 'A', name: 'a.test', ttl: 60, data: '93.184.216.35' }], ['93.184.216.34', '93.184.216.35']],
    ['AAAA', [{ type: 'AAAA', name: 'a.test', ttl: 300, data: '2606:2800:0220:0001:0248:1893:25c8:1946' }], ['2606:2800:220:1:248:1893:25c8:1946']],
    ['CNAME', [{ type: 'CNAME', name: 'a.test', ttl: 300, data: 'Target.Example.NET.' }], ['target.example.net']],
    ['MX', [{ type: 'MX', name: 'a.test', ttl: 300, data: { preference: 10, exchange: 'MX1.Example.com' } }], ['10 mx1.example.com']],
    ['NS', [{ type: 'NS', name: 'a.test', ttl: 300, data: 'NS1.example.com.' }], ['ns1.example.com']],
    ['TXT', [{ type: 'TXT', name: 'a.test', ttl: 300, data: ['v=spf1 ', 'include:_spf.Example.com ~all'] }], ['v=spf1 include:_spf.Example.com ~all']],
    [
      'SOA',
      [{ type: 'SOA', name: 'a.test', ttl: 300, data: { mname: 'NS1.example.com', rname: 'hostmaster.example.com', serial: 2026120601, refresh: 7200, retry: 3600, expire: 1209600, minimum: 300 } }],
      ['ns1.example.com hostmaster.example.com 2026120601 7200 3600 1209600 300'],
    ],
    ['SRV', [{ type: 'SRV', name: 'a.test', ttl: 300, data: { priority: 10, weight: 5, port: 5060, target: 'SIP.example.com' } }], ['10 5 5060 sip.example.com']],
    ['CAA', [{ type: 'CAA', name: 'a.test', ttl: 300, data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }], ['0 issue letsencrypt.org']],
    ['PTR', [{ type: 'PTR', name: 'a.test', ttl: 300, data: 'host.example.com.' }], ['host.example.com']],
  ];

  it.each(cases)('asks for %s records and records their values, the response code and the lowest TTL', async (type, records, values) => {
    dns.set('a.test', type, { records });
    const result = await runProbe(check('a.test', { dnsRecordType: type }), local);
    expect(result).toMatchObject({ ok: true, statusCode: null, error: null, attempts: 1 });
    expect(result.dns).toEqual({ responseCode: 'NOERROR', values, minTtl: Math.min(...records!.map((r) => (r as { ttl: number }).ttl)) });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(dns.queries).toEqual([{ name: 'a.test', type, transport: 'udp' }]);
  });

  it.each(['NXDOMAIN', 'SERVFAIL', 'REFUSED'])('is down on %s, naming the response code', async (rcode) => {
    dns.set(`${rcode.toLowerCase()}.test`, 'A', { rcode });
    const result = await runProbe(check(`${rcode.toLowerCase()}.test`), local);
    expect(result).toMatchObject({ ok: false, error: `DNS response code ${rcode}`, dns: { responseCode: rcode, values: [], minTtl: null } });
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    dns.set('big.test', 'TXT', { truncateOverUdp: true, records: [{ type: 'TXT', name: 'big.test', ttl: 30, data: ['x'.repeat(200), 'y'.repeat(200), 'z'.repeat(200)] }] });
    const result = await runProbe(check('big.test', { dnsRecordType: 'TXT' }), local);
    expect(result).toMatchObject({ ok: true, dns: { responseCode: 'NOERROR', minTtl: 30 } });
    // Kept to 255 characters, as the result stores a value.
    expect(result.dns!.values).toEqual([`${'x'.repeat(200)}${'y'.repeat(55)}`]);
    expect(dns.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('asks over TCP alone with dns_protocol tcp', async () => {
    dns.set('tcp.test', 'A', { records: [{ type: 'A', name: 'tcp.test', ttl: 5, data: '192.0.2.1' }] });
    const result = await runProbe(check('tcp.test', { dnsProtocol: 'tcp', expectedDnsValues: ['192.0.2.1'] }), local);
    expect(result).toMatchObject({ ok: true, dns: { values: ['192.0.2.1'] } });
    expect(dns.queries.map((q) => q.transport)).toEqual(['tcp']);
  });

  it('is down with a timeout when the answer is slower than the timeout, and retries', async () => {
    dns.set('slow.test', 'A', { delayMs: 2000, records: [{ type: 'A', name: 'slow.test', ttl: 5, data: '192.0.2.1' }] });
    const result = await runProbe(check('slow.test', { timeout: 0.3, retryCount: 1 }), local);
    expect(result).toMatchObject({ ok: false, error: 'Timeout after 0.3s', responseTime: null, attempts: 2, dns: { responseCode: null, values: [] } });
    expect(dns.queries).toHaveLength(2);
  });

  it('is up only when every expected value is among the answer values, compared normalised', async () => {
    dns.set('mail.test', 'MX', {
      records: [
        { type: 'MX', name: 'mail.test', ttl: 300, data: { preference: 10, exchange: 'mx1.example.com.' } },
        { type: 'MX', name: 'mail.test', ttl: 300, data: { preference: 20, exchange: 'mx2.example.com.' } },
      ],
    });
    const present = await runProbe(check('mail.test', { dnsRecordType: 'MX', expectedDnsValues: ['10 MX1.Example.com.', ' 20   mx2.example.com '] }), local);
    expect(present).toMatchObject({ ok: true, error: null });
    const missing = await runProbe(check('mail.test', { dnsRecordType: 'MX', expectedDnsValues: ['10 mx1.example.com', '30 mx3.example.com'] }), local);
    expect(missing).toMatchObject({ ok: false, error: 'Expected DNS value not found: "30 mx3.example.com"', dns: { values: ['10 mx1.example.com', '20 mx2.example.com'] } });
  });

  it('compares an expected IPv6 address in any of its forms', async () => {
    dns.set('v6.test', 'AAAA', { records: [{ type: 'AAAA', name: 'v6.test', ttl: 300, data: '2001:db8::1' }] });
    expect(await runProbe(check('v6.test', { dnsRecordType: 'AAAA', expectedDnsValues: ['2001:0DB8:0:0:0:0:0:1'] }), local)).toMatchObject({ ok: true });
  });

  it('asks the first resolver of the system when none is set', async () => {
    const before = getServers();
    setServers([dns.resolver]);
    try {
      dns.set('system.test', 'A', { records: [{ type: 'A', name: 'system.test', ttl: 5, data: '192.0.2.7' }] });
      expect(await runProbe(check('system.test', { dnsResolver: null }), local)).toMatchObject({ ok: true, dns: { values: ['192.0.2.7'] } });
    } finally {
      setServers(before);
    }
  });

  describe('and the SSRF guard', () => {
    it('refuses a resolver at a private address without ALLOW_PRIVATE_TARGETS, sending nothing', async () => {
      const result = await runProbe(check('a.test'), { allowPrivateTargets: false });
      expect(result).toMatchObject({ ok: false, error: 'Resolver address 127.0.0.1 is not allowed (private or reserved range)' });
      expect(dns.queries).toEqual([]);
    });

    it('refuses a name resolving to a private address, without recording the address', async () => {
      // The local resolver stands for a public one; what it answers is judged as any address is.
      const resolverOnly = (ip: string): boolean => ip === dns.host || allowPublicAddressesOnly(ip);
      dns.set('rebind.test', 'A', { records: [{ type: 'A', name: 'rebind.test', ttl: 0, data: '10.1.2.3' }] });
      const refused = await runProbeWithPolicy(check('rebind.test'), resolverOnly);
      expect(refused).toMatchObject({ ok: false, error: 'Answer address 10.1.2.3 of rebind.test is not allowed (private or reserved range)', dns: { responseCode: 'NOERROR', values: [] } });
      dns.set('cname.test', 'A', {
        records: [
          { type: 'CNAME', name: 'cname.test', ttl: 60, data: 'inside.test' },
          { type: 'A', name: 'inside.test', ttl: 60, data: '192.168.1.1' },
        ],
      });
      expect(await runProbeWithPolicy(check('cname.test'), resolverOnly)).toMatchObject({ ok: false, error: expect.stringContaining('Answer address 192.168.1.1 of inside.test') });
      // With ALLOW_PRIVATE_TARGETS, the same answer is an answer like any other.
      expect(await runProbe(check('rebind.test'), local)).toMatchObject({ ok: true, dns: { values: ['10.1.2.3'] } });
    });
  });
});
