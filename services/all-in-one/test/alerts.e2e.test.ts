import type { RunningApi } from '@uptime/api';
import { successOf } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { aCaller, answer, startFakeHttpServer, waitFor, type FakeHttpServer, type FakeSendGrid } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import { aMonitorThroughApi } from './support/api-monitor';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';
import { CheckJobs } from './support/check-jobs';
import { StatusChangeJobs } from './support/status-change-jobs';

jest.setTimeout(120_000);

/**
 * Alert settings and pausing, end to end (issue 4): api + check-worker + notifier in one process,
 * monitors checked every second against local targets, emails through a fake SendGrid.
 */
describe('alert settings and pause, api + check-worker + notifier', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let sendgrid: FakeSendGrid;
  let api: RunningApi;
  let statusChangeJobs: StatusChangeJobs;
  let checkJobs: CheckJobs;
  const targets: FakeHttpServer[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    ({ ds, sendgrid, api } = stack);
    statusChangeJobs = new StatusChangeJobs(ds);
    checkJobs = new CheckJobs();
  });

  afterAll(async () => {
    await checkJobs?.close();
    await statusChangeJobs?.close();
    await stack?.close();
    for (const t of targets) await t.close();
  });

  const resultCount = async (monitorId: number): Promise<number> =>
    ((await ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [monitorId])) as { n: number }[])[0]!.n;

  /** A caller with a monitor checked every second, already online. */
  async function onlineMonitor(name: string, auth?: string) {
    const target = await startFakeHttpServer(answer(200, 'ok'));
    targets.push(target);
    const { id, client } = await aMonitorThroughApi(stack, { name, url: `${target.url}/health` }, auth);
    const status = async (): Promise<string> => successOf(await client.get('/api/v1/monitors/{id}', { path: { id } })).data.status;
    await waitFor(async () => (await status()) === 'online', { what: `${name} online`, timeoutMs: 20_000 });
    const notifications = async () => successOf(await client.get('/api/v1/notifications', { query: { monitor_id: id } })).data;
    const mails = () => sendgrid.mails.filter((m) => m.subject.includes(name));
    /** Every email this monitor's status changes cause has been sent once this resolves. */
    const eventsHandled = () => statusChangeJobs.waitForMonitorEventsHandled(id);
    return { id, target, client, status, notifications, mails, eventsHandled };
  }

  it('sends the emails to the custom recipients instead of the owner', async () => {
    const m = await onlineMonitor('Recipients');
    const put = await m.client.put('/api/v1/monitors/{id}/alerts', { path: { id: m.id }, body: { email_recipients: ['ops@example.com', 'oncall@example.com'] } });
    expect(put.status).toBe(200);
    m.target.respond(answer(500, 'boom'));
    await waitFor(() => m.mails().length >= 2, { what: 'two downtime emails', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails().map((x) => x.to).sort()).toEqual(['oncall@example.com', 'ops@example.com']);
    expect(m.mails().every((x) => x.subject.startsWith('[DOWN]'))).toBe(true);
  });

  it('records the notification but sends nothing when email_enabled is false', async () => {
    const m = await onlineMonitor('Silent');
    await m.client.put('/api/v1/monitors/{id}/alerts', { path: { id: m.id }, body: { email_enabled: false } });
    m.target.respond(answer(500, 'boom'));
    await waitFor(async () => (await m.notifications()).some((n) => n.type === 'downtime' && n.status === 'active'), { what: 'downtime recorded', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails()).toHaveLength(0);
    expect((await m.notifications())[0]!.email_sent_at).toBeNull();
  });

  it('sends no recovery email when alert_on_recovery is false', async () => {
    const m = await onlineMonitor('NoRecovery');
    await m.client.put('/api/v1/monitors/{id}/alerts', { path: { id: m.id }, body: { alert_on_recovery: false } });
    m.target.respond(answer(500, 'boom'));
    await waitFor(() => m.mails().length >= 1, { what: 'downtime email', timeoutMs: 20_000 });
    m.target.respond(answer(200, 'ok'));
    await waitFor(async () => (await m.notifications()).some((n) => n.type === 'recovery'), { what: 'recovery recorded', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails().map((x) => x.subject.slice(0, 6))).toEqual(['[DOWN]']);
  });

  it('shows warning for two failed checks and goes offline at the third with alert_threshold 3', async () => {
    const m = await onlineMonitor('Threshold');
    await m.client.put('/api/v1/monitors/{id}/alerts', { path: { id: m.id }, body: { alert_threshold: 3 } });
    m.target.respond(answer(500, 'boom'));
    await waitFor(async () => (await m.status()) === 'warning', { what: 'warning', timeoutMs: 20_000, intervalMs: 50 });
    expect(m.mails()).toHaveLength(0);
    await waitFor(async () => (await m.status()) === 'offline', { what: 'offline', timeoutMs: 20_000 });
    const events: { from_status: string; to_status: string; check_result_id: string }[] = await ds.query(
      `SELECT from_status, to_status, check_result_id FROM status_events WHERE monitor_id = $1 ORDER BY id`,
      [m.id],
    );
    expect(events.map((e) => `${e.from_status}>${e.to_status}`)).toEqual(['pending>online', 'online>warning', 'warning>offline']);
    const failedUpToOffline: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM check_results
        WHERE monitor_id = $1 AND NOT ok AND scheduled_at <= (SELECT scheduled_at FROM check_results WHERE id = $2)`,
      [m.id, events[2]!.check_result_id],
    );
    expect(failedUpToOffline[0]!.n).toBe(3);
    await waitFor(() => m.mails().length >= 1, { what: 'downtime email', timeoutMs: 20_000 });
  });

  it('pauses during an outage: no checks while paused, then one recovery after resume', async () => {
    // `clock` is checked every second by the same worker all along: its checks measure the time.
    const [m, clock] = await Promise.all([onlineMonitor('Paused'), onlineMonitor('Clock')]);
    m.target.respond(answer(500, 'boom'));
    await waitFor(() => m.mails().length >= 1, { what: 'downtime email', timeoutMs: 20_000 });
    const paused = await m.client.post('/api/v1/monitors/{id}/pause', { path: { id: m.id }, body: { reason: 'fixing it' } });
    expect(successOf(paused).data).toMatchObject({ status: 'paused', pause_reason: 'fixing it' });
    // A check already running when the pause landed may still finish first.
    await checkJobs.waitForNoneRunning(m.id);
    const whilePaused = await resultCount(m.id);
    // Three checks of a monitor on the same 1 s interval: time for at least two of this one's.
    const clockBefore = await resultCount(clock.id);
    await waitFor(async () => (await resultCount(clock.id)) >= clockBefore + 3, { what: 'three more checks of the other monitor', timeoutMs: 20_000 });
    expect(await resultCount(m.id)).toBe(whilePaused);
    expect(await m.status()).toBe('paused');
    expect(m.mails()).toHaveLength(1);

    m.target.respond(answer(200, 'ok'));
    const resumedAt = Date.now();
    const resumed = await m.client.post('/api/v1/monitors/{id}/resume', { path: { id: m.id } });
    expect(successOf(resumed).data).toMatchObject({ status: 'pending', paused_at: null, pause_reason: null });
    await waitFor(async () => (await m.status()) === 'online', { what: 'online after resume', timeoutMs: 20_000, intervalMs: 50 });
    expect(Date.now() - resumedAt).toBeLessThan(3000);
    await waitFor(() => m.mails().length >= 2, { what: 'recovery email', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails().map((x) => x.subject.slice(0, 4))).toEqual(['[DOW', '[UP]']);
    const list = await m.notifications();
    expect(list.map((n) => `${n.type}:${n.status}`).sort()).toEqual(['downtime:resolved', 'recovery:resolved']);
  });

  it('resumed while still down: stays one downtime, no second email', async () => {
    const m = await onlineMonitor('StillDown');
    m.target.respond(answer(500, 'boom'));
    await waitFor(() => m.mails().length >= 1, { what: 'downtime email', timeoutMs: 20_000 });
    await m.client.post('/api/v1/monitors/{id}/pause', { path: { id: m.id } });
    await m.client.post('/api/v1/monitors/{id}/resume', { path: { id: m.id } });
    await waitFor(async () => (await m.status()) === 'offline', { what: 'offline again', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails()).toHaveLength(1);
    expect((await m.notifications()).filter((n) => n.type === 'downtime')).toHaveLength(1);
  });

  it("sends no email for a user whose email_notifications preference is off, but records it", async () => {
    const caller = await aCaller(ds);
    const client = await contractCheckedClient(api.url, caller.auth);
    const pref = await client.put('/api/v1/preferences', { body: { email_notifications: false } });
    expect(pref.status).toBe(200);
    const m = await onlineMonitor('PrefOff', caller.auth);
    m.target.respond(answer(500, 'boom'));
    await waitFor(async () => (await m.notifications()).some((n) => n.type === 'downtime'), { what: 'downtime recorded', timeoutMs: 20_000 });
    await m.eventsHandled();
    expect(m.mails()).toHaveLength(0);
  });
});
