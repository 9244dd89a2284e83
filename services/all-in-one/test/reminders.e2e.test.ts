import { successOf } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { answer, startFakeHttpServer, waitFor, type FakeHttpServer, type FakeSendGrid } from '@uptime/testing';
import { aMonitorThroughApi } from './support/api-monitor';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';
import { StatusChangeJobs } from './support/status-change-jobs';

jest.setTimeout(120_000);

/**
 * Reminders and escalation end to end (docs/alert-rules.md): settings and acknowledgements through
 * the API, a monitor checked every second going down for real, the notifier's follow-up sweep run
 * at chosen times (minutes into the downtime) instead of waiting for them.
 */
describe('reminders and escalation, api + check-worker + notifier', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let sendgrid: FakeSendGrid;
  let statusChangeJobs: StatusChangeJobs;
  const targets: FakeHttpServer[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    ({ ds, sendgrid } = stack);
    statusChangeJobs = new StatusChangeJobs(ds);
  });

  afterAll(async () => {
    await statusChangeJobs?.close();
    await stack?.close();
    for (const t of targets) await t.close();
  });

  /** A monitor checked every second with the given alert settings, gone down, its downtime email sent. */
  async function aDownMonitor(name: string, alerts: Record<string, unknown>) {
    const target = await startFakeHttpServer(answer(200, 'ok'));
    targets.push(target);
    const { id, client } = await aMonitorThroughApi(stack, { name, url: `${target.url}/health` });
    const put = await client.put('/api/v1/monitors/{id}/alerts', { path: { id }, body: { email_recipients: ['ops@example.com'], ...alerts } });
    expect(put.status).toBe(200);
    target.respond(answer(500, 'boom'));
    const mails = () => sendgrid.mails.filter((m) => m.subject.includes(name)).map((m) => `${m.to}: ${m.subject}`);
    await waitFor(() => mails().length >= 1, { what: `${name} downtime email`, timeoutMs: 20_000 });
    await statusChangeJobs.waitForMonitorEventsHandled(id);
    const downtime = successOf(await client.get('/api/v1/notifications', { query: { monitor_id: id, type: 'downtime' } })).data[0]!;
    const minutesIn = (minutes: number): Date => new Date(Date.parse(downtime.started_at) + minutes * 60_000);
    const sweep = (minutes: number): Promise<number> => stack.notifier!.sweepFollowups(minutesIn(minutes));
    return { id, client, target, mails, downtime, sweep };
  }

  it('reminds every N minutes until the downtime is acknowledged through the API', async () => {
    const m = await aDownMonitor('Reminded', { reminder_interval_minutes: 5, escalation_recipients: ['lead@example.com'], escalation_after_minutes: 12 });
    expect(await m.sweep(4)).toBe(0);
    expect(await m.sweep(5)).toBe(1);
    expect(await m.sweep(10)).toBe(1);
    const acknowledged = await m.client.post('/api/v1/notifications/{id}/acknowledge', { path: { id: m.downtime.id } });
    expect(acknowledged.status).toBe(200);
    expect(await m.sweep(12)).toBe(0);
    expect(await m.sweep(60)).toBe(0);
    expect(m.mails()).toEqual([
      'ops@example.com: [DOWN] Reminded is down',
      'ops@example.com: [DOWN] Reminded is still down for 5 minutes',
      'ops@example.com: [DOWN] Reminded is still down for 10 minutes',
    ]);
    const detail = successOf(await m.client.get('/api/v1/notifications/{id}', { path: { id: m.downtime.id } })).data;
    expect(detail.deliveries.map((d) => [d.kind, d.reminder, d.recipient, d.status])).toEqual([
      ['notice', null, 'ops@example.com', 'sent'],
      ['reminder', 2, 'ops@example.com', 'sent'],
    ]);
  });

  it('escalates once to the escalation recipients, and reminds no more once the monitor is back', async () => {
    const m = await aDownMonitor('Escalated', { reminder_interval_minutes: 30, escalation_recipients: ['lead@example.com', 'cto@example.com'], escalation_after_minutes: 5 });
    expect(await m.sweep(5)).toBe(1);
    expect(await m.sweep(6)).toBe(0);
    m.target.respond(answer(200, 'ok'));
    await waitFor(() => m.mails().length >= 4, { what: 'recovery email', timeoutMs: 20_000 });
    await statusChangeJobs.waitForMonitorEventsHandled(m.id);
    expect(await m.sweep(30)).toBe(0);
    expect(m.mails()).toEqual([
      'ops@example.com: [DOWN] Escalated is down',
      'lead@example.com: [ESCALATED] Escalated is still down for 5 minutes, unacknowledged',
      'cto@example.com: [ESCALATED] Escalated is still down for 5 minutes, unacknowledged',
      'ops@example.com: [UP] Escalated is back up',
    ]);
  });
});
