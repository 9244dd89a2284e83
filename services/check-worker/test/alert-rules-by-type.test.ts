import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Monitor } from '@uptime/db';
import { aMonitor, aUser, startFakeDnsServer, type FakeDnsServer } from '@uptime/testing';
import { checkAndRecordOn } from './support/check-and-record';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

/**
 * The alert rules (docs/alert-rules.md) hold for a tcp and a dns monitor as for an http one:
 * each check runs through its own probe against a real target on this machine, from the job the
 * scheduler made to the recorded state. The target's answer is switched between a pass and a
 * failure of the monitor's content rule, so only the rules decide what the state does.
 */
describe.each(['tcp', 'dns'] as const)('alert rules for a %s monitor', (type) => {
  let bed: SchedulerBed;
  let dns: FakeDnsServer;
  let tcp: Server;
  const sockets = new Set<Socket>();
  /** What the targets answer now: the expected value, or another one. */
  let healthy = true;

  beforeAll(async () => {
    bed = await startSchedulerBed(`alert-rules-${type}-test`);
    dns = await startFakeDnsServer();
    tcp = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.end(healthy ? '+OK ready\r\n' : '-ERR busy\r\n');
    });
    await new Promise<void>((done) => tcp.listen(0, '127.0.0.1', done));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => tcp.close(done));
    await dns.close();
    await bed.close();
  });

  const setHealthy = (value: boolean): void => {
    healthy = value;
    dns.set('db.example.test', 'A', { records: [{ type: 'A', name: 'db.example.test', ttl: 60, data: value ? '192.0.2.10' : '192.0.2.99' }] });
  };

  async function aTypedMonitor(extra: Partial<Monitor>): Promise<Monitor> {
    const port = (tcp.address() as AddressInfo).port;
    const target: Partial<Monitor> =
      type === 'tcp'
        ? { type: 'tcp', url: `tcp://127.0.0.1:${port}`, expectedContent: '+OK' }
        : { type: 'dns', url: 'dns://db.example.test', dnsResolver: dns.resolver, expectedDnsValues: ['192.0.2.10'] };
    return aMonitor(bed.ds, await aUser(bed.ds), { ...target, timeout: 2, ...extra });
  }

  const rowOf = (id: number) => bed.ds.getRepository(Monitor).findOneByOrFail({ id });
  const incidentsOf = (id: number): Promise<{ resolved_at: Date | null }[]> =>
    bed.ds.query('SELECT resolved_at FROM incidents WHERE monitor_id = $1 ORDER BY id', [id]);
  const T0 = Date.now();
  /** Runs the monitor's check planned `second`s after T0 against the target as it answers now. */
  const checkAt = async (id: number, second: number, ok: boolean) => {
    setHealthy(ok);
    const outcome = await checkAndRecordOn(bed, `alert-rules-${type}`)(await rowOf(id), T0 + second * 1000);
    expect(outcome.result.ok).toBe(ok);
    return rowOf(id);
  };

  it('goes offline only after alert_threshold failures in a row, and online only after recovery_threshold successes', async () => {
    const m = await aTypedMonitor({ alertThreshold: 2, recoveryThreshold: 2 });
    expect(await checkAt(m.id, 0, true)).toMatchObject({ status: 'online' });
    expect(await checkAt(m.id, 30, false)).toMatchObject({ status: 'warning', statusReason: 'failing', openIncidentId: null });
    const offline = await checkAt(m.id, 60, false);
    expect(offline).toMatchObject({ status: 'offline', openIncidentId: expect.any(Number) });
    // One success is not a recovery yet; the second is, and closes the downtime.
    expect(await checkAt(m.id, 90, true)).toMatchObject({ status: 'offline', openIncidentId: offline.openIncidentId });
    expect(await checkAt(m.id, 120, true)).toMatchObject({ status: 'online', openIncidentId: null });
    expect(await incidentsOf(m.id)).toEqual([{ resolved_at: expect.any(Date) }]);
  });

  it('opens no downtime while a maintenance window covers it, and marks its checks as made in maintenance', async () => {
    const m = await aTypedMonitor({});
    const [w]: { id: number }[] = await bed.ds.query(
      `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone) VALUES ($1, 'Upgrade', $2, 60, 'none', 'UTC') RETURNING id`,
      [m.ownerId, new Date(T0 - 60_000)],
    );
    await bed.ds.query('INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)', [w!.id, m.id]);
    await checkAt(m.id, 0, true);
    expect(await checkAt(m.id, 30, false)).toMatchObject({ status: 'offline', inMaintenance: true, openIncidentId: null });
    expect(await incidentsOf(m.id)).toEqual([]);
    const flags = await bed.ds.query('SELECT ok, maintenance FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [m.id]);
    expect(flags).toEqual([
      { ok: true, maintenance: true },
      { ok: false, maintenance: true },
    ]);
  });
});
