import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import request from 'supertest';
import { Monitor } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { isBlockedAddress, runProbe, runProbeWithPolicy, type CheckConfig } from '@uptime/probe';
import { aCaller, aCheckConfig, aMonitor, answer, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
// The check path exactly as the check-worker runs it (read only: it is that service's code).
import { CheckLock } from '../../check-worker/src/check-lock';
import { createRunCheckProcessor, type RunCheckDeps } from '../../check-worker/src/run-check.processor';
import type { CheckOutcome } from '../../check-worker/src/record-check-batch';
import { startApiHarness, type ApiHarness } from './support/api-harness';

const REFUSED = /^Target address .+ is not allowed \(private or reserved range\)$/;
const logger = createLogger({ level: 'silent', service: 'ssrf-test' });

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
];

describe('SSRF guard at monitor create/update (ALLOW_PRIVATE_TARGETS=false)', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const create = (auth: string, url: string) =>
    request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'target', url, type: 'http' });

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

describe('SSRF guard on the check path (the check-worker processor with runProbe)', () => {
  let h: ApiHarness;
  let v4: FakeHttpServer;
  let v6: Server;
  let v6Port: number;
  let v6Hits = 0;
  let redirector: FakeHttpServer;
  let internal: FakeHttpServer;
  let jobSeq = 0;

  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
    await h.reset();
    v4 = await startFakeHttpServer(answer(200, 'inside'));
    internal = await startFakeHttpServer(answer(200, 'secret'));
    redirector = await startFakeHttpServer((req, res) => {
      res.writeHead(302, { location: new URL(req.url, 'http://x').searchParams.get('to') ?? '/' });
      res.end();
    });
    v6 = createServer((_req, res) => {
      v6Hits += 1;
      res.end('inside v6');
    });
    await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
    v6Port = (v6.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([v4.close(), internal.close(), redirector.close()]);
    v6.closeAllConnections();
    await new Promise<void>((resolve) => v6.close(() => resolve()));
  });

  const checkOf = (url: string): CheckConfig => aCheckConfig(url, { timeout: 3 });

  /** Runs one check through the worker's processor and returns what it recorded. */
  async function runCheck(
    data: { monitorId: number; configVersion: number; check: CheckConfig },
    probe: RunCheckDeps['probe'],
    allowPrivateTargets: boolean,
  ): Promise<CheckOutcome> {
    const recorded: CheckOutcome[] = [];
    const run = createRunCheckProcessor({
      probe,
      probeOptions: { allowPrivateTargets },
      lock: new CheckLock(h.redis, `${h.config.redis.queuePrefix}:ssrf-test`),
      record: async (outcome) => {
        recorded.push(outcome);
      },
      logger,
    });
    const job = { id: `now-${data.monitorId}-${Date.now()}`, data, timestamp: Date.now(), opts: {} } as unknown as Job;
    expect(await run(job)).toBe('recorded');
    return recorded[0]!;
  }
  const checkAt = (url: string, allowPrivateTargets: boolean) =>
    runCheck({ monitorId: 9000 + ++jobSeq, configVersion: 1, check: checkOf(url) }, runProbe, allowPrivateTargets);

  it("records a failed check with the guard's error for a monitor created by name that resolves to loopback", async () => {
    const { auth } = await aCaller(h.ds);
    const created = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .send({ name: 'sneaky', url: `http://localhost:${v4.url.split(':')[2]}/`, type: 'http' });
    expect(created.status).toBe(201);
    // The job the API enqueued for the first check, as a worker would receive it.
    const [job] = await h.scheduler.queue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(job?.data.monitorId).toBe(created.body.data.id);
    const guarded = await runCheck(job!.data, runProbe, false);
    expect(guarded).toMatchObject({ monitorId: created.body.data.id, result: { ok: false, statusCode: null } });
    expect(guarded.result.error).toMatch(/^Target address (127\.0\.0\.1|::1) \(resolved from localhost\) is not allowed/);
    expect(v4.requests).toHaveLength(0);
    const open = await runCheck(job!.data, runProbe, true);
    expect(open.result).toMatchObject({ ok: true, statusCode: 200 });
    expect(v4.requests).toHaveLength(1);
  });

  /** [url, reaches a local server with the guard off]; remote ones are only tried with the guard on. */
  const targets = (): Array<[string, boolean]> => {
    const p = v4.url.split(':')[2];
    return [
      [`http://127.0.0.1:${p}/`, true],
      [`http://2130706433:${p}/`, true],
      [`http://0x7f000001:${p}/`, true],
      [`http://0x7f.0.0.1:${p}/`, true],
      [`http://0177.0.0.1:${p}/`, true],
      [`http://017700000001:${p}/`, true],
      [`http://127.000.000.001:${p}/`, true],
      [`http://127.1:${p}/`, true],
      [`http://127.0.0.1.:${p}/`, true],
      [`http://localhost:${p}/`, true],
      [`http://LOCALHOST:${p}/`, true],
      [`http://0.0.0.0:${p}/`, true],
      [`http://0:${p}/`, true],
      [`http://[::ffff:127.0.0.1]:${p}/`, true],
      [`http://[::ffff:7f00:1]:${p}/`, true],
      [`http://[::1]:${v6Port}/`, true],
      [`http://[0:0:0:0:0:0:0:1]:${v6Port}/`, true],
      [`${redirector.url}/?to=${encodeURIComponent(`${internal.url}/secret`)}`, true],
      ['http://10.0.0.1/', false],
      ['http://172.31.255.254/', false],
      ['http://192.168.0.1/', false],
      ['http://100.100.100.200/', false],
      ['http://169.254.169.254/latest/meta-data/', false],
      ['http://2852039166/latest/meta-data/', false],
      ['http://0251.0376.0251.0376/', false],
      ['http://[fd00:ec2::254]/latest/meta-data/', false],
      ['http://[::ffff:169.254.169.254]/', false],
      ['http://[fe80::1]/', false],
      ['http://[fc00::1]/', false],
      ['http://224.0.0.1/', false],
      ['http://[ff02::1]/', false],
      ['http://[64:ff9b::7f00:1]/', false],
    ];
  };

  it('has a table of at least 30 spellings, with a redirect to loopback and a name resolving to it', () => {
    expect(targets().length).toBeGreaterThanOrEqual(30);
    expect(targets().some(([url]) => url.includes('localhost'))).toBe(true);
    expect(targets().some(([url]) => url.includes('?to='))).toBe(true);
  });

  it('refuses every one of them with the guard on, contacting none', async () => {
    const before = v4.requests.length + internal.requests.length + redirector.requests.length + v6Hits;
    for (const [url] of targets()) {
      const { result } = await checkAt(url, false);
      expect({ url, ok: result.ok, statusCode: result.statusCode, refused: REFUSED.test(result.error ?? '') }).toEqual({
        url,
        ok: false,
        statusCode: null,
        refused: true,
      });
    }
    expect(v4.requests.length + internal.requests.length + redirector.requests.length + v6Hits).toBe(before);
  });

  it('lets every local one through with the guard off (the redirect followed to loopback)', async () => {
    for (const [url] of targets().filter(([, local]) => local)) {
      const { result } = await checkAt(url, true);
      expect({ url, ok: result.ok, statusCode: result.statusCode, error: result.error }).toEqual({
        url,
        ok: true,
        statusCode: 200,
        error: null,
      });
    }
    expect(internal.requests.map((r) => r.url)).toContain('/secret');
  });

  it('answers every one of them "down" with the guard\'s error through POST /monitors/{id}/test, and "up" with the guard off', async () => {
    const open = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const { user, auth } = await aCaller(h.ds);
      const served = () => v4.requests.length + internal.requests.length + redirector.requests.length + v6Hits;
      const before = served();
      for (const [url, local] of targets()) {
        // Written directly: with the guard on the API refuses IP literals at create (tested above).
        const monitor = await aMonitor(h.ds, user, { url, timeout: 5 });
        const guarded = await request(h.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
        expect({ url, status: guarded.status, result: guarded.body.data?.status, code: guarded.body.data?.status_code }).toEqual({
          url,
          status: 200,
          result: 'down',
          code: null,
        });
        expect(guarded.body.data.error).toMatch(REFUSED);
        if (!local) continue;
        const opened = await request(open.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', auth);
        expect({ url, result: opened.body.data?.status, code: opened.body.data?.status_code }).toEqual({ url, result: 'up', code: 200 });
      }
      const localCount = targets().filter(([, local]) => local).length;
      // Only the guard-off tests reached the servers: one request each, two for the redirect.
      expect(served() - before).toBe(localCount + 1);
    } finally {
      await open.close();
    }
  });

  it('refuses a redirect from an allowed site to 127.0.0.1 or to a name resolving to it, deciding on each hop', async () => {
    // A redirector on 127.0.0.2 stands in for a public site: the policy is production's plus that one address.
    const publicSite = createServer((req, res) => {
      res.writeHead(302, { location: new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/' });
      res.end();
    });
    await new Promise<void>((resolve) => publicSite.listen(0, '127.0.0.2', resolve));
    try {
      const entry = `http://127.0.0.2:${(publicSite.address() as AddressInfo).port}`;
      const entryOnly = (ip: string) => ip === '127.0.0.2' || !isBlockedAddress(ip);
      const probe: RunCheckDeps['probe'] = (check) => runProbeWithPolicy(check, entryOnly);
      const hop = (to: string) => checkOf(`${entry}/?to=${encodeURIComponent(to)}`);
      const port = internal.url.split(':')[2];
      internal.requests.length = 0;
      const toLiteral = await runCheck({ monitorId: 9900, configVersion: 1, check: hop(`http://127.0.0.1:${port}/secret`) }, probe, false);
      expect(toLiteral.result).toMatchObject({
        ok: false,
        statusCode: null,
        error: 'Target address 127.0.0.1 is not allowed (private or reserved range)',
      });
      const toName = await runCheck({ monitorId: 9901, configVersion: 1, check: hop(`http://localhost:${port}/secret`) }, probe, false);
      expect(toName.result.error).toMatch(/^Target address (::1|127\.0\.0\.1) \(resolved from localhost\) is not allowed/);
      expect(internal.requests).toHaveLength(0);
      // The same hop with the guard lifted reaches the inside.
      const open = await runCheck({ monitorId: 9902, configVersion: 1, check: hop(`http://127.0.0.1:${port}/secret`) }, runProbe, true);
      expect(open.result).toMatchObject({ ok: true, statusCode: 200 });
      expect(internal.requests.map((r) => r.url)).toEqual(['/secret']);
    } finally {
      publicSite.closeAllConnections();
      await new Promise<void>((resolve) => publicSite.close(() => resolve()));
    }
  });
});
