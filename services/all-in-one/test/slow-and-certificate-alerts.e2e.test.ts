import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { successOf } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { JobName } from '@uptime/queues';
import {
  answer,
  selfSignedCertificate,
  startFakeHttpServer,
  waitFor,
  type FakeHandler,
  type FakeHttpServer,
  type FakeSendGrid,
  type TlsMaterial,
} from '@uptime/testing';
import { aMonitorThroughApi, type MonitorBody } from './support/api-monitor';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';
import { StatusChangeJobs } from './support/status-change-jobs';

jest.setTimeout(120_000);

/** Answers 200 after `ms`: a slow but successful target. */
const slowly =
  (ms: number): FakeHandler =>
  (req, res) => {
    setTimeout(() => answer(200, 'ok')(req, res), ms);
  };

/** An HTTPS target on 127.0.0.1 whose certificate a test can replace between checks. */
async function startHttpsTarget(
  tls: TlsMaterial,
): Promise<{ url: string; useCertificate(tls: TlsMaterial): void; close(): Promise<void> }> {
  const server: Server = createServer(tls, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    // New connections get the new certificate (a check never reuses one: packages/probe).
    useCertificate: (next) => server.setSecureContext(next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Slow and certificate alerts end to end (docs/alert-rules.md): api + check-worker + notifier in
 * one process, monitors checked every second against local targets, emails through a fake SendGrid.
 */
describe('slow and certificate alerts, api + check-worker + notifier', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let sendgrid: FakeSendGrid;
  let statusChangeJobs: StatusChangeJobs;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    ({ ds, sendgrid } = stack);
    statusChangeJobs = new StatusChangeJobs(ds);
  });

  afterAll(async () => {
    await statusChangeJobs?.close();
    await stack?.close();
    for (const close of closers) await close();
  });

  /** A monitor of `url` checked every second, with `alerts` as its alert settings, already checked once. */
  async function aMonitorOf(name: string, url: string, fields: Partial<MonitorBody>, alerts: Record<string, unknown>) {
    const { id, client } = await aMonitorThroughApi(stack, { name, url, ...fields });
    expect((await client.put('/api/v1/monitors/{id}/alerts', { path: { id }, body: alerts })).status).toBe(200);
    const monitor = async () => successOf(await client.get('/api/v1/monitors/{id}', { path: { id } })).data;
    await waitFor(async () => (await monitor()).status !== 'pending', { what: `${name} checked`, timeoutMs: 20_000 });
    const notifications = async (type: 'slow' | 'certificate') =>
      successOf(await client.get('/api/v1/notifications', { query: { monitor_id: id, type } })).data;
    const mails = () => sendgrid.mails.filter((m) => m.subject.includes(name)).map((m) => m.subject);
    const checks = async (): Promise<number> =>
      (await ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [id]))[0].n;
    /** Every email this monitor's status events cause has been sent once this resolves. */
    const eventsHandled = () => statusChangeJobs.waitForMonitorEventsHandled(id);
    return { id, client, monitor, notifications, mails, checks, eventsHandled };
  }

  async function aTarget(): Promise<FakeHttpServer> {
    const target = await startFakeHttpServer(answer(200, 'ok'));
    closers.push(() => target.close());
    return target;
  }

  /** Every status event of the monitor delivered once more, under new job ids, as a redelivery would. */
  async function redeliverEvents(monitorId: number): Promise<void> {
    const events: { id: string; from_status: string; to_status: string; incident_id: number | null; episode_ids: number[] }[] =
      await ds.query('SELECT id, from_status, to_status, incident_id, episode_ids FROM status_events WHERE monitor_id = $1', [monitorId]);
    await statusChangeJobs.queue.addBulk(
      events.map((e) => ({
        name: JobName.statusChanged,
        data: {
          eventId: String(e.id),
          monitorId,
          from: e.from_status,
          to: e.to_status,
          incidentId: e.incident_id,
          episodeIds: e.episode_ids,
        },
        opts: { jobId: `redelivery-${e.id}` },
      })),
    );
    await statusChangeJobs.waitForJobsCompleted(events.map((e) => `redelivery-${e.id}`));
  }

  it('emails once when a monitor becomes slow and once when it is fast again, redeliveries included', async () => {
    const target = await aTarget();
    const m = await aMonitorOf('Crawling', `${target.url}/health`, { response_time_threshold: 500 }, { alert_on_slow: true });
    target.respond(slowly(900));
    await waitFor(() => m.mails().length >= 1, { what: 'slow email', timeoutMs: 20_000 });
    expect((await m.monitor()).status_reason).toBe('slow');
    expect(await m.notifications('slow')).toEqual([expect.objectContaining({ type: 'slow', status: 'active', resolved_at: null })]);

    target.respond(answer(200, 'ok'));
    await waitFor(() => m.mails().length >= 2, { what: '"no longer slow" email', timeoutMs: 20_000 });
    await m.eventsHandled();
    await redeliverEvents(m.id);

    expect(m.mails()).toEqual(['[SLOW] Crawling is slow', '[OK] Crawling is no longer slow']);
    const [slow, ...others] = await m.notifications('slow');
    expect(others).toEqual([]);
    expect(slow).toMatchObject({ status: 'resolved', duration: expect.any(Number) });
    expect(slow!.resolved_at).not.toBeNull();
    expect((await m.monitor()).status).toBe('online');
  });

  it('sends nothing for a slow monitor while alert_on_slow is false', async () => {
    const target = await aTarget();
    const m = await aMonitorOf('QuietlySlow', `${target.url}/health`, { response_time_threshold: 500 }, { alert_on_slow: false });
    target.respond(slowly(900));
    await waitFor(async () => (await m.monitor()).status_reason === 'slow', { what: 'slow', timeoutMs: 20_000 });
    target.respond(answer(200, 'ok'));
    await waitFor(async () => (await m.monitor()).status === 'online', { what: 'fast again', timeoutMs: 20_000 });
    await m.eventsHandled();

    expect(m.mails()).toEqual([]);
    expect(await m.notifications('slow')).toEqual([]);
  });

  it('sends one certificate notification for a certificate expiring in 3 days, and one more for a new certificate under the limit', async () => {
    // Certificates the test makes: 3 days, then a replacement with 2 days left (a different notAfter).
    const target = await startHttpsTarget(selfSignedCertificate(3));
    closers.push(() => target.close());
    const m = await aMonitorOf('Expiring', `${target.url}/health`, { verify_ssl: false }, { certificate_expiry_days: 14 });
    await waitFor(() => m.mails().length >= 1, { what: 'certificate email', timeoutMs: 20_000 });
    const seen = await m.checks();
    await waitFor(async () => (await m.checks()) >= seen + 4, { what: 'four more checks', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails()).toEqual(['[CERT] Expiring: certificate expires in 3 days']);
    const [first, ...none] = await m.notifications('certificate');
    expect(none).toEqual([]);
    expect(first).toMatchObject({ type: 'certificate', status: 'active' });
    expect(first!.message).toContain((await m.monitor()).certificate_expires_at);

    target.useCertificate(selfSignedCertificate(2));
    await waitFor(() => m.mails().length >= 2, { what: 'second certificate email', timeoutMs: 20_000 });
    const again = await m.checks();
    await waitFor(async () => (await m.checks()) >= again + 3, { what: 'three more checks', timeoutMs: 20_000 });
    await m.eventsHandled();
    await redeliverEvents(m.id);

    expect(m.mails()).toEqual(['[CERT] Expiring: certificate expires in 3 days', '[CERT] Expiring: certificate expires in 2 days']);
    // Newest first: the new certificate's, active; the old one's resolved when the certificate changed.
    expect((await m.notifications('certificate')).map((n) => n.status)).toEqual(['active', 'resolved']);
  });

  it('sends no certificate notification with certificate_expiry_days 0', async () => {
    const target = await startHttpsTarget(selfSignedCertificate(3));
    closers.push(() => target.close());
    // Switched off before any check could see the certificate: first an http target, then the https one.
    const plain = await aTarget();
    const m = await aMonitorOf('NoCertAlerts', `${plain.url}/health`, { verify_ssl: false }, { certificate_expiry_days: 0 });
    expect((await m.client.patch('/api/v1/monitors/{id}', { path: { id: m.id }, body: { url: `${target.url}/health` } })).status).toBe(200);
    await waitFor(async () => (await m.monitor()).certificate_expires_at !== null, { what: 'a certificate recorded', timeoutMs: 20_000 });
    const seen = await m.checks();
    await waitFor(async () => (await m.checks()) >= seen + 3, { what: 'three more checks', timeoutMs: 20_000 });
    await m.eventsHandled();

    expect((await m.monitor()).certificate_expires_at).not.toBeNull();
    expect(m.mails()).toEqual([]);
    expect(await m.notifications('certificate')).toEqual([]);
  });
});
