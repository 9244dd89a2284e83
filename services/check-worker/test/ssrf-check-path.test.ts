import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { createLogger } from '@uptime/logger';
import { isBlockedAddress, runProbe, runProbeWithPolicy, type CheckConfig } from '@uptime/probe';
import { aCheckConfig, aMonitor, aUser, SSRF_REFUSED, startSsrfTargets, type SsrfTargets } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { CheckLock } from '../src/check-lock';
import { createRunCheckProcessor, type RunCheckDeps } from '../src/run-check.processor';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

// The same table through the API's POST /monitors/{id}/test: services/api/test/security-ssrf.test.ts.

const logger = createLogger({ level: 'silent', service: 'ssrf-test' });

describe('SSRF guard on the check path (the run-check processor with runProbe)', () => {
  let bed: SchedulerBed;
  let targets: SsrfTargets;
  let jobSeq = 0;

  beforeAll(async () => {
    bed = await startSchedulerBed('ssrf-check-path-test');
    targets = await startSsrfTargets();
  });
  afterAll(async () => {
    await bed.close();
    await targets.close();
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
      lock: new CheckLock(bed.redis, `${process.env.QUEUE_PREFIX}:ssrf-test`),
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

  it("records a failed check with the guard's error for a monitor by name that resolves to loopback", async () => {
    // The API accepts a name at create (services/api/test/security-ssrf.test.ts): it is judged on
    // the address the check connects to. The monitor is scheduled as the API schedules it.
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { url: `http://localhost:${targets.v4.url.split(':')[2]}/` });
    await bed.scheduler.schedule(monitor);
    // The job the scheduler enqueued for the first check, as a worker would receive it.
    const [job] = await bed.scheduler.queue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(job?.data.monitorId).toBe(monitor.id);
    const guarded = await runCheck(job!.data, runProbe, false);
    expect(guarded).toMatchObject({ monitorId: monitor.id, result: { ok: false, statusCode: null } });
    expect(guarded.result.error).toMatch(/^Target address (127\.0\.0\.1|::1) \(resolved from localhost\) is not allowed/);
    expect(targets.v4.requests).toHaveLength(0);
    const open = await runCheck(job!.data, runProbe, true);
    expect(open.result).toMatchObject({ ok: true, statusCode: 200 });
    expect(targets.v4.requests).toHaveLength(1);
  });

  it('has a table of at least 30 spellings, with a redirect to loopback and a name resolving to it', () => {
    expect(targets.table().length).toBeGreaterThanOrEqual(30);
    expect(targets.table().some(([url]) => url.includes('localhost'))).toBe(true);
    expect(targets.table().some(([url]) => url.includes('?to='))).toBe(true);
  });

  it('refuses every one of them with the guard on, contacting none', async () => {
    const before = targets.served();
    for (const [url] of targets.table()) {
      const { result } = await checkAt(url, false);
      expect({ url, ok: result.ok, statusCode: result.statusCode, refused: SSRF_REFUSED.test(result.error ?? '') }).toEqual({
        url,
        ok: false,
        statusCode: null,
        refused: true,
      });
    }
    expect(targets.served()).toBe(before);
  });

  it('lets every local one through with the guard off (the redirect followed to loopback)', async () => {
    for (const [url] of targets.table().filter(([, local]) => local)) {
      const { result } = await checkAt(url, true);
      expect({ url, ok: result.ok, statusCode: result.statusCode, error: result.error }).toEqual({
        url,
        ok: true,
        statusCode: 200,
        error: null,
      });
    }
    expect(targets.internal.requests.map((r) => r.url)).toContain('/secret');
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
      const port = targets.internal.url.split(':')[2];
      targets.internal.requests.length = 0;
      const toLiteral = await runCheck({ monitorId: 9900, configVersion: 1, check: hop(`http://127.0.0.1:${port}/secret`) }, probe, false);
      expect(toLiteral.result).toMatchObject({
        ok: false,
        statusCode: null,
        error: 'Target address 127.0.0.1 is not allowed (private or reserved range)',
      });
      const toName = await runCheck({ monitorId: 9901, configVersion: 1, check: hop(`http://localhost:${port}/secret`) }, probe, false);
      expect(toName.result.error).toMatch(/^Target address (::1|127\.0\.0\.1) \(resolved from localhost\) is not allowed/);
      expect(targets.internal.requests).toHaveLength(0);
      // The same hop with the guard lifted reaches the inside.
      const open = await runCheck({ monitorId: 9902, configVersion: 1, check: hop(`http://127.0.0.1:${port}/secret`) }, runProbe, true);
      expect(open.result).toMatchObject({ ok: true, statusCode: 200 });
      expect(targets.internal.requests.map((r) => r.url)).toEqual(['/secret']);
    } finally {
      publicSite.closeAllConnections();
      await new Promise<void>((resolve) => publicSite.close(() => resolve()));
    }
  });
});
