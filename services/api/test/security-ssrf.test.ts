import request from 'supertest';
import { Monitor } from '@uptime/db';
import { aCaller, aMonitor, startFakeDnsServer, startSsrfTargets, SSRF_REFUSED, type FakeDnsServer, type SsrfTargets } from '@uptime/testing';
import { startApiHarness, type ApiHarness } from './support/api-harness';

// The same table through the check-worker's run-check processor:
// services/check-worker/test/ssrf-check-path.test.ts.

/** IP literals the API can judge at create/update time, in the spellings an attacker would try. */
const REFUSED_LITERALS = [
  'http://127.0.0.1/',
  'http://127.0.0.1:8080/admin',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.0.0.1/',
  'http://0177.0.0.1/',
  'http://017700000001/',
  'http://127.1/',
  'http://0/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0xa9fea9fe/',
  'http://224.0.0.1/',
  'https://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[ff02::1]/',
  // tcp targets: the host is normalised as an http URL's (packages/probe/src/fields/value-tests.ts).
  'tcp://127.0.0.1:6379',
  'tcp://127.1:5432',
  'tcp://2130706433:22',
  'tls://[::1]:443',
  'tls://169.254.169.254:443',
  // ping targets, read the same way; an IPv6 address may be written bare.
  'ping://127.0.0.1',
  'ping://0x7f.1',
  'ping://[::1]',
  'ping://::1',
  'ping://::ffff:127.0.0.1',
  'ping://169.254.169.254',
  'ping://10.0.0.1',
  'ping://[fe80::1]',
];

const typeOfUrl = (url: string): string => (/^(tcp|tls):/.test(url) ? 'tcp' : /^ping:/.test(url) ? 'ping' : 'http');

describe('SSRF guard at monitor create/update (ALLOW_PRIVATE_TARGETS=false)', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const create = (auth: string, url: string) =>
    request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .send({ name: 'target', url, type: typeOfUrl(url) });

  it.each(REFUSED_LITERALS)('refuses %s with a 400 on url', async (url) => {
    const { auth } = await aCaller(h.ds);
    const res = await create(auth, url);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ url: [expect.stringMatching(/^url is not allowed: Target address .+ is not allowed/)] });
    expect(await h.ds.getRepository(Monitor).count()).toBe(0);
    expect((await h.scheduler.scheduledVersions()).size).toBe(0);
  });

  it('accepts public addresses and host names (a name is judged on the address the check connects to)', async () => {
    const { auth } = await aCaller(h.ds);
    for (const url of ['https://example.com/', 'http://8.8.8.8/', 'https://[2606:4700::1]/', 'http://localhost:8080/']) {
      const res = await create(auth, url);
      expect({ url, status: res.status }).toEqual({ url, status: 201 });
    }
  });

  it('refuses an update to a refused address and keeps the old URL', async () => {
    const { auth } = await aCaller(h.ds);
    const created = await create(auth, 'https://example.com/');
    for (const method of ['patch', 'put'] as const) {
      const path = `/api/v1/monitors/${created.body.data.id}`;
      const res = await request(h.app)[method](path).set('Authorization', auth).send({ url: 'http://[::ffff:169.254.169.254]/' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.details)).toEqual(['url']);
    }
    expect((await h.ds.getRepository(Monitor).findOneByOrFail({ id: created.body.data.id })).url).toBe('https://example.com/');
  });

  it('refuses a bulk update to a refused address like PATCH, before touching any monitor', async () => {
    const { auth } = await aCaller(h.ds);
    const created = await create(auth, 'https://example.com/');
    const res = await request(h.app)
      .post('/api/v1/monitors/bulk')
      .set('Authorization', auth)
      .send({ action: 'update', monitor_ids: [created.body.data.id], settings: { url: 'http://10.1.2.3/' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ 'settings.url': [expect.stringMatching(/^url is not allowed: Target address 10\.1\.2\.3 is not allowed/)] });
    expect(await h.ds.getRepository(Monitor).findOneByOrFail({ id: created.body.data.id })).toMatchObject({ url: 'https://example.com/', configVersion: 1 });
  });

  it('allows all of them when ALLOW_PRIVATE_TARGETS=true', async () => {
    const open = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const { auth } = await aCaller(open.ds);
      for (const url of ['http://127.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/']) {
        const res = await request(open.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'lan', url, type: 'http' });
        expect({ url, status: res.status }).toEqual({ url, status: 201 });
      }
      const id = (await open.ds.getRepository(Monitor).findOneByOrFail({ url: 'http://127.0.0.1/' })).id;
      const patched = await request(open.app).patch(`/api/v1/monitors/${id}`).set('Authorization', auth).send({ url: 'http://10.1.2.3/' });
      expect(patched.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('SSRF guard on POST /monitors/{id}/test (the check path run by the API)', () => {
  let h: ApiHarness;
  let targets: SsrfTargets;

  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
    await h.reset();
    targets = await startSsrfTargets();
  });
  afterAll(async () => {
    await h.close();
    await targets.close();
  });

  it('answers every one of them "down" with the guard\'s error through POST /monitors/{id}/test, and "up" with the guard off', async () => {
    const open = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const { user, auth } = await aCaller(h.ds);
      const before = targets.served();
      for (const [url, local] of targets.table()) {
        // Written directly: with the guard on the API refuses IP literals at create (tested above).
        const monitor = await aMonitor(h.ds, user, { url, timeout: 5 });
        const guarded = await request(h.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
        expect({ url, status: guarded.status, result: guarded.body.data?.status, code: guarded.body.data?.status_code }).toEqual({
          url,
          status: 200,
          result: 'down',
          code: null,
        });
        expect(guarded.body.data.error).toMatch(SSRF_REFUSED);
        if (!local) continue;
        const opened = await request(open.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
        expect({ url, result: opened.body.data?.status, code: opened.body.data?.status_code }).toEqual({ url, result: 'up', code: 200 });
      }
      const localCount = targets.table().filter(([, local]) => local).length;
      // Only the guard-off tests reached the servers: one request each, two for the redirect.
      expect(targets.served() - before).toBe(localCount + 1);
    } finally {
      await open.close();
    }
  });
});

describe('SSRF guard on a dns monitor: its resolver, and the addresses its answer names', () => {
  let h: ApiHarness;
  let dns: FakeDnsServer;
  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
    dns = await startFakeDnsServer();
  });
  afterAll(async () => {
    await h.close();
    await dns.close();
  });
  beforeEach(() => h.reset());

  const createDns = (auth: string, extra: Record<string, unknown>) =>
    request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'apex', type: 'dns', url: 'dns://example.com', ...extra });

  it.each(['127.0.0.1', '127.1:5353', '10.0.0.53', '[::1]:53', '::1', '169.254.169.254', '192.168.1.1:53'])('refuses the resolver %s with a 400 on dns_resolver', async (resolver) => {
    const { auth } = await aCaller(h.ds);
    const res = await createDns(auth, { dns_resolver: resolver });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ dns_resolver: [expect.stringMatching(/^dns_resolver is not allowed: Target address .+ is not allowed/)] });
    expect(await h.ds.getRepository(Monitor).count()).toBe(0);
  });

  it('accepts a public resolver, a resolver name and none; and refuses an update to a private one', async () => {
    const { auth } = await aCaller(h.ds);
    for (const resolver of ['1.1.1.1', '[2606:4700:4700::1111]:53', 'dns.example.com:5353', null]) {
      expect({ resolver, status: (await createDns(auth, { dns_resolver: resolver })).status }).toEqual({ resolver, status: 201 });
    }
    // The name asked is not where the check connects: dns://localhost is a question, judged on its answer.
    expect((await createDns(auth, { url: 'dns://localhost' })).status).toBe(201);
    const { id } = (await createDns(auth, {})).body.data;
    const res = await request(h.app).patch(`/api/v1/monitors/${id}`).set('Authorization', auth).send({ dns_resolver: '10.1.1.1' });
    expect(Object.keys(res.body.error.details)).toEqual(['dns_resolver']);
  });

  it('answers down through POST /monitors/{id}/test for a resolver at a private address, sending it nothing, and up with the guard off', async () => {
    const { user, auth } = await aCaller(h.ds);
    dns.set('example.com', 'A', { records: [{ type: 'A', name: 'example.com', ttl: 60, data: '93.184.216.34' }] });
    // Written directly: with the guard on the API refuses the resolver at create (tested above).
    const monitor = await aMonitor(h.ds, user, { type: 'dns', url: 'dns://example.com', dnsResolver: dns.resolver, timeout: 5 });
    const guarded = await request(h.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
    expect(guarded.body.data).toMatchObject({ status: 'down', error: `Resolver address ${dns.host} is not allowed (private or reserved range)` });
    expect(dns.queries).toEqual([]);
    const open = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const opened = await request(open.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
      expect(opened.body.data).toMatchObject({ status: 'up', dns: { answers: ['93.184.216.34'] } });
    } finally {
      await open.close();
    }
  });
});
