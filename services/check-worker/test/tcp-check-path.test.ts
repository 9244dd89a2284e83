import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Monitor } from '@uptime/db';
import { selfSignedCertificate } from '@uptime/probe/test/support/test-servers';
import { aMonitor, aUser } from '@uptime/testing';
import { checkAndRecordOn } from './support/check-and-record';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

const DAY_MS = 86_400_000;

/** A tcp monitor from its schedule to its recorded state: the job the scheduler made, the worker's processor, the batch. */
describe('a tcp monitor through the check path', () => {
  let bed: SchedulerBed;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    bed = await startSchedulerBed('tcp-check-path-test');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
    await bed.close();
  });

  async function listen(server: Server): Promise<number> {
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return (server.address() as AddressInfo).port;
  }

  const checkAndRecord = (monitor: Monitor, plannedAt: number) => checkAndRecordOn(bed, 'tcp-check-path')(monitor, plannedAt);

  const rowOf = (id: number) => bed.ds.getRepository(Monitor).findOneByOrFail({ id });

  it('goes online while the port accepts and offline, with a downtime, once it refuses', async () => {
    const server = createNetServer((socket) => socket.write('+OK ready\r\n'));
    const port = await listen(server);
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { type: 'tcp', url: `tcp://127.0.0.1:${port}`, timeout: 2, expectedContent: '+OK' });
    const up = await checkAndRecord(monitor, Date.now());
    expect(up.result).toMatchObject({ ok: true, statusCode: null });
    expect(await rowOf(monitor.id)).toMatchObject({ status: 'online', openIncidentId: null });

    await new Promise((done) => server.close(done));
    for (const socket of sockets) socket.destroy();
    const down = await checkAndRecord(await rowOf(monitor.id), Date.now() + 1000);
    expect(down.result).toMatchObject({ ok: false, error: 'Connection refused' });
    const row = await rowOf(monitor.id);
    expect(row.status).toBe('offline');
    expect(row.openIncidentId).toEqual(expect.any(Number));
    const [result] = await bed.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [monitor.id]);
    expect(result.n).toBe(2);
  });

  it("records a tls:// target's certificate expiry and opens the certificate alert, as for https", async () => {
    const port = await listen(createTlsServer(selfSignedCertificate(3), () => undefined));
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { type: 'tcp', url: `tls://127.0.0.1:${port}`, timeout: 2, verifySsl: false });
    expect((await checkAndRecord(monitor, Date.now())).result.ok).toBe(true);
    const row = await rowOf(monitor.id);
    const daysLeft = (row.certificateExpiresAt!.getTime() - Date.now()) / DAY_MS;
    expect(daysLeft).toBeGreaterThan(2.9);
    expect(row.openCertificateEpisodeId).toEqual(expect.any(Number));
    const [episode] = await bed.ds.query('SELECT kind, resolved_at FROM alert_episodes WHERE monitor_id = $1', [monitor.id]);
    expect(episode).toEqual({ kind: 'certificate', resolved_at: null });
  });
});
