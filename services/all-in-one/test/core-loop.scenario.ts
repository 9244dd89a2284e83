import type { DataSource } from '@uptime/db';
import { JobName } from '@uptime/queues';
import { successOf } from '@uptime/client';
import { answer, waitFor, type FakeHttpServer, type FakeSendGrid } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import { StatusChangeJobs } from './support/status-change-jobs';

export interface Stack {
  apiUrl: string;
  ds: DataSource;
  target: FakeHttpServer;
  sendgrid: FakeSendGrid;
  auth: string;
  ownerEmail: string;
}

/**
 * The core loop as a user meets it (issue 2): a monitor checked every second goes offline when
 * its target answers 500, raises one downtime notification and one email, and on recovery
 * resolves it with its duration and sends a recovery email. Redelivered events change nothing.
 */
export async function runCoreLoopScenario(stack: Stack): Promise<void> {
  const api = await contractCheckedClient(stack.apiUrl, stack.auth);
  const created = await api.post('/api/v1/monitors', {
    body: { name: 'Shop', url: `${stack.target.url}/health`, type: 'http', check_interval: 1, timeout: 5 },
  });
  expect(created.status).toBe(201);
  const id = successOf(created).data.id;
  const status = async (): Promise<string> => successOf(await api.get('/api/v1/monitors/{id}', { path: { id } })).data.status;
  const notifications = async () => successOf(await api.get('/api/v1/notifications', { query: { monitor_id: id } })).data;

  await waitFor(async () => (await status()) === 'online', { what: 'monitor online', timeoutMs: 20000 });

  stack.target.respond(answer(500, 'boom'));
  await waitFor(async () => (await status()) === 'offline', { what: 'monitor offline', timeoutMs: 20000 });
  await waitFor(() => stack.sendgrid.mails.length >= 1, { what: 'downtime email', timeoutMs: 20000 });
  const active = successOf(await api.get('/api/v1/notifications/active'));
  expect(active.meta.count).toBe(1);
  expect(active.data[0]).toMatchObject({ type: 'downtime', status: 'active', monitor_id: id });
  // Further failed checks: still one notification and one email.
  const failedChecks = async (): Promise<number> =>
    (await stack.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1 AND NOT ok', [id]))[0].n;
  const failedAtOffline = await failedChecks();
  await waitFor(async () => (await failedChecks()) >= failedAtOffline + 2, { what: 'two more failed checks', timeoutMs: 20000 });
  const statusChangeJobs = new StatusChangeJobs(stack.ds);
  await statusChangeJobs.waitForMonitorEventsHandled(id);
  expect((await notifications()).filter((n) => n.type === 'downtime')).toHaveLength(1);
  expect(stack.sendgrid.mails).toHaveLength(1);
  expect(stack.sendgrid.mails[0]).toMatchObject({ to: stack.ownerEmail });
  expect(stack.sendgrid.mails[0]!.subject).toContain('Shop');
  await waitFor(async () => (await notifications())[0]?.email_sent_at, { what: 'email_sent_at' });

  stack.target.respond(answer(200, 'fine'));
  await waitFor(async () => (await status()) === 'online', { what: 'monitor online again', timeoutMs: 20000 });
  await waitFor(() => stack.sendgrid.mails.length >= 2, { what: 'recovery email', timeoutMs: 20000 });
  const all = await waitFor(async () => {
    const list = await notifications();
    return list.length === 2 && list.every((n) => n.status === 'resolved') ? list : null;
  }, { what: 'downtime resolved and recovery recorded' });
  const downtime = all.find((n) => n.type === 'downtime')!;
  const recovery = all.find((n) => n.type === 'recovery')!;
  expect(downtime.duration).toEqual(expect.any(Number));
  expect(downtime.duration).toBeGreaterThanOrEqual(2);
  expect(recovery).toMatchObject({ status: 'resolved', duration: downtime.duration });
  expect(stack.sendgrid.mails[1]).toMatchObject({ to: stack.ownerEmail });

  // Deliver every status event of this monitor once more, under new job ids.
  const events: { id: string; monitor_id: number; from_status: string; to_status: string; incident_id: number | null; check_result_id: string | null }[] =
    await stack.ds.query('SELECT id, monitor_id, from_status, to_status, incident_id, check_result_id FROM status_events WHERE monitor_id = $1', [id]);
  expect(events.filter((e) => e.to_status === 'offline')).toHaveLength(1);
  const redelivered = events.map((e) => `redelivery-${e.id}`);
  await statusChangeJobs.queue.addBulk(
    events.map((e) => ({
      name: JobName.statusChanged,
      data: { eventId: String(e.id), monitorId: e.monitor_id, from: e.from_status, to: e.to_status, incidentId: e.incident_id, checkResultId: e.check_result_id ? String(e.check_result_id) : null },
      opts: { jobId: `redelivery-${e.id}` },
    })),
  );
  await statusChangeJobs.waitForJobsCompleted(redelivered);
  await statusChangeJobs.close();
  expect(await notifications()).toHaveLength(2);
  expect(stack.sendgrid.mails).toHaveLength(2);
}
