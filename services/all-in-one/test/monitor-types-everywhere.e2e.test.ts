import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { aCaller, startFakeDnsServer, startPingNamespace, waitFor, type FakeDnsServer, type PingNamespace } from '@uptime/testing';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(90_000);

/**
 * A tcp, a dns and a ping monitor, each checked by the running check-worker against a real target
 * on this machine, appear wherever an http monitor does (docs/monitors.md, "Monitor types"): the
 * list and its type filter, results with the type's figures, statistics, the downtime and its
 * incident, a status page (JSON and HTML) and the badges. Ping runs as nobody in a network
 * namespace of the test's own where ICMP datagram sockets are allowed (ping-namespace.ts).
 */
describe('tcp, dns and ping monitors everywhere a monitor appears', () => {
  let stack: InProcessStack;
  let dns: FakeDnsServer;
  let icmp: PingNamespace;
  let tcp: Server;
  const sockets = new Set<Socket>();
  let auth: string;

  beforeAll(async () => {
    dns = await startFakeDnsServer();
    dns.set('shop.example.test', 'A', { records: [{ type: 'A', name: 'shop.example.test', ttl: 120, data: '192.0.2.7' }] });
    icmp = startPingNamespace({ icmp: true });
    tcp = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.end('+OK ready\r\n');
    });
    await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
    stack = await startInProcessStack({ checkWorker: false });
    await stack.startCheckWorker({ pinger: icmp.pinger });
    ({ auth } = await aCaller(stack.ds));
  });
  afterAll(async () => {
    await stack?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => tcp.close(done));
    await dns?.close();
    icmp?.close();
  });

  /** A request as the caller; `data` is the envelope's data, typed as the route answers it. */
  async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T; text: string }> {
    const res = await fetch(`${stack.api.url}${path}`, {
      method,
      headers: { Authorization: auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as { data: T }) : undefined;
    return { status: res.status, text, data: json?.data as T };
  }

  it('checks each, then shows it in the list, results, stats, notifications, a status page and badges', async () => {
    const port = (tcp.address() as AddressInfo).port;
    const specs = [
      { name: 'Redis port', type: 'tcp', url: `tcp://127.0.0.1:${port}`, expected_content: '+OK' },
      { name: 'Shop DNS', type: 'dns', url: 'dns://shop.example.test', dns_resolver: dns.resolver, expected_dns_values: ['192.0.2.7'] },
      { name: 'Loopback', type: 'ping', url: 'ping://127.0.0.1', ping_count: 1 },
      // Nothing listens there: a downtime, and its incident.
      { name: 'Closed port', type: 'tcp', url: 'tcp://127.0.0.1:9' },
    ];
    const ids: Record<string, number> = {};
    for (const spec of specs) {
      const res = await call<{ id: number }>('POST', '/api/v1/monitors', { ...spec, check_interval: 2, timeout: 5 });
      expect([spec.name, res.status, res.status === 201 ? null : res.text]).toEqual([spec.name, 201, null]);
      ids[spec.name] = res.data.id;
    }
    const statusOf = async (id: number): Promise<string> => (await call<{ status: string }>('GET', `/api/v1/monitors/${id}`)).data.status;
    for (const [name, want] of [
      ['Redis port', 'online'],
      ['Shop DNS', 'online'],
      ['Loopback', 'online'],
      ['Closed port', 'offline'],
    ] as const) {
      await waitFor(async () => ((await statusOf(ids[name]!)) === want ? true : null), { what: `${name} ${want}`, timeoutMs: 30_000 });
    }

    const listed = async (type: string): Promise<string[]> =>
      (await call<{ name: string }[]>('GET', `/api/v1/monitors?type=${type}`)).data.map((m) => m.name).sort();
    expect(await listed('tcp')).toEqual(['Closed port', 'Redis port']);
    expect(await listed('dns')).toEqual(['Shop DNS']);
    expect(await listed('ping')).toEqual(['Loopback']);

    type Result = { status: string; error: string | null; response_time: number | null };
    const latest = async (name: string): Promise<Result | undefined> => (await call<Result[]>('GET', `/api/v1/monitors/${ids[name]}/results?limit=1`)).data[0];
    const latestDns = await latest('Shop DNS');
    expect(latestDns).toMatchObject({ status: 'up', dns: { response_code: 'NOERROR', answers: ['192.0.2.7'], min_ttl: 120 } });
    const latestPing = await latest('Loopback');
    expect(latestPing).toMatchObject({ status: 'up', ping: { packet_loss: 0 } });
    expect(latestPing?.response_time).toEqual(expect.any(Number));
    const latestClosed = await latest('Closed port');
    expect(latestClosed).toMatchObject({ status: 'down', error: 'Connection refused' });

    // The beads of the list carry each type's figure: a ping's packet loss, a dns check's answer.
    const beads = (await call<{ monitor_id: number; checks: { packet_loss: number | null; dns_answers: string[] | null }[] }[]>(
      'GET',
      `/api/v1/monitors/recent-checks?ids=${ids.Loopback},${ids['Shop DNS']},${ids['Redis port']}`,
    )).data;
    const latestBead = (name: string) => beads.find((b) => b.monitor_id === ids[name])?.checks[0];
    expect(latestBead('Loopback')).toMatchObject({ packet_loss: 0, dns_answers: null });
    expect(latestBead('Shop DNS')).toMatchObject({ packet_loss: null, dns_answers: ['192.0.2.7'] });
    expect(latestBead('Redis port')).toMatchObject({ packet_loss: null, dns_answers: null });

    for (const name of ['Redis port', 'Shop DNS', 'Loopback']) {
      const stats = (await call<{ checks: { total: number; failed: number }; uptime: Record<string, number | null> }>('GET', `/api/v1/monitors/${ids[name]}/stats?period=24h`)).data;
      expect([name, stats.checks.total > 0, stats.checks.failed, stats.uptime['24h']]).toEqual([name, true, 0, 100]);
    }
    // The downtime's notification, recorded by the notifier as for an http monitor.
    const notified = await waitFor(
      async () => {
        const list = (await call<unknown[]>('GET', `/api/v1/notifications?monitor_id=${ids['Closed port']}`)).data;
        return list.length > 0 ? list : null;
      },
      { what: 'the downtime notification of the closed port' },
    );
    expect(notified).toEqual([expect.objectContaining({ monitor_id: ids['Closed port'], type: 'downtime', status: 'active' })]);

    const page = await call('POST', '/api/v1/status-pages', { slug: 'types', title: 'Types', monitor_ids: Object.values(ids) });
    expect(page.status).toBe(201);
    const json = (await call<{ status: string; monitors: { name: string; display_status: string }[] }>('GET', '/api/v1/public/status-pages/types')).data;
    expect(json.monitors.map((m) => [m.name, m.display_status])).toEqual([
      ['Redis port', 'online'],
      ['Shop DNS', 'online'],
      ['Loopback', 'online'],
      ['Closed port', 'offline'],
    ]);
    expect(json.status).toBe('outage');
    const html = (await call('GET', '/status/types')).text;
    for (const name of Object.keys(ids)) expect(html).toContain(name);

    for (const [name, word] of [
      ['Loopback', 'up'],
      ['Closed port', 'down'],
    ] as const) {
      const badge = (await call<{ status_url: string }>('POST', `/api/v1/monitors/${ids[name]}/badge`)).data;
      const svg = await call('GET', new URL(badge.status_url).pathname);
      expect([name, svg.status, svg.text.includes(`>${word}<`)]).toEqual([name, 200, true]);
    }
  });
});
