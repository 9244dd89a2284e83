import { Monitor } from '@uptime/db';
import { aMonitor, aUser, startFakeDnsServer, type FakeDnsServer } from '@uptime/testing';
import { checkAndRecordOn } from './support/check-and-record';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

/** A dns monitor from its schedule to its recorded state: the job the scheduler made, the worker's processor, the batch. */
describe('a dns monitor through the check path', () => {
  let bed: SchedulerBed;
  let dns: FakeDnsServer;

  beforeAll(async () => {
    bed = await startSchedulerBed('dns-check-path-test');
    dns = await startFakeDnsServer();
  });
  afterAll(async () => {
    await dns.close();
    await bed.close();
  });

  const checkAndRecord = (monitor: Monitor, plannedAt: number) => checkAndRecordOn(bed, 'dns-check-path')(monitor, plannedAt);

  const rowOf = (id: number) => bed.ds.getRepository(Monitor).findOneByOrFail({ id });
  const resultsOf = (id: number): Promise<Array<{ ok: boolean; error: string | null; dns_response_code: string | null; dns_answers: string[] | null; dns_min_ttl: number | null }>> =>
    bed.ds.query('SELECT ok, error, dns_response_code, dns_answers, dns_min_ttl FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [id]);

  it('goes online while the answer holds the expected value, and offline, with a downtime, on NXDOMAIN; each result keeps the answer', async () => {
    dns.set('www.example.test', 'CNAME', { records: [{ type: 'CNAME', name: 'www.example.test', ttl: 300, data: 'edge.example.net.' }] });
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), {
      type: 'dns',
      url: 'dns://www.example.test',
      dnsRecordType: 'CNAME',
      dnsResolver: dns.resolver,
      expectedDnsValues: ['Edge.Example.NET.'],
      timeout: 2,
    });
    const up = await checkAndRecord(monitor, Date.now());
    expect(up).toMatchObject({ type: 'dns', result: { ok: true, statusCode: null, dns: { responseCode: 'NOERROR', values: ['edge.example.net'], minTtl: 300 } } });
    expect(await rowOf(monitor.id)).toMatchObject({ status: 'online', openIncidentId: null });

    dns.set('www.example.test', 'CNAME', { rcode: 'NXDOMAIN' });
    const down = await checkAndRecord(await rowOf(monitor.id), Date.now() + 1000);
    expect(down.result).toMatchObject({ ok: false, error: 'DNS response code NXDOMAIN' });
    const row = await rowOf(monitor.id);
    expect(row.status).toBe('offline');
    expect(row.openIncidentId).toEqual(expect.any(Number));
    expect(await resultsOf(monitor.id)).toEqual([
      { ok: true, error: null, dns_response_code: 'NOERROR', dns_answers: ['edge.example.net'], dns_min_ttl: 300 },
      { ok: false, error: 'DNS response code NXDOMAIN', dns_response_code: 'NXDOMAIN', dns_answers: [], dns_min_ttl: null },
    ]);
  });

  it('records a timed-out check with no response code, and an http check with no dns answer at all', async () => {
    dns.set('slow.example.test', 'A', { delayMs: 8000 });
    const owner = await aUser(bed.ds);
    const monitor = await aMonitor(bed.ds, owner, { type: 'dns', url: 'dns://slow.example.test', dnsResolver: dns.resolver, timeout: 5 });
    const outcome = await checkAndRecord(monitor, Date.now());
    expect(outcome.result).toMatchObject({ ok: false, error: 'Timeout after 5s' });
    expect(await resultsOf(monitor.id)).toEqual([{ ok: false, error: 'Timeout after 5s', dns_response_code: null, dns_answers: [], dns_min_ttl: null }]);
    const http = await aMonitor(bed.ds, owner, { url: 'http://127.0.0.1:9/', timeout: 5 });
    await checkAndRecord(http, Date.now());
    expect(await resultsOf(http.id)).toEqual([expect.objectContaining({ ok: false, dns_response_code: null, dns_answers: null, dns_min_ttl: null })]);
  });
});
