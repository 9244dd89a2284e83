import { UnrecoverableError } from 'bullmq';
import { aChangeWithoutIncident, aMonitorThatWentDown, deliveriesOf, notificationsOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('status-changed → offline', () => {
  const bed = useTestbed();

  it('creates one active downtime notification and emails the owner', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });

    await bed.processor()(down.offline);

    const [notification, ...others] = await notificationsOf(bed.ds, down.incident.id);
    expect(others).toHaveLength(0);
    expect(notification).toMatchObject({
      type: 'downtime',
      status: 'active',
      user_id: down.owner.id,
      started_at: new Date('2026-11-22T10:00:00.000Z'),
      resolved_at: null,
      duration: null,
      message: 'Monitor "Shop" (https://shop.example.test/health) is down: HTTP 503 Service Unavailable',
      error_details: { status_code: 503, response_time: 1234, error_message: 'HTTP 503 Service Unavailable' },
    });
    expect(notification.email_sent_at).toBeInstanceOf(Date);

    expect(bed.sendgrid.mails).toHaveLength(1);
    const [mail] = bed.sendgrid.mails;
    expect(mail).toMatchObject({ to: 'owner@example.test', from: 'uptime@localhost', subject: '[DOWN] Shop is down' });
    expect(mail.text).toContain('Monitor "Shop" is down.');
    expect(mail.text).toContain('URL: https://shop.example.test/health');
    expect(mail.text).toContain('Error: HTTP 503 Service Unavailable');
    expect(mail.text).toContain('Status code: 503');
    expect(mail.text).toContain('Response time: 1234 ms');
    expect(mail.text).toContain('Down since: 2026-11-22T10:00:00.000Z');
    expect(mail.text).not.toContain('Back up at');

    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ recipient: 'owner@example.test', status: 'sent', attempts: 1, last_error: null, sent_at: expect.any(Date) }),
    ]);
  });

  it('describes a failure without an HTTP response', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { statusCode: null, responseTime: null, error: 'connect ECONNREFUSED 10.0.0.1:443' });

    await bed.processor()(down.offline);

    const [notification] = await notificationsOf(bed.ds, down.incident.id);
    expect(notification.message).toMatch(/is down: connect ECONNREFUSED 10\.0\.0\.1:443$/);
    expect(notification.error_details).toEqual({ status_code: null, response_time: null, error_message: 'connect ECONNREFUSED 10.0.0.1:443' });
    expect(bed.sendgrid.mails[0].text).toContain('Status code: none (no HTTP response)');
    expect(bed.sendgrid.mails[0].text).toContain('Response time: n/a');
  });

  it('names a heartbeat as such where a monitor has its url (docs/heartbeats.md)', async () => {
    const down = await aMonitorThatWentDown(bed.ds, {
      monitor: { type: 'heartbeat', url: '', heartbeatPeriod: 60, heartbeatGrace: 30 },
      statusCode: null,
      responseTime: null,
      error: 'no ping within 30 s of its due time',
    });

    await bed.processor()(down.offline);

    const [notification] = await notificationsOf(bed.ds, down.incident.id);
    expect(notification.message).toBe('Monitor "Shop" (heartbeat) is down: no ping within 30 s of its due time');
    expect(bed.sendgrid.mails[0].text).toContain('URL: heartbeat');
  });

  it("emails each of the monitor's recipients once, instead of the owner", async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['ops@example.test', 'dev@example.test', 'OPS@example.test'] } });

    await bed.processor()(down.offline);

    expect(bed.sendgrid.mails.map((m) => m.to).sort()).toEqual(['dev@example.test', 'ops@example.test']);
    expect(bed.sendgrid.mails.every((m) => m.subject === '[DOWN] Shop is down')).toBe(true);
    expect(await notificationsOf(bed.ds, down.incident.id)).toHaveLength(1);
  });

  it('records the notification but sends no email when email alerts are off', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailEnabled: false } });

    await bed.processor()(down.offline);

    const notifications = await notificationsOf(bed.ds, down.incident.id);
    expect(notifications).toEqual([expect.objectContaining({ type: 'downtime', status: 'active', email_sent_at: null })]);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([]);
    expect(bed.sendgrid.server.requests).toHaveLength(0);
  });

  it('completes a change that carries no incident without notifying anyone', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const warning = await aChangeWithoutIncident(bed.ds, down.monitor.id, 'online', 'warning');

    await expect(bed.processor()(warning)).resolves.toBeUndefined();

    expect(await bed.ds.query(`SELECT id FROM notifications`)).toEqual([]);
    expect(bed.sendgrid.server.requests).toHaveLength(0);
  });

  it('completes without notifying when the monitor and its incident were deleted meanwhile', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    await bed.ds.query(`DELETE FROM monitors WHERE id = $1`, [down.monitor.id]);

    await expect(bed.processor()(down.offline)).resolves.toBeUndefined();

    expect(await bed.ds.query(`SELECT id FROM notifications`)).toEqual([]);
    expect(bed.sendgrid.server.requests).toHaveLength(0);
  });

  it('fails an invalid payload without retry', async () => {
    const job = { id: 'status-event-x', data: { eventId: 'x', monitorId: 'one', from: 'online', to: 'exploded' } };

    await expect(bed.processor()(job)).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('fails without retry when the incident belongs to another monitor', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const other = await aMonitorThatWentDown(bed.ds);
    const forged = { id: 'status-event-forged', data: { ...down.offline.data, incidentId: other.incident.id } };

    await expect(bed.processor()(forged)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await bed.ds.query(`SELECT id FROM notifications`)).toEqual([]);
  });
});
